// The authorizer chain: system:masters first, modes in order, first allow or deny wins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorization, parseAuthorizationModes } from '../../../internal/authz/authorization-modes.ts';
import { decide, type Authorizer } from '../../../internal/authz/authorizer.ts';
import { forbiddenError } from '../../../internal/authz/forbidden.ts';
import { authorizeRequest } from '../../../internal/authz/request-outcome.ts';
import { attributesFromRequest, nonResourceAttributes, resourceAttributes } from '../../../internal/authz/request-attributes.ts';
import { unionAuthorizer } from '../../../internal/authz/union.ts';
import { subjectRulesReviewStatus } from '../../../internal/authz/rules-review.ts';
import { parseRequestInfo } from '../../../internal/apiserver/request-info.ts';
import { indexOf, rbac, user } from './fixtures.ts';

test('--authorization-mode parsing: default RBAC, order kept, unknown and repeated refused', () => {
  assert.deepEqual(parseAuthorizationModes(''), ['RBAC']);
  assert.deepEqual(parseAuthorizationModes('Webhook,RBAC'), ['Webhook', 'RBAC']);
  assert.throws(() => parseAuthorizationModes('RBAC,ABAC'), /not a valid mode/);
  assert.throws(() => parseAuthorizationModes('RBAC,RBAC'), /more than once/);
});

test('system:masters is allowed before any mode, even AlwaysDeny', async () => {
  const { authorizer } = buildAuthorization({ modes: ['AlwaysDeny'] });
  const admin = user('admin', ['system:masters']);
  assert.equal((await authorizer.authorize(resourceAttributes(admin, { verb: 'delete', resource: 'nodes', name: 'n' }))).decision, 'allow');
  const denied = await authorizer.authorize(resourceAttributes(user('x'), { verb: 'get', resource: 'pods' }));
  assert.equal(denied.decision, 'no-opinion');
  assert.equal(denied.reason, 'Everything is forbidden.');
  assert.equal(forbiddenError(resourceAttributes(user('x'), { verb: 'get', resource: 'pods', namespace: 'd' }), denied.reason).message, 'pods is forbidden: User "x" cannot get resource "pods" in API group "" in the namespace "d": Everything is forbidden.');
  const outcome = await authorizeRequest(authorizer, resourceAttributes(user('x'), { verb: 'get', resource: 'pods', namespace: 'd' }));
  assert.equal(outcome?.code, 403);
});

test('AlwaysDeny then AlwaysAllow allows (AlwaysDeny has no opinion, as kube)', async () => {
  const { authorizer } = buildAuthorization({ modes: ['AlwaysDeny', 'AlwaysAllow'] });
  assert.equal((await authorizer.authorize(nonResourceAttributes(user('x'), 'get', '/x'))).decision, 'allow');
});

test('RBAC mode authorizes from the index; rules review lists what RBAC grants', async () => {
  const index = indexOf([rbac.clusterRole('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), rbac.clusterRoleBinding('b', 'r', [{ kind: 'User', name: 'alice' }])]);
  const { authorizer, ruleResolver } = buildAuthorization({ modes: ['RBAC'], rbacIndex: index });
  assert.equal((await authorizer.authorize(resourceAttributes(user('alice'), { verb: 'get', resource: 'pods', name: 'p', namespace: 'd' }))).decision, 'allow');
  assert.equal((await authorizer.authorize(resourceAttributes(user('bob'), { verb: 'get', resource: 'pods', name: 'p', namespace: 'd' }))).decision, 'no-opinion');
  assert.deepEqual(subjectRulesReviewStatus(ruleResolver, user('alice'), 'd'), { resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [], incomplete: false });
  assert.throws(() => buildAuthorization({ modes: ['RBAC'] }), /needs the RBAC index/);
});

test('union: deny stops the chain, reasons of no-opinions are joined, errors kept', async () => {
  const say = (decision: 'allow' | 'deny' | 'no-opinion', reason: string, error?: Error): Authorizer => ({ authorize: () => decide(decision, reason, error) });
  const attributes = nonResourceAttributes(user('x'), 'get', '/');
  assert.equal((await unionAuthorizer([say('deny', 'no'), say('allow', 'yes')]).authorize(attributes)).reason, 'no');
  const none = await unionAuthorizer([say('no-opinion', 'a'), say('no-opinion', ''), say('no-opinion', 'b', new Error('down'))]).authorize(attributes);
  assert.deepEqual([none.decision, none.reason, none.error?.message], ['no-opinion', 'a\nb', 'down']);
  const asyncAllow: Authorizer = { authorize: async () => decide('allow', 'later') };
  assert.equal((await unionAuthorizer([say('no-opinion', ''), asyncAllow]).authorize(attributes)).decision, 'allow');
});

test('attributes from a request: verbs, sub-resources, field-selector names, non-resource method', () => {
  const alice = user('alice');
  const of = (method: string, url: string) => {
    const u = new URL(url, 'https://x');
    const info = parseRequestInfo(method, u.pathname, u.searchParams);
    assert.ok(info !== null);
    return attributesFromRequest({ user: alice, method, info, query: u.searchParams });
  };
  const log = of('GET', '/api/v1/namespaces/d/pods/p/log');
  assert.deepEqual([log.verb, log.resource, log.subresource, log.name, log.namespace, log.apiGroup, log.apiVersion], ['get', 'pods', 'log', 'p', 'd', '', 'v1']);
  const watchOne = of('GET', '/api/v1/namespaces/d/pods?watch=1&fieldSelector=metadata.name%3Dp');
  assert.deepEqual([watchOne.verb, watchOne.name], ['watch', 'p']);
  assert.equal(of('GET', '/api/v1/pods?fieldSelector=metadata.name%3D%3Dq').name, 'q');
  assert.equal(of('GET', '/api/v1/pods?fieldSelector=metadata.name!%3Dq').name, '');
  const scale = of('PUT', '/apis/apps/v1/namespaces/d/deployments/x/scale');
  assert.deepEqual([scale.verb, scale.apiGroup, scale.resource, scale.subresource], ['update', 'apps', 'deployments', 'scale']);
  assert.equal(of('DELETE', '/api/v1/namespaces/d/pods').verb, 'deletecollection');
  const ns = of('GET', '/api/v1/namespaces/kube-system');
  assert.deepEqual([ns.resource, ns.name, ns.namespace], ['namespaces', 'kube-system', 'kube-system']);
  const health = of('HEAD', '/healthz');
  assert.deepEqual([health.resourceRequest, health.verb, health.path], [false, 'head', '/healthz']);
});
