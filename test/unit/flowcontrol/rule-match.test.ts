// Matching FlowSchema rules as kube-apiserver 1.28's rule.go: subjects (users, groups, service
// accounts with "*"), resource rules (wildcards, sub-resources, cluster scope, namespaces) and
// non-resource rules (exact, "*", prefix URLs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchesNonResourceURL, matchesPolicyRules, matchesSubject, parsePolicyRules } from '../../../internal/flowcontrol/rule-match.ts';
import type { RequestDigest } from '../../../internal/flowcontrol/types.ts';

const user = (username: string, ...groups: string[]) => ({ username, groups });
const alice = user('alice', 'dev', 'system:authenticated');

function resourceRequest(over: Partial<NonNullable<RequestDigest['resource']>> = {}, who = alice): RequestDigest {
  return { user: who, resource: { verb: 'get', apiGroup: '', resource: 'pods', subresource: '', namespace: 'default', name: 'p', ...over } };
}

function pathRequest(path: string, verb = 'get', who = alice): RequestDigest {
  return { user: who, nonResource: { verb, path } };
}

/** One rule with everyone as subject and the given resource and non-resource rules. */
function rules(resourceRules: unknown[], nonResourceRules: unknown[] = []) {
  return parsePolicyRules({ rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules, nonResourceRules }] });
}

const rr = (over: Record<string, unknown> = {}) => ({ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], ...over });

describe('subjects', () => {
  it('a User subject matches its name, or anyone with "*"', () => {
    assert.equal(matchesSubject(alice, { kind: 'User', user: { name: 'alice' } }), true);
    assert.equal(matchesSubject(alice, { kind: 'User', user: { name: 'bob' } }), false);
    assert.equal(matchesSubject(alice, { kind: 'User', user: { name: '*' } }), true);
  });

  it('a Group subject matches a member, or anyone with "*"', () => {
    assert.equal(matchesSubject(alice, { kind: 'Group', group: { name: 'dev' } }), true);
    assert.equal(matchesSubject(alice, { kind: 'Group', group: { name: 'ops' } }), false);
    assert.equal(matchesSubject(user('nobody'), { kind: 'Group', group: { name: '*' } }), true);
  });

  it('a ServiceAccount subject matches the account user name; "*" any account of the namespace', () => {
    const sa = user('system:serviceaccount:kube-system:job-controller');
    assert.equal(matchesSubject(sa, { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'job-controller' } }), true);
    assert.equal(matchesSubject(sa, { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'other' } }), false);
    assert.equal(matchesSubject(sa, { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }), true);
    assert.equal(matchesSubject(sa, { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube', name: '*' } }), false);
    assert.equal(matchesSubject(user('system:serviceaccount:kube-systemx:a'), { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }), false);
    assert.equal(matchesSubject(user('kube-system:a'), { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }), false);
  });

  it('a subject of an unknown kind, or without its member, matches nobody', () => {
    assert.equal(matchesSubject(alice, { kind: 'Robot' }), false);
    assert.equal(matchesSubject(alice, { kind: 'User' }), false);
  });

  it('a rule needs a matching subject as well as a matching resource rule', () => {
    const parsed = parsePolicyRules({ rules: [{ subjects: [{ kind: 'User', user: { name: 'bob' } }], resourceRules: [rr()] }] });
    assert.equal(matchesPolicyRules(resourceRequest(), parsed), false);
    assert.equal(matchesPolicyRules(resourceRequest({}, user('bob')), parsed), true);
  });
});

describe('resource rules', () => {
  it('wildcards cover every verb, group and resource, sub-resources included', () => {
    const parsed = rules([rr()]);
    assert.equal(matchesPolicyRules(resourceRequest({ verb: 'delete', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }), parsed), true);
  });

  it('verbs, groups and resources must each be listed', () => {
    const parsed = rules([rr({ verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] })]);
    assert.equal(matchesPolicyRules(resourceRequest({ apiGroup: 'apps', resource: 'deployments' }), parsed), true);
    assert.equal(matchesPolicyRules(resourceRequest({ verb: 'create', apiGroup: 'apps', resource: 'deployments' }), parsed), false);
    assert.equal(matchesPolicyRules(resourceRequest({ apiGroup: '', resource: 'deployments' }), parsed), false);
    assert.equal(matchesPolicyRules(resourceRequest({ apiGroup: 'apps', resource: 'replicasets' }), parsed), false);
  });

  it('a sub-resource request needs "resource/subresource": the resource alone does not cover it', () => {
    const pods = rules([rr({ resources: ['pods'] })]);
    const status = rules([rr({ resources: ['pods/status'] })]);
    assert.equal(matchesPolicyRules(resourceRequest({ subresource: 'status' }), pods), false);
    assert.equal(matchesPolicyRules(resourceRequest({ subresource: 'status' }), status), true);
    assert.equal(matchesPolicyRules(resourceRequest(), status), false);
  });

  it('a cluster-scoped request needs clusterScope; namespaces "*" does not cover it', () => {
    assert.equal(matchesPolicyRules(resourceRequest({ resource: 'nodes', namespace: '' }), rules([rr()])), false);
    assert.equal(matchesPolicyRules(resourceRequest({ resource: 'nodes', namespace: '' }), rules([rr({ clusterScope: true, namespaces: [] })])), true);
  });

  it('a namespaced request needs its namespace listed, or "*"', () => {
    const parsed = rules([rr({ namespaces: ['team-a'] })]);
    assert.equal(matchesPolicyRules(resourceRequest({ namespace: 'team-a' }), parsed), true);
    assert.equal(matchesPolicyRules(resourceRequest({ namespace: 'team-b' }), parsed), false);
    assert.equal(matchesPolicyRules(resourceRequest({ namespace: 'team-b' }), rules([rr({ clusterScope: true, namespaces: [] })])), false);
  });

  it('a resource request is never matched by non-resource rules, nor the reverse', () => {
    const nonResourceOnly = rules([], [{ verbs: ['*'], nonResourceURLs: ['*'] }]);
    assert.equal(matchesPolicyRules(resourceRequest(), nonResourceOnly), false);
    assert.equal(matchesPolicyRules(pathRequest('/healthz'), rules([rr({ clusterScope: true })])), false);
  });
});

describe('non-resource rules', () => {
  it('URLs match exactly, "*" matches all, "/prefix/*" matches below the prefix only', () => {
    assert.equal(matchesNonResourceURL(['/healthz'], '/healthz'), true);
    assert.equal(matchesNonResourceURL(['*'], '/anything/at/all'), true);
    assert.equal(matchesNonResourceURL(['/apis/*'], '/apis/apps'), true);
    assert.equal(matchesNonResourceURL(['/apis/*'], '/apis'), false);
    assert.equal(matchesNonResourceURL(['/apis/*'], '/apisx'), false);
    assert.equal(matchesNonResourceURL(['/readyz'], '/livez'), false);
  });

  it('as kube, a URL without "*" also covers the paths below it', () => {
    assert.equal(matchesNonResourceURL(['/healthz'], '/healthz/etcd'), true);
    assert.equal(matchesNonResourceURL(['/healthz'], '/healthzz'), false);
  });

  it('the verb must be listed, or "*"', () => {
    const parsed = rules([], [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]);
    assert.equal(matchesPolicyRules(pathRequest('/metrics'), parsed), true);
    assert.equal(matchesPolicyRules(pathRequest('/metrics', 'post'), parsed), false);
  });
});

describe('parsing', () => {
  it('reads missing or malformed fields as empty, matching nothing', () => {
    assert.deepEqual(parsePolicyRules({}), []);
    const parsed = parsePolicyRules({ rules: [{ subjects: 'x', resourceRules: [{ verbs: 7 }] }] });
    assert.deepEqual(parsed, [{ subjects: [], resourceRules: [{ verbs: [], apiGroups: [], resources: [], clusterScope: false, namespaces: [] }], nonResourceRules: [] }]);
    assert.equal(matchesPolicyRules(resourceRequest(), parsed), false);
  });
});
