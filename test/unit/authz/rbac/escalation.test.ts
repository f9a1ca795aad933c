// Escalation prevention as kube-apiserver 1.28's RBAC storages: grant only what you hold, unless escalate / bind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorization } from '../../../../internal/authz/authorization-modes.ts';
import { compactRules, compactString, covers } from '../../../../internal/authz/rbac/covers.ts';
import { checkBindingWrite, checkRoleWrite, type EscalationDeps } from '../../../../internal/authz/rbac/escalation.ts';
import { policyRule } from '../../../../internal/authz/rbac/policy-rule.ts';
import { indexOf, rbac, user } from '../fixtures.ts';

function deps(objects: Record<string, unknown>[]): EscalationDeps {
  const index = indexOf(objects);
  return { authorizer: buildAuthorization({ modes: ['RBAC'], rbacIndex: index }).authorizer, index, rbacGroup: 'rbac.authorization.k8s.io' };
}

const alice = user('alice');
const podAdmin = rbac.clusterRole('pod-admin', [{ verbs: ['*'], apiGroups: [''], resources: ['pods', 'pods/log'] }, { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }]);
const aliceInDev = rbac.roleBinding('dev', 'alice-pods', 'ClusterRole', 'pod-admin', [{ kind: 'User', name: 'alice' }]);

test('a role within the rights held is allowed', async () => {
  const d = deps([podAdmin, aliceInDev]);
  const role = rbac.role('dev', 'r', [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }, { verbs: ['update'], apiGroups: ['apps'], resources: ['deployments/scale'] }]);
  assert.equal(await checkRoleWrite(d, { user: alice, kind: 'Role', namespace: 'dev', requestName: '', object: role }), null);
});

test('a role beyond the rights held is the 403 naming the missing rules, compacted and sorted', async () => {
  const d = deps([podAdmin, aliceInDev]);
  const role = rbac.role('dev', 'r', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets', 'pods'] }, { verbs: ['get'], nonResourceURLs: ['/metrics'] }]);
  const e = await checkRoleWrite(d, { user: alice, kind: 'Role', namespace: 'dev', requestName: '', object: role });
  assert.equal(e?.code, 403);
  assert.equal(
    e?.message,
    'roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}\n{NonResourceURLs:["/metrics"], Verbs:["get"]}',
  );
  assert.deepEqual(e?.toStatus().details, { name: 'r', group: 'rbac.authorization.k8s.io', kind: 'roles' });
  // The same role in another namespace: alice holds nothing there.
  const other = await checkRoleWrite(d, { user: alice, kind: 'Role', namespace: 'prod', requestName: '', object: rbac.role('prod', 'r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]) });
  assert.match(other?.message ?? '', /not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["get"\]\}$/);
});

test('escalate on roles lets a user write any role; resourceNames of escalate match the request name', async () => {
  const escalator = rbac.clusterRole('escalator', [{ verbs: ['escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], resourceNames: ['only'] }]);
  const d = deps([escalator, rbac.roleBinding('dev', 'e', 'ClusterRole', 'escalator', [{ kind: 'User', name: 'alice' }])]);
  const role = rbac.role('dev', 'only', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  assert.equal(await checkRoleWrite(d, { user: alice, kind: 'Role', namespace: 'dev', requestName: 'only', object: role, old: rbac.role('dev', 'only', []) }), null);
  // A create has no name in its path: a name-limited escalate does not apply (as kube).
  assert.notEqual(await checkRoleWrite(d, { user: alice, kind: 'Role', namespace: 'dev', requestName: '', object: role }), null);
});

test('system:masters skip the checks; an update of only ownerReferences/finalizers skips them too', async () => {
  const d = deps([]);
  const role = rbac.clusterRole('big', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  assert.equal(await checkRoleWrite(d, { user: user('root', ['system:masters']), kind: 'ClusterRole', namespace: '', requestName: '', object: role }), null);
  const withOwner = { ...role, metadata: { name: 'big', finalizers: ['x'], ownerReferences: [{ uid: 'u' }] } };
  assert.equal(await checkRoleWrite(d, { user: alice, kind: 'ClusterRole', namespace: '', requestName: 'big', object: withOwner, old: role }), null);
  assert.notEqual(await checkRoleWrite(d, { user: alice, kind: 'ClusterRole', namespace: '', requestName: 'big', object: role }), null);
});

test('an aggregationRule needs cluster-admin rights', async () => {
  // Every usual verb on everything, but not `*` (which would include escalate) and no URLs.
  const almostAdmin = rbac.clusterRole('almost', [{ verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: ['*'], resources: ['*'] }]);
  const d = deps([almostAdmin, rbac.clusterRoleBinding('a', 'almost', [{ kind: 'User', name: 'alice' }])]);
  const aggregated = { ...rbac.clusterRole('agg', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } };
  const e = await checkRoleWrite(d, { user: alice, kind: 'ClusterRole', namespace: '', requestName: '', object: aggregated });
  assert.equal(e?.message, 'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
});

test('binding a role whose rules the user holds is allowed; otherwise 403', async () => {
  const viewPods = rbac.clusterRole('view-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
  const secrets = rbac.clusterRole('secrets', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]);
  const d = deps([podAdmin, aliceInDev, viewPods, secrets]);
  const ok = rbac.roleBinding('dev', 'b', 'ClusterRole', 'view-pods', [{ kind: 'User', name: 'bob' }]);
  assert.equal(await checkBindingWrite(d, { user: alice, kind: 'RoleBinding', namespace: 'dev', object: ok }), null);
  const bad = rbac.roleBinding('dev', 'b', 'ClusterRole', 'secrets', [{ kind: 'User', name: 'bob' }]);
  const e = await checkBindingWrite(d, { user: alice, kind: 'RoleBinding', namespace: 'dev', object: bad });
  assert.equal(e?.message, 'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}');
  const crb = rbac.clusterRoleBinding('c', 'view-pods', [{ kind: 'User', name: 'bob' }]);
  assert.match((await checkBindingWrite(d, { user: alice, kind: 'ClusterRoleBinding', namespace: '', object: crb }))?.message ?? '', /^clusterrolebindings.rbac.authorization.k8s.io "c" is forbidden: user "alice"/);
  const missing = rbac.roleBinding('dev', 'm', 'Role', 'nope', []);
  assert.equal((await checkBindingWrite(d, { user: alice, kind: 'RoleBinding', namespace: 'dev', object: missing }))?.message, 'rolebindings.rbac.authorization.k8s.io "m" is forbidden: roles.rbac.authorization.k8s.io "nope" not found');
});

test('bind on a named ClusterRole allows binding that role only, in the namespace of the grant', async () => {
  const binder = rbac.clusterRole('binder', [{ verbs: ['bind'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['admin'] }]);
  const admin = rbac.clusterRole('admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  const edit = rbac.clusterRole('edit', [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }]);
  const d = deps([binder, admin, edit, rbac.roleBinding('team', 'x', 'ClusterRole', 'binder', [{ kind: 'User', name: 'alice' }])]);
  const bindAdmin = rbac.roleBinding('team', 'b', 'ClusterRole', 'admin', [{ kind: 'User', name: 'bob' }]);
  assert.equal(await checkBindingWrite(d, { user: alice, kind: 'RoleBinding', namespace: 'team', object: bindAdmin }), null);
  assert.notEqual(await checkBindingWrite(d, { user: alice, kind: 'RoleBinding', namespace: 'other', object: { ...bindAdmin, metadata: { name: 'b', namespace: 'other' } } }), null);
  assert.notEqual(await checkBindingWrite(d, { user: alice, kind: 'RoleBinding', namespace: 'team', object: rbac.roleBinding('team', 'b', 'ClusterRole', 'edit', []) }), null);
});

test('covers: wildcards, */subresource, resourceNames, URL prefixes', () => {
  const owner = [policyRule({ verbs: ['get'], apiGroups: ['*'], resources: ['*/status'] }), policyRule({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'] }), policyRule({ verbs: ['get'], nonResourceURLs: ['/logs/*'] })];
  assert.equal(covers(owner, [policyRule({ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/status'] })]).covered, true);
  assert.equal(covers(owner, [policyRule({ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] })]).covered, false);
  assert.equal(covers(owner, [policyRule({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] })]).covered, true);
  assert.equal(covers(owner, [policyRule({ verbs: ['get'], apiGroups: [''], resources: ['secrets'] })]).covered, false);
  assert.equal(covers(owner, [policyRule({ verbs: ['get'], nonResourceURLs: ['/logs/x'] })]).covered, true);
  const missing = covers([], [policyRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] })]).missing;
  assert.deepEqual(compactRules(missing).map(compactString), ['{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["get" "list"]}']);
});
