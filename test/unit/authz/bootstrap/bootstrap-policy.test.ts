// kube-apiserver 1.28's default roles and bindings, aggregation and reconciliation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregatedRules, aggregationUpdate } from '../../../../internal/authz/rbac/aggregation.ts';
import { buildAuthorization } from '../../../../internal/authz/authorization-modes.ts';
import { bootstrapClusterRoleBindingObjects, bootstrapClusterRoleObjects, bootstrapRoleBindingObjects, bootstrapRoleObjects } from '../../../../internal/authz/bootstrap/bootstrap-policy.ts';
import { RbacIndex } from '../../../../internal/authz/rbac/rbac-index.ts';
import { reconcileBinding, reconcileRole } from '../../../../internal/authz/rbac/reconcile.ts';
import { nonResourceAttributes, resourceAttributes } from '../../../../internal/authz/request-attributes.ts';
import { rbac, user } from '../fixtures.ts';

type KObject = Record<string, unknown> & { metadata: Record<string, unknown> };

/** The bootstrap policy in an index, with the aggregated roles computed as the controller would. */
function bootstrapped(): { index: RbacIndex; roles: KObject[] } {
  const roles = bootstrapClusterRoleObjects();
  const aggregated = roles.map((r) => (aggregationUpdate(r, roles) as KObject | null) ?? r);
  // admin aggregates edit, which aggregates view: the controller converges in a few passes.
  const settled = aggregated.map((r) => (aggregationUpdate(r, aggregated) as KObject | null) ?? r);
  const final = settled.map((r) => (aggregationUpdate(r, settled) as KObject | null) ?? r);
  const index = new RbacIndex();
  for (const object of [...final, ...bootstrapClusterRoleBindingObjects()]) index.apply({ type: 'ADDED', object });
  return { index, roles: final };
}

test('every default object carries the bootstrapping label and the autoupdate annotation', () => {
  const all = [...bootstrapClusterRoleObjects(), ...bootstrapClusterRoleBindingObjects(), ...bootstrapRoleObjects(), ...bootstrapRoleBindingObjects()];
  assert.equal(bootstrapClusterRoleObjects().length, 62);
  for (const o of all) {
    assert.equal((o.metadata.labels as Record<string, string>)['kubernetes.io/bootstrapping'], 'rbac-defaults', String(o.metadata.name));
    assert.equal((o.metadata.annotations as Record<string, string>)['rbac.authorization.kubernetes.io/autoupdate'], 'true');
  }
  const names = bootstrapClusterRoleObjects().map((o) => o.metadata.name);
  assert.deepEqual(names, [...names].sort());
  const discovery = bootstrapClusterRoleObjects().find((o) => o.metadata.name === 'system:discovery');
  assert.deepEqual(discovery?.rules, [{ nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], verbs: ['get'] }]);
  const admin = bootstrapClusterRoleBindingObjects().find((o) => o.metadata.name === 'cluster-admin');
  assert.deepEqual(admin?.subjects, [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }]);
  assert.deepEqual(admin?.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' });
  const view = bootstrapClusterRoleObjects().find((o) => o.metadata.name === 'view');
  assert.deepEqual(view?.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] });
  // No rules until the aggregation controller fills them: left off, as Go leaves a nil slice off the wire.
  assert.equal(view?.rules, undefined);
});

test('health and version to everyone, discovery to authenticated users, reviews to all authenticated', async () => {
  const { authorizer } = buildAuthorization({ modes: ['RBAC'], rbacIndex: bootstrapped().index });
  const anonymous = { username: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} };
  for (const path of ['/healthz', '/livez', '/readyz', '/version']) assert.equal((await authorizer.authorize(nonResourceAttributes(anonymous, 'get', path))).decision, 'allow', path);
  assert.equal((await authorizer.authorize(nonResourceAttributes(anonymous, 'get', '/apis'))).decision, 'no-opinion');
  assert.equal((await authorizer.authorize(nonResourceAttributes(anonymous, 'get', '/metrics'))).decision, 'no-opinion');
  const alice = user('alice');
  assert.equal((await authorizer.authorize(nonResourceAttributes(alice, 'get', '/apis/apps/v1'))).decision, 'allow');
  assert.equal((await authorizer.authorize(nonResourceAttributes(alice, 'get', '/openapi/v3'))).decision, 'allow');
  assert.equal((await authorizer.authorize(resourceAttributes(alice, { verb: 'create', resource: 'selfsubjectreviews', apiGroup: 'authentication.k8s.io' }))).decision, 'allow');
  assert.equal((await authorizer.authorize(resourceAttributes(alice, { verb: 'create', resource: 'selfsubjectrulesreviews', apiGroup: 'authorization.k8s.io' }))).decision, 'allow');
  assert.equal((await authorizer.authorize(resourceAttributes(alice, { verb: 'list', resource: 'pods', namespace: 'default' }))).decision, 'no-opinion');
});

test('view, edit and admin through aggregation', async () => {
  const { index, roles } = bootstrapped();
  for (const [role, who] of [['view', 'v'], ['edit', 'e'], ['admin', 'a']]) index.apply({ type: 'ADDED', object: rbac.roleBinding('team', `${who}-binding`, 'ClusterRole', role ?? '', [{ kind: 'User', name: who ?? '' }]) });
  const { authorizer } = buildAuthorization({ modes: ['RBAC'], rbacIndex: index });
  const can = async (who: string, verb: string, resource: string, apiGroup = ''): Promise<boolean> => (await authorizer.authorize(resourceAttributes(user(who), { verb, resource, apiGroup, namespace: 'team' }))).decision === 'allow';
  assert.deepEqual([await can('v', 'list', 'pods'), await can('v', 'list', 'secrets'), await can('v', 'create', 'pods')], [true, false, false]);
  assert.deepEqual([await can('e', 'list', 'secrets'), await can('e', 'create', 'deployments', 'apps'), await can('e', 'create', 'rolebindings', 'rbac.authorization.k8s.io')], [true, true, false]);
  assert.deepEqual([await can('a', 'create', 'rolebindings', 'rbac.authorization.k8s.io'), await can('a', 'list', 'pods')], [true, true]);
  const admin = roles.find((r) => r.metadata.name === 'admin');
  assert.ok(Array.isArray(admin?.rules) && admin.rules.length > 20);
});

test('aggregation: matching roles in name order, each rule once, the role itself skipped', () => {
  const agg = { ...rbac.clusterRole('agg', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { pick: 'yes' } }] }, metadata: { name: 'agg', labels: { pick: 'yes' } } };
  const b = { ...rbac.clusterRole('b', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), metadata: { name: 'b', labels: { pick: 'yes' } } };
  const a = { ...rbac.clusterRole('a', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), metadata: { name: 'a', labels: { pick: 'yes' } } };
  const c = rbac.clusterRole('c', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  assert.deepEqual(aggregatedRules(agg, [agg, b, c, a]), [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
  const updated = aggregationUpdate(agg, [b, a]);
  assert.ok(updated !== null);
  assert.equal(aggregationUpdate(updated, [b, a]), null);
  assert.equal(aggregatedRules(c, [a, b]), null);
});

test('reconcile a role: missing rules added, extra kept, labels merged; autoupdate "false" protects', () => {
  const expected = bootstrapClusterRoleObjects().find((o) => o.metadata.name === 'system:basic-user') as KObject;
  const edited = { ...rbac.clusterRole('system:basic-user', [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] }, { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]) };
  const r = reconcileRole(expected, edited);
  assert.equal(r.operation, 'update');
  assert.equal(r.shouldWrite, true);
  assert.deepEqual(r.object.rules, [
    { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
    { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] },
    { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'], verbs: ['create'] },
    { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
  ]);
  assert.equal(((r.object.metadata as KObject['metadata']).labels as Record<string, string>)['kubernetes.io/bootstrapping'], 'rbac-defaults');
  assert.equal(reconcileRole(expected, r.object).operation, 'none');
  const stomped = reconcileRole(expected, r.object, { removeExtraPermissions: true });
  assert.deepEqual(stomped.object.rules, expected.rules);
  const protectedRole = { ...edited, metadata: { name: 'system:basic-user', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } } };
  const p = reconcileRole(expected, protectedRole);
  assert.deepEqual([p.operation, p.protected, p.shouldWrite], ['update', true, false]);
  assert.equal(reconcileRole(expected, undefined).operation, 'create');
});

test('reconcile an aggregated role: its gathered rules are not extra; a missing selector is added', () => {
  const expected = bootstrapClusterRoleObjects().find((o) => o.metadata.name === 'view') as KObject;
  const live = { ...structuredClone(expected), rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
  assert.equal(reconcileRole(expected, live, { removeExtraPermissions: true }).operation, 'none');
  const extraSelector = { ...structuredClone(expected), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { mine: 'true' } }] } };
  const r = reconcileRole(expected, extraSelector);
  assert.deepEqual((r.object.aggregationRule as { clusterRoleSelectors: unknown[] }).clusterRoleSelectors.length, 2);
});

test('reconcile a binding: missing subjects added, extra kept; another roleRef recreates', () => {
  const expected = bootstrapClusterRoleBindingObjects().find((o) => o.metadata.name === 'system:public-info-viewer') as KObject;
  const live = rbac.clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }, { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'extra' }]);
  const r = reconcileBinding(expected, live);
  assert.equal(r.operation, 'update');
  assert.deepEqual((r.object.subjects as { name: string }[]).map((s) => s.name), ['system:authenticated', 'extra', 'system:unauthenticated']);
  assert.deepEqual((reconcileBinding(expected, live, { removeExtraSubjects: true }).object.subjects as { name: string }[]).map((s) => s.name), ['system:authenticated', 'system:unauthenticated']);
  assert.equal(reconcileBinding(expected, rbac.clusterRoleBinding('system:public-info-viewer', 'other', [])).operation, 'recreate');
});

test('another API domain serves the groups under it', () => {
  const roles = bootstrapClusterRoleObjects('example.io');
  const basic = roles.find((o) => o.metadata.name === 'system:basic-user');
  assert.equal(basic?.apiVersion, 'rbac.authorization.example.io/v1');
  assert.deepEqual((basic?.rules as { apiGroups: string[] }[]).map((r) => r.apiGroups[0]), ['authorization.example.io', 'authentication.example.io']);
});

test('namespaced defaults: kube-system\'s authentication config reader for the controller manager and scheduler', async () => {
  const index = new RbacIndex();
  for (const object of [...bootstrapRoleObjects(), ...bootstrapRoleBindingObjects()]) index.apply({ type: 'ADDED', object });
  const { authorizer } = buildAuthorization({ modes: ['RBAC'], rbacIndex: index });
  const read = (who: string, name: string) => resourceAttributes(user(who), { verb: 'get', resource: 'configmaps', namespace: 'kube-system', name });
  assert.equal((await authorizer.authorize(read('system:kube-scheduler', 'extension-apiserver-authentication'))).decision, 'allow');
  assert.equal((await authorizer.authorize(read('system:kube-scheduler', 'other'))).decision, 'no-opinion');
  const signer = user('system:serviceaccount:kube-system:bootstrap-signer');
  const update = resourceAttributes(signer, { verb: 'update', resource: 'configmaps', namespace: 'kube-public', name: 'cluster-info' });
  assert.equal((await authorizer.authorize(update)).decision, 'allow');
  assert.equal(bootstrapRoleBindingObjects().every((b) => (b.subjects as unknown[]).length > 0), true);
});
