// Denial messages character for character as kube-apiserver 1.28 writes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenError } from '../../../internal/authz/forbidden.ts';
import { nonResourceAttributes, resourceAttributes } from '../../../internal/authz/request-attributes.ts';
import { user } from './fixtures.ts';

const alice = user('alice');

test('namespaced list of a core resource', () => {
  const e = forbiddenError(resourceAttributes(alice, { verb: 'list', resource: 'pods', namespace: 'default', apiVersion: 'v1' }), '');
  assert.equal(e.code, 403);
  assert.equal(e.reason, 'Forbidden');
  assert.equal(e.message, 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
  assert.deepEqual(e.toStatus().details, { kind: 'pods' });
});

test('cluster-scoped resource of a group', () => {
  const e = forbiddenError(resourceAttributes(alice, { verb: 'list', resource: 'clusterroles', apiGroup: 'rbac.authorization.k8s.io' }), '');
  assert.equal(e.message, 'clusterroles.rbac.authorization.k8s.io is forbidden: User "alice" cannot list resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope');
});

test('named object and sub-resource', () => {
  const e = forbiddenError(resourceAttributes(alice, { verb: 'get', resource: 'pods', subresource: 'log', name: 'web-1', namespace: 'prod' }), '');
  assert.equal(e.message, 'pods "web-1" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "prod"');
  assert.deepEqual(e.toStatus().details, { name: 'web-1', kind: 'pods' });
  const d = forbiddenError(resourceAttributes(alice, { verb: 'update', resource: 'deployments', subresource: 'scale', apiGroup: 'apps', name: 'd', namespace: 'ns' }), '');
  assert.equal(d.message, 'deployments.apps "d" is forbidden: User "alice" cannot update resource "deployments/scale" in API group "apps" in the namespace "ns"');
  assert.deepEqual(d.toStatus().details, { name: 'd', group: 'apps', kind: 'deployments' });
});

test('a namespace is its own namespace', () => {
  const e = forbiddenError(resourceAttributes(alice, { verb: 'get', resource: 'namespaces', name: 'kube-system', namespace: 'kube-system' }), '');
  assert.equal(e.message, 'namespaces "kube-system" is forbidden: User "alice" cannot get resource "namespaces" in API group "" in the namespace "kube-system"');
});

test('non-resource path', () => {
  const e = forbiddenError(nonResourceAttributes(user('system:anonymous'), 'get', '/metrics'), '');
  assert.equal(e.message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
  assert.deepEqual(e.toStatus().details, {});
});

test('the reason follows a colon; the RBAC error wording', () => {
  const e = forbiddenError(resourceAttributes(alice, { verb: 'list', resource: 'nodes' }), 'RBAC: clusterrole.rbac.authorization.k8s.io "node-viewer" not found');
  assert.equal(e.message, 'nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "node-viewer" not found');
});

test('quotes and markup in names are escaped as kube escapes them', () => {
  const e = forbiddenError(nonResourceAttributes(user('a"b<c>&'), 'get', '/x'), '');
  assert.equal(e.message, 'forbidden: User "a\\"b&lt;c&gt;&amp;" cannot get path "/x"');
});
