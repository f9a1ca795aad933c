import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StorageError, type KeyValue } from '../../../internal/storage/storage.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import { AllocationRepair, repairSightingsBeforeRelease } from '../../../internal/registry/core/service/allocation-repair.ts';
import { serviceNetwork } from '../../../internal/registry/core/service/network.ts';
import type { GenericStore } from '../../../internal/registry/generic/store.ts';
import { FakeStorage } from '../apiserver/fake-storage.ts';

// What happens between an allocation and its Service write when the write's outcome is unknown
// (a crash, a lost leader), and how the repair pass settles it.

/** A store whose next Service create answers Indeterminate, applied or not. */
class FlakyStorage extends FakeStorage {
  nextServiceCreate: 'applied' | 'lost' | 'ok' = 'ok';

  override async create(key: string, value: Uint8Array): Promise<KeyValue> {
    const mode = key.startsWith('/core/services/') ? this.nextServiceCreate : 'ok';
    if (key.startsWith('/core/services/')) this.nextServiceCreate = 'ok';
    if (mode === 'lost') throw new StorageError('Indeterminate', 'the leader went away');
    const kv = await super.create(key, value);
    if (mode === 'applied') throw new StorageError('Indeterminate', 'the leader went away after applying');
    return kv;
  }
}

function servicesStore(storage: FakeStorage): GenericStore {
  const registry = new ResourceRegistry('k8s.io');
  const served = registry.find('', 'v1', 'services');
  assert.ok(served);
  return storeFor(storage, served, { serviceNetwork: serviceNetwork(), log: () => undefined });
}

const svc = (name: string, clusterIP: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { clusterIP, ports: [{ port: 80 }] } });

async function held(storage: FakeStorage, key: string): Promise<boolean> {
  return (await storage.get(key)) !== null;
}

test('an unknown create outcome keeps the allocation: a Service that was applied keeps its address', async () => {
  const storage = new FlakyStorage();
  const store = servicesStore(storage);
  storage.nextServiceCreate = 'applied';
  await assert.rejects(store.create('default', svc('maybe', '10.96.5.5'), { fieldManager: 't' }), (err: { code?: number }) => err.code === 504);
  assert.ok(await held(storage, '/core/serviceipallocations/10.96.5.5'));
  const repair = new AllocationRepair(storage, () => undefined);
  for (let i = 0; i < repairSightingsBeforeRelease + 1; i++) assert.deepEqual(await repair.pass(), { released: [], restored: [] });
  assert.ok(await held(storage, '/core/serviceipallocations/10.96.5.5'), 'held by the stored Service: never released');
});

test('an unknown create outcome that was not applied leaks the address until the repair has seen it unheld three times', async () => {
  const storage = new FlakyStorage();
  const store = servicesStore(storage);
  storage.nextServiceCreate = 'lost';
  await assert.rejects(store.create('default', svc('lost', '10.96.6.6'), { fieldManager: 't' }), (err: { code?: number }) => err.code === 504);
  assert.ok(await held(storage, '/core/serviceipallocations/10.96.6.6'), 'kept: the write may yet be applied');
  await assert.rejects(store.create('default', svc('other', '10.96.6.6'), { fieldManager: 't' }), (err: { code?: number }) => err.code === 422);
  const logs: string[] = [];
  const repair = new AllocationRepair(storage, (m) => logs.push(m));
  for (let i = 1; i < repairSightingsBeforeRelease; i++) {
    assert.deepEqual((await repair.pass()).released, [], `pass ${i} only notes it`);
  }
  assert.deepEqual((await repair.pass()).released, ['/core/serviceipallocations/10.96.6.6']);
  assert.match(logs.join('\n'), /released \/core\/serviceipallocations\/10\.96\.6\.6, held by no Service \(was claimed for default\/lost\)/);
  assert.equal((await store.create('default', svc('other', '10.96.6.6'), { fieldManager: 't' })).created, true);
});

test('the repair counts afresh when the allocation changed between passes, and claims what a Service holds without a key', async () => {
  const storage = new FakeStorage();
  const store = servicesStore(storage);
  const repair = new AllocationRepair(storage, () => undefined);
  const key = '/core/serviceipallocations/10.96.7.7';
  await storage.create(key, new TextEncoder().encode(JSON.stringify({ namespace: 'default', name: 'gone', uid: 'u1' })));
  await repair.pass();
  await repair.pass();
  await storage.delete(key);
  await storage.create(key, new TextEncoder().encode(JSON.stringify({ namespace: 'default', name: 'new', uid: 'u2' })));
  assert.deepEqual((await repair.pass()).released, [], 'a new claim of the same address starts a new count');
  // A Service stored without its allocation (data from before allocations existed).
  const old = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'legacy', namespace: 'default', uid: 'u3' }, spec: { type: 'NodePort', clusterIP: '10.96.8.8', clusterIPs: ['10.96.8.8'], ports: [{ port: 80, nodePort: 31000 }] } };
  await storage.create('/core/services/default/legacy', new TextEncoder().encode(JSON.stringify(old)));
  const result = await repair.pass();
  assert.deepEqual([...result.restored].sort(), ['/core/serviceipallocations/10.96.8.8', '/core/servicenodeportallocations/31000']);
  await assert.rejects(store.create('default', svc('clash', '10.96.8.8'), { fieldManager: 't' }), (err: { code?: number }) => err.code === 422);
  await store.delete('default', 'legacy', {});
  assert.equal(await held(storage, '/core/serviceipallocations/10.96.8.8'), false, 'released with the Service that holds it');
});
