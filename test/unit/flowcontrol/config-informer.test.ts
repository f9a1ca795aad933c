// The informer that feeds flow control its configuration: the lists first, then each change, coalesced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlowControlConfigInformer, type FlowControlObjects } from '../../../internal/flowcontrol/config-informer.ts';
import type { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import { serviceNetwork } from '../../../internal/registry/core/service/network.ts';
import { FakeStorage } from '../apiserver/fake-storage.ts';

function setUp() {
  const storage = new FakeStorage();
  const registry = new ResourceRegistry('k8s.io');
  const storeOf = (resource: string) => storeFor(storage, registry.find('flowcontrol.apiserver.k8s.io', 'v1beta3', resource)!, { serviceNetwork: serviceNetwork(), log: () => undefined }) as GenericStore;
  return { storage, flowSchemas: storeOf('flowschemas'), priorityLevels: storeOf('prioritylevelconfigurations') };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check());
}

test('the configuration informer hands over the listed objects, then every create and delete, as whole sets', async () => {
  const { storage, flowSchemas, priorityLevels } = setUp();
  await priorityLevels.create(undefined, { metadata: { name: 'pl' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } }, { fieldManager: 'test' });
  let seen: FlowControlObjects | undefined;
  let calls = 0;
  const informer = new FlowControlConfigInformer({ flowSchemas, priorityLevels }, (objects) => { seen = objects; calls++; }, () => undefined);
  informer.start();
  await until(() => seen?.priorityLevels.length === 1);
  assert.equal(seen?.flowSchemas.length, 0);
  await flowSchemas.create(undefined, { metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'pl' }, matchingPrecedence: 100, rules: [] } }, { fieldManager: 'test' });
  await until(() => seen?.flowSchemas.length === 1);
  assert.equal(seen?.flowSchemas[0]?.metadata.name, 'fs');
  await priorityLevels.delete(undefined, 'pl', {});
  await until(() => seen?.priorityLevels.length === 0);
  assert.ok(calls <= 3, `one call per change at most, got ${calls}`);
  await informer.stop();
  const after = calls;
  await flowSchemas.delete(undefined, 'fs', {});
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(calls, after, 'no call after stop');
  await storage.close();
});
