// Admission reads a namespaced write's namespace from memory (kube's namespace informer), and falls
// back to this replica's state for a name it has not seen yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceCache } from '../../../internal/admission/namespace-cache.ts';
import { RegistryObjects } from '../../../internal/admission/registry-objects.ts';
import type { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import { serviceNetwork } from '../../../internal/registry/core/service/network.ts';
import { FakeStorage } from '../apiserver/fake-storage.ts';

const namespaces = { group: '', resource: 'namespaces' };

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check());
}

function setUp() {
  const storage = new FakeStorage();
  const registry = new ResourceRegistry('k8s.io');
  const served = registry.find('', 'v1', 'namespaces')!;
  const store = storeFor(storage, served, { serviceNetwork: serviceNetwork(), log: () => undefined }) as GenericStore;
  const cache = new NamespaceCache(store, () => undefined);
  const objects = new RegistryObjects(registry, new Map([[served, store]]), cache);
  return { storage, store, cache, objects };
}

test('namespaces are read from memory once listed and follow changes; a name not seen yet is read from the store', async () => {
  const { storage, store, cache, objects } = setUp();
  await store.create(undefined, { metadata: { name: 'listed' } }, { fieldManager: 'test' });
  cache.start();
  await until(() => cache.get('listed') !== undefined);
  const first = await objects.get(namespaces, undefined, 'listed');
  assert.equal(first, cache.get('listed'), 'the cached object itself');
  assert.ok(Object.isFrozen(first?.metadata), 'shared, so frozen');

  await store.create(undefined, { metadata: { name: 'watched', labels: { team: 'a' } } }, { fieldManager: 'test' });
  await until(() => cache.get('watched') !== undefined);
  assert.equal(cache.get('watched')?.metadata.labels?.['team'], 'a');

  await store.delete(undefined, 'listed', {});
  await until(() => cache.get('listed') === undefined || cache.get('listed')?.metadata.deletionTimestamp !== undefined);

  await cache.stop();
  await store.create(undefined, { metadata: { name: 'unseen' } }, { fieldManager: 'test' });
  assert.equal(cache.get('unseen'), undefined);
  assert.equal((await objects.get(namespaces, undefined, 'unseen'))?.metadata.name, 'unseen', 'a miss reads the store');
  assert.equal(await objects.get(namespaces, undefined, 'missing'), undefined);
  await storage.close();
});

test('once its watch ends, nothing is answered from memory until it has listed again: a namespace deleted meanwhile is read from the store', async () => {
  const { storage, store, cache, objects } = setUp();
  await store.create(undefined, { metadata: { name: 'team-a' }, spec: { finalizers: ['kubernetes'] } }, { fieldManager: 'test' });
  cache.start();
  await until(() => cache.get('team-a') !== undefined);
  storage.endWatches();
  await until(() => cache.get('team-a') === undefined);
  await store.delete(undefined, 'team-a', {});
  const read = await objects.get(namespaces, undefined, 'team-a');
  assert.equal(typeof read?.metadata.deletionTimestamp, 'string', 'the store\'s Terminating namespace, not the cached Active one');
  await until(() => typeof cache.get('team-a')?.metadata.deletionTimestamp === 'string');
  await cache.stop();
  await storage.close();
});
