// Rule matching as kube-apiserver 1.28's RuleAllows: a matrix of rules against requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { policyRule, ruleAllows, type PolicyRule } from '../../../../internal/authz/rbac/policy-rule.ts';
import { nonResourceAttributes, resourceAttributes } from '../../../../internal/authz/request-attributes.ts';
import { user } from '../fixtures.ts';

const alice = user('alice');
const req = (verb: string, resource: string, extra: { apiGroup?: string; subresource?: string; name?: string; namespace?: string } = {}) => resourceAttributes(alice, { verb, resource, ...extra });

const cases: [string, PolicyRule, ReturnType<typeof req>, boolean][] = [
  ['exact verb, core group, resource', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }), req('get', 'pods'), true],
  ['other verb', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }), req('list', 'pods'), false],
  ['verb *', policyRule({ verbs: ['*'], apiGroups: [''], resources: ['pods'] }), req('deletecollection', 'pods'), true],
  ['verb * covers special verbs', policyRule({ verbs: ['*'], apiGroups: [''], resources: ['users'] }), req('impersonate', 'users'), true],
  ['core group does not match apps', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['deployments'] }), req('get', 'deployments', { apiGroup: 'apps' }), false],
  ['group *', policyRule({ verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }), req('get', 'deployments', { apiGroup: 'apps' }), true],
  ['resource * covers sub-resources', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['*'] }), req('get', 'pods', { subresource: 'log', name: 'p' }), true],
  ['resource does not cover its sub-resource', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }), req('get', 'pods', { subresource: 'log', name: 'p' }), false],
  ['resource/subresource exact', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }), req('get', 'pods', { subresource: 'log', name: 'p' }), true],
  ['resource/subresource does not cover the resource', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }), req('get', 'pods', { name: 'p' }), false],
  ['*/subresource', policyRule({ verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }), req('update', 'deployments', { apiGroup: 'apps', subresource: 'scale', name: 'd' }), true],
  ['*/subresource of another sub-resource', policyRule({ verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }), req('update', 'deployments', { apiGroup: 'apps', subresource: 'status', name: 'd' }), false],
  ['*/subresource does not cover the resource', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }), req('get', 'pods', { name: 'p' }), false],
  ['resource/* is a literal, not a wildcard', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }), req('get', 'pods', { subresource: 'log', name: 'p' }), false],
  ['resourceNames match the name', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }), req('get', 'secrets', { name: 's1' }), true],
  ['resourceNames refuse another name', policyRule({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }), req('get', 'secrets', { name: 's2' }), false],
  ['resourceNames refuse a list (no name)', policyRule({ verbs: ['list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }), req('list', 'secrets'), false],
  ['resourceNames allow a list narrowed to the name', policyRule({ verbs: ['list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }), req('list', 'secrets', { name: 's1' }), true],
  ['resourceNames refuse a create (no name)', policyRule({ verbs: ['create'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }), req('create', 'secrets'), false],
  ['a resource rule does not match a path', policyRule({ verbs: ['get'], apiGroups: ['*'], resources: ['*'] }), nonResourceAttributes(alice, 'get', '/healthz'), false],
  ['URL exact', policyRule({ verbs: ['get'], nonResourceURLs: ['/healthz'] }), nonResourceAttributes(alice, 'get', '/healthz'), true],
  ['URL exact does not cover below it', policyRule({ verbs: ['get'], nonResourceURLs: ['/healthz'] }), nonResourceAttributes(alice, 'get', '/healthz/etcd'), false],
  ['URL trailing * is a prefix', policyRule({ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }), nonResourceAttributes(alice, 'get', '/healthz/etcd'), true],
  ['URL trailing * does not cover the bare path', policyRule({ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }), nonResourceAttributes(alice, 'get', '/healthz'), false],
  ['URL prefix * without slash', policyRule({ verbs: ['get'], nonResourceURLs: ['/api*'] }), nonResourceAttributes(alice, 'get', '/apis/apps'), true],
  ['URL *', policyRule({ verbs: ['*'], nonResourceURLs: ['*'] }), nonResourceAttributes(alice, 'post', '/anything'), true],
  ['URL rule with another verb', policyRule({ verbs: ['get'], nonResourceURLs: ['/metrics'] }), nonResourceAttributes(alice, 'head', '/metrics'), false],
  ['a URL rule does not match a resource', policyRule({ verbs: ['*'], nonResourceURLs: ['*'] }), req('get', 'pods'), false],
];

for (const [name, rule, attributes, expected] of cases) {
  test(`rule matching: ${name}`, () => assert.equal(ruleAllows(attributes, rule), expected));
}
