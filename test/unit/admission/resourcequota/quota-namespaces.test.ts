// The ResourceQuota plugin's index of the namespaces holding quotas on this replica: a create in a
// namespace it knows to hold none reads no quota from the store, and the index follows quotas
// created and deleted after it started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resourceQuotaPluginWith } from '../../../../internal/admission/plugins/resourcequota/plugin.ts';
import { QuotaNamespaces, type QuotaPresence } from '../../../../internal/admission/plugins/resourcequota/quota-namespaces.ts';
import type { GenericStore } from '../../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor } from '../../../../internal/registry/resource-registry.ts';
import { FakeStorage } from '../../apiserver/fake-storage.ts';
import { attributes, FakeObjects, fakeDeps, pod } from './fake-objects.ts';

const quotas = { group: '', resource: 'resourcequotas' };

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(check());
}

function quotaStore(): { storage: FakeStorage; store: GenericStore } {
  const storage = new FakeStorage();
  const registry = new ResourceRegistry('k8s.io');
  const served = registry.find('', 'v1', 'resourcequotas');
  assert.ok(served);
  return { storage, store: storeFor(storage, served) };
}

const quota = (name: string) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard: { pods: '10' } } });

test('a namespace the index knows to hold no quota costs no local read, only the leader confirmation kube also makes', async () => {
  const objects = new FakeObjects();
  const none: QuotaPresence = { holdsNone: () => true };
  const admit = resourceQuotaPluginWith(none)(fakeDeps(objects), undefined);
  await admit.validate?.(attributes({ resource: 'pods', kind: 'Pod', object: pod('a', []) }));
  await admit.validate?.(attributes({ resource: 'pods', kind: 'Pod', object: pod('b', []) }));
  assert.deepEqual(objects.listOptions, [{ consistent: true }]);
});

test('a namespace the index knows a quota in is read and charged as without the index', async () => {
  const objects = new FakeObjects();
  objects.put(quotas, { metadata: { name: 'q', namespace: 'ns' }, spec: { hard: { pods: '2' } }, status: { hard: { pods: '2' }, used: { pods: '0' } } });
  const admit = resourceQuotaPluginWith({ holdsNone: () => false })(fakeDeps(objects), undefined);
  await admit.validate?.(attributes({ resource: 'pods', kind: 'Pod', object: pod('a', []) }));
  assert.deepEqual(objects.listOptions, [undefined, { consistent: true }]);
  assert.deepEqual((objects.peek(quotas, 'ns', 'q')?.status as { used?: unknown }).used, { pods: '1' });
});

test('the index knows nothing before its first list and after stop, then follows quotas created and deleted', async () => {
  const { storage, store } = quotaStore();
  await store.create('a', quota('q1'), { fieldManager: 'test' });
  const index = new QuotaNamespaces(store, () => undefined);
  assert.equal(index.holdsNone('b'), false, 'not listed yet: unknown, so the plugin reads the store');
  index.start();
  try {
    await until(() => index.holdsNone('b'));
    assert.equal(index.holdsNone('a'), false);
    await store.create('b', quota('q2'), { fieldManager: 'test' });
    await until(() => !index.holdsNone('b'));
    await store.create('b', quota('q3'), { fieldManager: 'test' });
    await store.delete('b', 'q2', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(index.holdsNone('b'), false, 'q3 is still there');
    await store.delete('b', 'q3', {});
    await until(() => index.holdsNone('b'));
  } finally {
    await index.stop();
    await storage.close();
  }
  assert.equal(index.holdsNone('b'), false);
});

test('stop ends the index at once even while it waits to list again, and a stopped index does not start again', { timeout: 30_000 }, async () => {
  const { storage, store } = quotaStore();
  let failures = 0;
  const failing = { ...store, list: () => Promise.reject(new Error('store closed')) } as unknown as GenericStore;
  // A relist delay longer than the test's timeout: only stop() waking the wait lets the test end.
  const index = new QuotaNamespaces(failing, () => failures++, 3_600_000);
  index.start();
  await until(() => failures > 0);
  await index.stop();
  index.start();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(failures, 1, 'a stopped index lists no more');
  assert.equal(index.holdsNone('a'), false);
  await storage.close();
});
