// The RBAC wiring below the HTTP floor: the bootstrap policy reconciled by several replicas at once,
// the informer feeding an index from the store, and escalation prevention in the RBAC stores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorization } from '../../../../internal/authz/authorization-modes.ts';
import { bootstrapClusterRoleBindingObjects, bootstrapClusterRoleObjects } from '../../../../internal/authz/bootstrap/bootstrap-policy.ts';
import { RbacIndex } from '../../../../internal/authz/rbac/rbac-index.ts';
import { resourceAttributes } from '../../../../internal/authz/request-attributes.ts';
import type { GenericStore } from '../../../../internal/registry/generic/store.ts';
import { reconcileBootstrapPolicy } from '../../../../internal/registry/rbac/bootstrap-policy-reconcile.ts';
import { RbacInformer } from '../../../../internal/registry/rbac/rbac-informer.ts';
import { rbacStoresOf, type RbacStores } from '../../../../internal/registry/rbac/rbac-stores.ts';
import { ResourceRegistry, storeFor, type StoreDeps } from '../../../../internal/registry/resource-registry.ts';
import { serviceNetwork } from '../../../../internal/registry/core/service/network.ts';
import { FakeStorage } from '../../apiserver/fake-storage.ts';

function setUp(authorized = false) {
  const storage = new FakeStorage();
  const registry = new ResourceRegistry('k8s.io');
  const index = new RbacIndex();
  const chain = buildAuthorization({ modes: ['RBAC'], rbacIndex: index });
  const deps: StoreDeps = { serviceNetwork: serviceNetwork(), log: () => undefined, ...(authorized ? { authorization: { authorizer: chain.authorizer, ruleResolver: chain.ruleResolver, index, rbacGroup: 'rbac.authorization.k8s.io' } } : {}) };
  const stores = new Map(registry.resources.map((r) => [r, storeFor(storage, r, deps)] as const));
  const rbac = rbacStoresOf(registry, stores) as RbacStores;
  const namespaces = stores.get(registry.find('', 'v1', 'namespaces')!) as GenericStore;
  return { storage, index, chain, rbac, namespaces };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check());
}

test('three replicas reconciling the bootstrap policy at once all finish, and each default object exists once', async () => {
  const { storage, rbac, namespaces } = setUp();
  await Promise.all([1, 2, 3].map(() => reconcileBootstrapPolicy({ ...rbac, namespaces }, 'k8s.io')));
  assert.equal((await rbac.clusterRoles.list(undefined, {})).items.length, bootstrapClusterRoleObjects().length);
  assert.equal((await rbac.clusterRoleBindings.list(undefined, {})).items.length, bootstrapClusterRoleBindingObjects().length);
  assert.deepEqual((await namespaces.list(undefined, {})).items.map((n) => n.metadata.name).sort(), ['kube-public', 'kube-system', 'orch-public', 'orch-system']);
  await storage.close();
});

test('a default role edited by hand gets its missing rules back; one marked autoupdate=false is left alone', async () => {
  const { storage, rbac, namespaces } = setUp();
  await reconcileBootstrapPolicy({ ...rbac, namespaces }, 'k8s.io');
  const viewer = await rbac.clusterRoles.get(undefined, 'system:public-info-viewer');
  await rbac.clusterRoles.update(undefined, 'system:public-info-viewer', { ...viewer, rules: [] }, { fieldManager: 'test' });
  const discovery = await rbac.clusterRoles.get(undefined, 'system:discovery');
  const annotations = { ...discovery.metadata.annotations, 'rbac.authorization.kubernetes.io/autoupdate': 'false' };
  await rbac.clusterRoles.update(undefined, 'system:discovery', { ...discovery, metadata: { ...discovery.metadata, annotations }, rules: [] }, { fieldManager: 'test' });
  await reconcileBootstrapPolicy({ ...rbac, namespaces }, 'k8s.io');
  assert.ok(((await rbac.clusterRoles.get(undefined, 'system:public-info-viewer')).rules as unknown[]).length > 0);
  assert.deepEqual((await rbac.clusterRoles.get(undefined, 'system:discovery')).rules, []);
  await storage.close();
});

test('the informer lists, then follows the watch; RBAC allows once the binding arrives and stops once it is gone', async () => {
  const { storage, index, chain, rbac } = setUp();
  const informer = new RbacInformer(rbac, index, () => undefined);
  informer.start();
  assert.equal(await informer.waitSynced(2000), true);
  const ask = resourceAttributes({ username: 'jane', uid: '', groups: [], extra: {} }, { verb: 'get', resource: 'pods', namespace: 'ns' });
  assert.equal((await chain.authorizer.authorize(ask)).decision, 'no-opinion');
  await rbac.roles.create('ns', { metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }, { fieldManager: 'test' });
  await rbac.roleBindings.create('ns', { metadata: { name: 'jane' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }] }, { fieldManager: 'test' });
  await until(() => index.stats().roleBindings === 1);
  assert.equal((await chain.authorizer.authorize(ask)).decision, 'allow');
  await rbac.roleBindings.delete('ns', 'jane', {});
  await until(() => index.stats().roleBindings === 0);
  assert.equal((await chain.authorizer.authorize(ask)).decision, 'no-opinion');
  await informer.stop();
  await storage.close();
});

test('before the informer synced, RBAC allows nothing and says why', async () => {
  const index = new RbacIndex();
  const chain = buildAuthorization({ modes: ['RBAC'], rbacIndex: index, rbacSynced: () => false });
  const answer = await chain.authorizer.authorize(resourceAttributes({ username: 'jane', uid: '', groups: [], extra: {} }, { verb: 'get', resource: 'pods' }));
  assert.deepEqual(answer, { decision: 'no-opinion', reason: 'informers not synced' });
});

test('the RBAC stores refuse a role granting what its writer does not hold, on create and update, dry run included; server writes pass', async () => {
  const { storage, index, rbac } = setUp(true);
  const jane = { username: 'jane', uid: '', groups: ['system:authenticated'], extra: {} };
  const role = { metadata: { name: 'deleter' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] };
  await assert.rejects(rbac.roles.create('ns', role, { fieldManager: 'test', user: jane }), (err: { code: number; message: string }) => err.code === 403 && err.message.startsWith('roles.rbac.authorization.k8s.io "deleter" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:'));
  await assert.rejects(rbac.roles.create('ns', role, { fieldManager: 'test', user: jane, dryRun: true }), { code: 403 });
  const stored = await rbac.roles.create('ns', role, { fieldManager: 'test' });
  // jane may bind it only if she holds its rules or may `bind` it.
  const binding = { metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deleter' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }] };
  index.apply({ type: 'ADDED', object: stored.object });
  await assert.rejects(rbac.roleBindings.create('ns', binding, { fieldManager: 'test', user: jane }), { code: 403 });
  await assert.rejects(rbac.roles.update('ns', 'deleter', { ...stored.object, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }] }, { fieldManager: 'test', user: jane }), { code: 403 });
  await storage.close();
});

test('once stopped, the informer does not start again and a wait for its sync answers false at once (no timer keeps the process alive)', async () => {
  const { storage, index, rbac } = setUp();
  const informer = new RbacInformer(rbac, index, () => undefined);
  await informer.stop();
  informer.start();
  const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const waiting = informer.waitSynced(120_000);
  assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, before);
  assert.equal(await waiting, false);
  assert.equal(informer.synced(), false);
  await storage.close();
});
