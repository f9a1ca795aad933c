import type { KObject } from '../schema/declaration.ts';
import { StatusError } from '../errors/status-error.ts';
import type { DeleteOptions, GenericStore } from '../generic/store.ts';

/** The stores a namespace deletion works across: the namespaces store and every namespaced one. */
export interface NamespaceStores {
  readonly namespaces: GenericStore;
  readonly namespaced: readonly GenericStore[];
}

/** Deletes every object of the namespace (those with finalizers are only marked). Returns how many remain. */
async function purge(stores: NamespaceStores, name: string): Promise<number> {
  let remaining = 0;
  for (const store of stores.namespaced) {
    const deleted = await store.deleteCollection(name, {}, {});
    remaining += deleted.items.filter((o) => (o.metadata.finalizers ?? []).length > 0).length;
  }
  return remaining;
}

/**
 * Deletes a namespace the way the API promises: it turns Terminating at once (so it takes no new
 * objects), its objects are deleted, and the namespace itself goes when none remain. Objects held
 * by finalizers keep it Terminating; deleting it again resumes the purge. Returns the namespace
 * as last seen (Terminating, or as deleted).
 */
export async function deleteNamespace(stores: NamespaceStores, name: string, opts: DeleteOptions): Promise<KObject> {
  const ns = await stores.namespaces.get(undefined, name);
  if (opts.preconditions?.uid && opts.preconditions.uid !== ns.metadata.uid) return stores.namespaces.delete(undefined, name, opts);
  if (opts.dryRun) return ns;
  let terminating = ns;
  if ((ns.status as { phase?: string } | undefined)?.phase !== 'Terminating' || ns.metadata.deletionTimestamp === undefined) {
    terminating = await stores.namespaces.markForDeletion(undefined, name, (current) => {
      current.status = { ...(current.status as object), phase: 'Terminating' };
    });
  }
  if ((await purge(stores, name)) > 0) return terminating;
  try {
    return await stores.namespaces.delete(undefined, name, {});
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return terminating;
    throw err;
  }
}
