import type { KObject } from '../schema/declaration.ts';
import { conflict, CONFLICT_MODIFIED, notFound } from '../errors/status-error.ts';
import { admitDelete, checkPreconditions } from '../generic/delete.ts';
import { objectKey } from '../generic/keys.ts';
import { nowTimestamp } from '../generic/object-lifecycle.ts';
import type { DeleteOptions, GenericStore } from '../generic/store.ts';
import type { ServedResource, ServedResources } from '../served-resource.ts';

/** The stores a namespace deletion works across: the namespaces store and every namespaced one. */
export interface NamespaceStores {
  readonly namespaces: GenericStore;
  readonly namespaced: readonly GenericStore[];
}

/** The NamespaceStores among the served `stores`, or undefined when namespaces are not served. */
export function namespaceStoresOf(registry: ServedResources, stores: ReadonlyMap<ServedResource, GenericStore>): NamespaceStores | undefined {
  const served = registry.find('', 'v1', 'namespaces');
  const namespaces = served && stores.get(served);
  if (!namespaces) return undefined;
  return { namespaces, namespaced: [...stores].filter(([r]) => r.decl.namespaced).map(([, s]) => s) };
}

/** The spec finalizer every namespace gets on create: the namespace controller removes it once the namespace is empty. */
export const kubernetesFinalizer = 'kubernetes';

/** The namespace's spec.finalizers (empty when absent or malformed). */
export function specFinalizers(ns: KObject): string[] {
  const value = (ns.spec as { finalizers?: unknown } | undefined)?.finalizers;
  return Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : [];
}

/** Whether a namespace is terminating (deletionTimestamp set). */
export function isTerminating(ns: KObject): boolean {
  return ns.metadata.deletionTimestamp !== undefined;
}

/** Whether a namespace takes no new objects: terminating, or its status already says Terminating. */
export function refusesNewContent(ns: KObject): boolean {
  return isTerminating(ns) || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating';
}

/** Whether a terminating namespace may leave storage: no spec finalizer and no metadata finalizer remains. */
export function readyToRemove(ns: KObject): boolean {
  return isTerminating(ns) && specFinalizers(ns).length === 0 && (ns.metadata.finalizers ?? []).length === 0;
}

/** What a namespace write did: the object as last stored, and whether that write removed it. */
export interface NamespaceWrite {
  readonly object: KObject;
  readonly removed: boolean;
}

/**
 * Read-modify-write of one namespace bypassing the update strategy (which keeps spec.finalizers
 * and status): `mutate` edits a fresh copy; when the result is ready to remove (and `removeWhenReady`
 * is not false) it is deleted; an unchanged result is not written. One attempt: a lost race is a
 * 409 (callers are level-triggered and retry). 404 when the namespace is gone.
 */
export async function rewriteNamespace(store: GenericStore, name: string, mutate: (ns: KObject) => void, removeWhenReady = true): Promise<NamespaceWrite> {
  return store.guard(name, async () => {
    const key = objectKey(store.decl, undefined, name);
    const current = await store.storage.get(key);
    if (!current) throw notFound(store.gr, name);
    const ns = store.decode(current);
    const before = JSON.stringify(ns);
    mutate(ns);
    if (removeWhenReady && readyToRemove(ns)) {
      const kv = await store.storage.delete(key, { expectedRevision: current.modRevision });
      return { object: store.decode(kv), removed: true };
    }
    if (JSON.stringify(ns) === before) return { object: ns, removed: false };
    const kv = await store.storage.update(key, store.encode(ns), { expectedRevision: current.modRevision });
    return { object: store.decode(kv), removed: false };
  });
}

/**
 * Sets a namespace's spec.finalizers (the `/finalize` sub-resource, and the namespace controller
 * removing `kubernetes`); a terminating namespace left with no finalizers is removed. With
 * `resourceVersion`, 409 unless the namespace is still at that version.
 */
export async function finalizeNamespace(store: GenericStore, name: string, finalizers: (current: readonly string[]) => string[], resourceVersion?: string): Promise<NamespaceWrite> {
  return rewriteNamespace(store, name, (ns) => {
    if (resourceVersion !== undefined && resourceVersion !== ns.metadata.resourceVersion) throw conflict(store.gr, name, CONFLICT_MODIFIED);
    const next = finalizers(specFinalizers(ns));
    ns.spec = { ...(ns.spec as object | undefined), finalizers: next };
  });
}

function markTerminating(ns: KObject): void {
  ns.metadata.deletionTimestamp ??= nowTimestamp();
  ns.metadata.deletionGracePeriodSeconds ??= 0;
  ns.status = { ...(ns.status as object | undefined), phase: 'Terminating' };
}

/**
 * DELETE of a namespace as Kubernetes does it: the first delete only makes it Terminating
 * (deletionTimestamp, status.phase) so it takes no new objects; the namespace controller empties
 * it and removes the `kubernetes` finalizer, which removes it. A delete of a terminating
 * namespace whose finalizers are all gone removes it at once. Returns the namespace as stored.
 */
export async function deleteNamespace(store: GenericStore, name: string, opts: DeleteOptions): Promise<KObject> {
  const ns = await store.get(undefined, name);
  checkPreconditions(store, ns, opts);
  if (opts.admission !== undefined) await admitDelete(opts.admission, ns);
  if (opts.dryRun) {
    markTerminating(ns);
    return ns;
  }
  if (isTerminating(ns) && !readyToRemove(ns)) return ns;
  // The first delete never removes: the controller empties the namespace before it goes.
  return (await rewriteNamespace(store, name, markTerminating, isTerminating(ns))).object;
}
