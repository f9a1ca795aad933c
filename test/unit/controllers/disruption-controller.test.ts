import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createDisruptionController } from '../../../internal/controllers/disruption/disruption-controller.ts';
import { desiredBudgetStatus } from '../../../internal/controllers/disruption/budget-status.ts';
import type { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';

// The disruption controller keeps PodDisruptionBudgets' status as kube-controller-manager 1.28's does.

type BudgetStatus = { expectedPods: number; currentHealthy: number; desiredHealthy: number; disruptionsAllowed: number; observedGeneration: number; disruptedPods?: Record<string, string>; conditions?: { type: string; status: string; reason: string }[] };

async function fixture(t: TestContext): Promise<{ pods: GenericStore; budgets: GenericStore; start(): void }> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const registry = new ResourceRegistry('k8s.io');
  const stores = new Map(registry.resources.map((r) => [r, storeFor(storage, r)] as const));
  const find = (group: string, plural: string): GenericStore => [...stores.values()].find((s) => s.served.group === group && s.decl.plural === plural) as GenericStore;
  const abort = new AbortController();
  let run: Promise<void> | undefined;
  t.after(async () => {
    abort.abort();
    await run;
    await storage.close();
  });
  return {
    pods: find('', 'pods'),
    budgets: find('policy', 'poddisruptionbudgets'),
    start() {
      run = createDisruptionController({ registry, stores, log: () => undefined }, { resyncIntervalMs: 100 }).run(abort.signal);
    },
  };
}

async function pod(pods: GenericStore, name: string, ready: boolean, app = 'web'): Promise<void> {
  await pods.create('default', { metadata: { name, labels: { app } }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } }, { fieldManager: 'test' });
  const current = await pods.get('default', name);
  await pods.update('default', name, { ...current, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } }, { fieldManager: 'test', subresource: 'status' });
}

async function budget(budgets: GenericStore, name: string, spec: Record<string, unknown>): Promise<void> {
  await budgets.create('default', { metadata: { name }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } }, { fieldManager: 'test' });
}

async function settled(budgets: GenericStore, name: string, done: (s: BudgetStatus) => boolean): Promise<BudgetStatus> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const status = (await budgets.get('default', name)).status as BudgetStatus;
    if (done(status) || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('the controller counts selected and ready pods and allows the disruptions minAvailable leaves', async (t) => {
  const f = await fixture(t);
  await pod(f.pods, 'a', true);
  await pod(f.pods, 'b', true);
  await pod(f.pods, 'c', false);
  await pod(f.pods, 'other', true, 'db');
  await budget(f.budgets, 'min-one', { minAvailable: 1 });
  f.start();
  const status = await settled(f.budgets, 'min-one', (s) => s.observedGeneration === 1);
  assert.deepEqual([status.expectedPods, status.currentHealthy, status.desiredHealthy, status.disruptionsAllowed, status.observedGeneration], [3, 2, 1, 1, 1]);
  assert.deepEqual(status.conditions?.map((c) => [c.type, c.status, c.reason]), [['DisruptionAllowed', 'True', 'SufficientPods']]);
  // A pod that becomes unready is counted out on a later pass.
  const b = await f.pods.get('default', 'b');
  await f.pods.update('default', 'b', { ...b, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } }, { fieldManager: 'test', subresource: 'status' });
  const after = await settled(f.budgets, 'min-one', (s) => s.currentHealthy === 1);
  assert.deepEqual([after.currentHealthy, after.disruptionsAllowed], [1, 0]);
  assert.deepEqual(after.conditions?.map((c) => [c.status, c.reason]), [['False', 'InsufficientPods']]);
});

test('a percentage maxUnavailable is taken of the selected pods, rounded up', async (t) => {
  const f = await fixture(t);
  for (const name of ['p1', 'p2', 'p3']) await pod(f.pods, name, true);
  await budget(f.budgets, 'half', { maxUnavailable: '50%' });
  f.start();
  const status = await settled(f.budgets, 'half', (s) => s.observedGeneration === 1);
  // 50% of 3 rounds up to 2 unavailable: 1 must stay healthy, 2 may go.
  assert.deepEqual([status.expectedPods, status.desiredHealthy, status.disruptionsAllowed], [3, 1, 2]);
});

test('disruptedPods older than the timeout are dropped and recent ones do not count as healthy', () => {
  const now = new Date('2026-01-01T00:10:00Z');
  const ready = (name: string): KObject => ({ metadata: { name, namespace: 'default', labels: { app: 'web' } }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
  const pdb: KObject = {
    metadata: { name: 'b', namespace: 'default', generation: 1 },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    status: { disruptedPods: { old: '2026-01-01T00:07:00Z', recent: '2026-01-01T00:09:30Z', gone: '2026-01-01T00:09:30Z' } },
  };
  const status = desiredBudgetStatus(pdb, [ready('old'), ready('recent'), ready('x')], now, 120_000);
  assert.deepEqual(status?.disruptedPods, { recent: '2026-01-01T00:09:30Z' });
  assert.deepEqual([status?.expectedPods, status?.currentHealthy, status?.disruptionsAllowed], [3, 2, 1]);
  // Nothing to write when the status says it all already.
  assert.equal(desiredBudgetStatus({ ...pdb, status }, [ready('old'), ready('recent'), ready('x')], now, 120_000), undefined);
});
