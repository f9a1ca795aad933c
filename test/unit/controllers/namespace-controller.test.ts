import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespaceController } from '../../../internal/controllers/namespace-controller.ts';
import { deleteNamespace, finalizeNamespace } from '../../../internal/registry/core/namespace-deletion.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';

interface Fixture {
  store(plural: string, group?: string): GenericStore;
  create(plural: string, namespace: string | undefined, name: string, metadata?: Record<string, unknown>): Promise<KObject>;
  find(plural: string, namespace: string | undefined, name: string): Promise<KObject | undefined>;
  deleteNs(name: string): Promise<KObject>;
  startController(): void;
  logs: string[];
}

async function fixture(t: TestContext): Promise<Fixture> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const registry = new ResourceRegistry('k8s.io');
  const stores = new Map(registry.resources.map((r) => [r, new GenericStore(storage, r)] as const));
  const logs: string[] = [];
  const aborts: AbortController[] = [];
  const runs: Promise<void>[] = [];
  t.after(async () => {
    for (const a of aborts) a.abort();
    await Promise.all(runs);
    await storage.close();
  });
  const store = (plural: string, group = ''): GenericStore => {
    const found = [...stores.values()].find((s) => s.decl.plural === plural && s.served.group === group);
    if (!found) throw new Error(`no store ${group}/${plural}`);
    return found;
  };
  return {
    store,
    logs,
    async create(plural, namespace, name, metadata = {}) {
      return (await store(plural).create(namespace, { metadata: { name, ...metadata } }, { fieldManager: 'test' })).object;
    },
    async find(plural, namespace, name) {
      try {
        return await store(plural).get(namespace, name);
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      }
    },
    deleteNs: (name) => deleteNamespace(store('namespaces'), name, {}),
    startController() {
      const abort = new AbortController();
      aborts.push(abort);
      const controller = createNamespaceController({ registry, stores, log: (m, e) => logs.push(`${m} ${String(e ?? '')}`) }, { resyncIntervalMs: 200, busyResyncIntervalMs: 50 });
      runs.push(controller.run(abort.signal));
    },
  };
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function condition(ns: KObject | undefined, type: string): { status?: string; reason?: string; message?: string } | undefined {
  const conditions = (ns?.status as { conditions?: { type: string; status?: string; reason?: string; message?: string }[] } | undefined)?.conditions ?? [];
  return conditions.find((c) => c.type === type);
}

test('a new namespace is Active with the kubernetes spec finalizer', async (t) => {
  const f = await fixture(t);
  const ns = await f.create('namespaces', undefined, 'team');
  assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
  assert.equal((ns.status as { phase: string }).phase, 'Active');
});

test('deleting a namespace only makes it Terminating; the controller then removes its content and it', async (t) => {
  const f = await fixture(t);
  await f.create('namespaces', undefined, 'team');
  await f.create('configmaps', 'team', 'settings');
  await f.create('secrets', 'team', 'token');
  await f.create('configmaps', 'other', 'kept');
  const deleted = await f.deleteNs('team');
  assert.notEqual(deleted.metadata.deletionTimestamp, undefined);
  assert.equal((deleted.status as { phase: string }).phase, 'Terminating');
  assert.ok(await f.find('configmaps', 'team', 'settings'), 'the request itself deletes nothing');
  assert.equal((await f.deleteNs('team')).metadata.resourceVersion, deleted.metadata.resourceVersion, 'a repeated delete changes nothing');
  f.startController();
  await eventually('namespace removed', async () => (await f.find('namespaces', undefined, 'team')) === undefined);
  assert.equal(await f.find('configmaps', 'team', 'settings'), undefined);
  assert.equal(await f.find('secrets', 'team', 'token'), undefined);
  assert.ok(await f.find('configmaps', 'other', 'kept'), 'other namespaces are untouched');
  assert.deepEqual(f.logs, []);
});

test('an object with a finalizer keeps the namespace Terminating until the finalizer is removed', async (t) => {
  const f = await fixture(t);
  await f.create('namespaces', undefined, 'held');
  await f.create('configmaps', 'held', 'pinned', { finalizers: ['example.com/hold'] });
  await f.create('configmaps', 'held', 'loose');
  await f.deleteNs('held');
  f.startController();
  await eventually('conditions report the finalizer', async () => condition(await f.find('namespaces', undefined, 'held'), 'NamespaceFinalizersRemaining')?.status === 'True');
  const ns = await f.find('namespaces', undefined, 'held');
  assert.match(condition(ns, 'NamespaceContentRemaining')?.message ?? '', /configmaps has 1 resource instances/);
  assert.match(condition(ns, 'NamespaceFinalizersRemaining')?.message ?? '', /example.com\/hold in 1 resource instances/);
  assert.deepEqual(ns?.spec, { finalizers: ['kubernetes'] });
  const pinned = await f.find('configmaps', 'held', 'pinned');
  assert.notEqual(pinned?.metadata.deletionTimestamp, undefined, 'the object is terminating');
  assert.equal(await f.find('configmaps', 'held', 'loose'), undefined);
  await f.store('configmaps').patch('held', 'pinned', (o) => ({ ...o, metadata: { ...o.metadata, finalizers: [] } }), { fieldManager: 'test' });
  await eventually('namespace removed after the finalizer went', async () => (await f.find('namespaces', undefined, 'held')) === undefined);
  assert.equal(await f.find('configmaps', 'held', 'pinned'), undefined);
  assert.deepEqual(f.logs, []);
});

test('updates of a terminating namespace neither remove it nor change its spec finalizers', async (t) => {
  const f = await fixture(t);
  await f.create('namespaces', undefined, 'busy');
  await f.deleteNs('busy');
  const nsStore = f.store('namespaces');
  const { object } = await nsStore.patch(undefined, 'busy', (o) => ({ ...o, metadata: { ...o.metadata, labels: { a: 'b' } }, spec: { finalizers: [] } }), { fieldManager: 'test' });
  assert.equal(object.metadata.labels?.a, 'b');
  assert.deepEqual(object.spec, { finalizers: ['kubernetes'] });
  assert.ok(await f.find('namespaces', undefined, 'busy'));
});

test('metadata finalizers of a namespace keep it after the controller finalizes it, until removed', async (t) => {
  const f = await fixture(t);
  await f.create('namespaces', undefined, 'kept', { finalizers: ['example.com/ns'] });
  await f.deleteNs('kept');
  f.startController();
  await eventually('spec finalizer removed', async () => {
    const ns = await f.find('namespaces', undefined, 'kept');
    return (ns?.spec as { finalizers?: string[] } | undefined)?.finalizers?.length === 0;
  });
  await f.store('namespaces').patch(undefined, 'kept', (o) => ({ ...o, metadata: { ...o.metadata, finalizers: [] } }), { fieldManager: 'test' });
  assert.equal(await f.find('namespaces', undefined, 'kept'), undefined);
});

test('finalize removes a terminating namespace whose finalizers are all gone, and only then', async (t) => {
  const f = await fixture(t);
  await f.create('namespaces', undefined, 'fin');
  const live = await finalizeNamespace(f.store('namespaces'), 'fin', () => []);
  assert.equal(live.removed, false, 'a live namespace is never removed by finalize');
  await f.deleteNs('fin');
  assert.ok(await f.find('namespaces', undefined, 'fin'), 'the first delete never removes, even without finalizers');
  const done = await f.deleteNs('fin');
  assert.notEqual(done.metadata.deletionTimestamp, undefined);
  assert.equal(await f.find('namespaces', undefined, 'fin'), undefined, 'a second delete with no finalizers removes it');
});

test('the controller returns once its signal aborts, even while a namespace still waits', async (t) => {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  t.after(() => storage.close());
  const registry = new ResourceRegistry('k8s.io');
  const stores = new Map(registry.resources.map((r) => [r, new GenericStore(storage, r)] as const));
  const nsStore = [...stores.values()].find((s) => s.decl.plural === 'namespaces');
  assert.ok(nsStore);
  await nsStore.create(undefined, { metadata: { name: 'stuck' } }, { fieldManager: 'test' });
  const cms = [...stores.values()].find((s) => s.decl.plural === 'configmaps');
  await cms?.create('stuck', { metadata: { name: 'pinned', finalizers: ['example.com/hold'] } }, { fieldManager: 'test' });
  await deleteNamespace(nsStore, 'stuck', {});
  const abort = new AbortController();
  const controller = createNamespaceController({ registry, stores, log: () => undefined }, { resyncIntervalMs: 60_000, busyResyncIntervalMs: 60_000 });
  const running = controller.run(abort.signal);
  await new Promise((r) => setTimeout(r, 200));
  abort.abort();
  await running;
  assert.ok(await nsStore.get(undefined, 'stuck'), 'still terminating: its content has a finalizer');
});
