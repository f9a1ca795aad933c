// Impersonation checks and the resulting identity, as kube-apiserver 1.28's WithImpersonation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorization } from '../../../internal/authz/authorization-modes.ts';
import { impersonate, impersonationRequests, isImpersonationHeader } from '../../../internal/authz/impersonation.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { internalErrorText, PlainInternalError } from '../../../internal/authz/request-outcome.ts';
import { indexOf, rbac, user } from './fixtures.ts';

const alice = user('alice');

function chain(rules: Parameters<typeof rbac.clusterRole>[1], namespacedIn?: string) {
  const role = rbac.clusterRole('imp', rules);
  const binding = namespacedIn === undefined ? rbac.clusterRoleBinding('imp', 'imp', [{ kind: 'User', name: 'alice' }]) : rbac.roleBinding(namespacedIn, 'imp', 'ClusterRole', 'imp', [{ kind: 'User', name: 'alice' }]);
  return buildAuthorization({ modes: ['RBAC'], rbacIndex: indexOf([role, binding]) }).authorizer;
}

async function refusal(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return e;
  }
  assert.fail('expected a StatusError');
}

test('no impersonation headers: nothing to do', async () => {
  assert.equal(await impersonate({ authorizer: chain([]), caller: alice, headers: { accept: ['*/*'] } }), null);
});

test('a user: allowed with impersonate on users, and gets system:authenticated', async () => {
  const authorizer = chain([{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['bob'] }]);
  assert.deepEqual(await impersonate({ authorizer, caller: alice, headers: { 'impersonate-user': ['bob'] } }), { username: 'bob', uid: '', groups: ['system:authenticated'], extra: {} });
  const e = await refusal(impersonate({ authorizer, caller: alice, headers: { 'impersonate-user': ['carol'] } }));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
});

test('a service-account user name is checked as serviceaccounts in its namespace and gets its groups', async () => {
  const authorizer = chain([{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] }], 'ci');
  const who = await impersonate({ authorizer, caller: alice, headers: { 'impersonate-user': ['system:serviceaccount:ci:builder'] } });
  assert.deepEqual(who, { username: 'system:serviceaccount:ci:builder', uid: '', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'], extra: {} });
  const e = await refusal(impersonate({ authorizer, caller: alice, headers: { 'impersonate-user': ['system:serviceaccount:prod:builder'] } }));
  assert.equal(e.message, 'serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "prod"');
  // Not a valid service-account name: impersonated as a plain user.
  assert.equal(impersonationRequests({ 'impersonate-user': ['system:serviceaccount:a:b:c'] })[0]?.kind, 'User');
});

test('groups, extras and uid are each checked; named groups replace the service-account groups', async () => {
  const authorizer = chain([
    { verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'serviceaccounts'] },
    { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['devs'] },
    { verbs: ['impersonate'], apiGroups: ['authentication.k8s.io'], resources: ['userextras/scopes', 'uids'] },
  ]);
  const headers = { 'impersonate-user': ['system:serviceaccount:ci:b'], 'impersonate-group': ['devs'], 'impersonate-extra-scopes': ['view', 'edit'], 'impersonate-uid': ['1234'] };
  assert.deepEqual(await impersonate({ authorizer, caller: alice, headers }), { username: 'system:serviceaccount:ci:b', uid: '1234', groups: ['devs', 'system:authenticated'], extra: { scopes: ['view', 'edit'] } });
  const group = await refusal(impersonate({ authorizer, caller: alice, headers: { 'impersonate-user': ['bob'], 'impersonate-group': ['devs', 'ops'] } }));
  assert.equal(group.message, 'groups "ops" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope');
  const extra = await refusal(impersonate({ authorizer, caller: alice, headers: { 'impersonate-user': ['bob'], 'impersonate-extra-reason': ['x'] } }));
  assert.equal(extra.message, 'userextras.authentication.k8s.io "x" is forbidden: User "alice" cannot impersonate resource "userextras/reason" in API group "authentication.k8s.io" at the cluster scope');
  const noUid = chain([{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'] }]);
  const uid = await refusal(impersonate({ authorizer: noUid, caller: alice, headers: { 'impersonate-user': ['bob'], 'impersonate-uid': ['42'] } }));
  assert.equal(uid.message, 'uids.authentication.k8s.io "42" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope');
});

test('system:authenticated is not added when the caller names it or system:unauthenticated; anonymous gets system:unauthenticated', async () => {
  const authorizer = chain([{ verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups'] }]);
  const named = await impersonate({ authorizer, caller: alice, headers: { 'impersonate-user': ['bob'], 'impersonate-group': ['system:unauthenticated'] } });
  assert.deepEqual(named?.groups, ['system:unauthenticated']);
  const anonymous = await impersonate({ authorizer, caller: alice, headers: { 'impersonate-user': ['system:anonymous'] } });
  assert.deepEqual(anonymous?.groups, ['system:unauthenticated']);
});

test('an extra key is lower-cased and percent-decoded', () => {
  const [, extra] = impersonationRequests({ 'impersonate-user': ['bob'], 'impersonate-extra-example.com%2fteam': ['a'] });
  assert.equal(extra?.extraKey, 'example.com/team');
});

test('groups, extras or a uid without a user: kube\'s plain-text 500', () => {
  const message = (headers: Record<string, string[]>): string => {
    try {
      impersonationRequests(headers);
    } catch (e) {
      assert.ok(e instanceof PlainInternalError);
      return internalErrorText('/api/v1/pods', e);
    }
    return assert.fail('expected a PlainInternalError');
  };
  assert.equal(message({ 'impersonate-group': ['g'] }), 'Internal Server Error: "/api/v1/pods": requested [{Group  g    }] without impersonating a user\n');
  assert.equal(message({ 'impersonate-uid': ['1'] }), 'Internal Server Error: "/api/v1/pods": requested [{UID  1  authentication.k8s.io/v1  }] without impersonating a user\n');
});

test('system:masters may impersonate anyone; the headers to strip are recognised', async () => {
  const who = await impersonate({ authorizer: chain([]), caller: user('root', ['system:masters']), headers: { 'impersonate-user': ['x'] } });
  assert.equal(who?.username, 'x');
  assert.deepEqual(['Impersonate-User', 'impersonate-extra-a', 'Impersonate-Group', 'impersonate-uid', 'authorization'].map(isImpersonationHeader), [true, true, true, true, false]);
});
