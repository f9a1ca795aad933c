import type { TestContext } from 'node:test';
import { createGarbageCollector } from '../../../internal/controllers/garbage-collector/garbage-collector.ts';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import type { Storage } from '../../../internal/storage/storage.ts';

/** In-process stores over one SQLite store in memory, with an optional running garbage collector. */
export interface GcFixture {
  readonly storage: Storage;
  readonly logs: string[];
  /** The store of `plural` in `group` (core by default). */
  store(plural: string, group?: string): GenericStore;
  /** Creates an object; `extra` is merged into metadata (ownerReferences, finalizers...). */
  create(plural: string, namespace: string | undefined, name: string, extra?: Record<string, unknown>, body?: Record<string, unknown>, group?: string): Promise<KObject>;
  /** The object, or undefined when it does not exist. */
  find(plural: string, namespace: string | undefined, name: string, group?: string): Promise<KObject | undefined>;
  /** Starts a garbage collector; it is stopped by the test's end, or by calling the function returned. */
  startCollector(options?: { resyncIntervalMs?: number }): () => Promise<void>;
}

/** An owner reference to `owner`. */
export function refTo(owner: KObject, blockOwnerDeletion?: boolean): Record<string, unknown> {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }) };
}

/** Polls `check` until it returns true; fails after `timeoutMs` (a liveness bound, not a performance claim). */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Lets the collector run a while, for checks that something does NOT happen. */
export function settle(ms = 400): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A fixture torn down after the test. */
export async function gcFixture(t: TestContext): Promise<GcFixture> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const registry = new ResourceRegistry('k8s.io');
  const stores = new Map(registry.resources.map((r) => [r, new GenericStore(storage, r)] as const));
  const logs: string[] = [];
  const stops: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const stop of stops) await stop();
    await storage.close();
    const trouble = logs.filter((l) => l.includes('failed') || l.includes('rebuilding'));
    if (trouble.length > 0) throw new Error(`the collector logged trouble:\n${trouble.join('\n')}`);
  });
  const store = (plural: string, group = ''): GenericStore => {
    const found = [...stores.values()].find((s) => s.decl.plural === plural && s.served.group === group);
    if (!found) throw new Error(`no store ${group}/${plural}`);
    return found;
  };
  return {
    storage,
    logs,
    store,
    async create(plural, namespace, name, extra = {}, body = {}, group = '') {
      const s = store(plural, group);
      return (await s.create(namespace, { ...body, metadata: { name, ...extra } }, { fieldManager: 'test' })).object;
    },
    async find(plural, namespace, name, group = '') {
      try {
        return await store(plural, group).get(namespace, name);
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      }
    },
    startCollector(options = {}) {
      const abort = new AbortController();
      const gc = createGarbageCollector({ registry, stores, log: (m, e) => logs.push(e === undefined ? m : `${m}: ${String(e)}`) }, { resyncIntervalMs: options.resyncIntervalMs ?? 60_000 });
      const running = gc.run(abort.signal);
      let stopped = false;
      const stop = async () => {
        if (stopped) return;
        stopped = true;
        abort.abort();
        await running;
      };
      stops.push(stop);
      return stop;
    },
  };
}
