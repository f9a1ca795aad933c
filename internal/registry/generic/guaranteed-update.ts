import { StorageError } from '../../storage/storage.ts';
import type { KObject } from '../schema/declaration.ts';
import { notFound } from '../errors/status-error.ts';
import { cloneObject } from './codec.ts';
import { objectKey } from './keys.ts';
import { patchRetriesMax } from './limits.ts';
import type { GenericStore } from './store.ts';

/** Options of a guaranteed update. */
export interface GuaranteedUpdateOptions {
  /** Compute and return the result, write nothing. */
  readonly dryRun?: boolean;
  /** Whether a lost write race is retried on a fresh read (default yes; no when the caller pinned a resourceVersion). */
  readonly retry?: boolean;
}

/**
 * Rewrites one stored object as kube-apiserver's storage GuaranteedUpdate does, for a kind's own
 * actions that bypass its strategy (pods/binding setting spec.nodeName): `change` gets a copy of
 * the current object and returns the one to store (it may throw a StatusError to refuse); the
 * write is a compare-and-swap on the revision read, retried (bounded) on a lost race. Returns the
 * stored object (on dry run, what would be stored). 404 when the object does not exist.
 */
export async function guaranteedUpdate(store: GenericStore, namespace: string | undefined, name: string, change: (current: KObject) => KObject, opts: GuaranteedUpdateOptions = {}): Promise<KObject> {
  const key = objectKey(store.decl, namespace, name);
  return store.guard(name, async () => {
    for (let attempt = 1; ; attempt++) {
      const current = await store.storage.get(key);
      if (!current) throw notFound(store.gr, name);
      const next = store.withType(change(cloneObject(await store.load(current))));
      if (opts.dryRun) return next;
      try {
        return await store.load(await store.storage.update(key, await store.dump(next), { expectedRevision: current.modRevision }));
      } catch (err) {
        const lostRace = err instanceof StorageError && err.code === 'Conflict';
        if (!lostRace || opts.retry === false || attempt >= patchRetriesMax) throw err;
      }
    }
  });
}
