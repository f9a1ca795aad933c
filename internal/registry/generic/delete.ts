import type { KObject } from '../schema/declaration.ts';
import { badRequest, conflict, notFound } from '../errors/status-error.ts';
import { decodeKeyValue, encodeObject } from './codec.ts';
import { objectKey } from './keys.ts';
import { nowTimestamp } from './object-lifecycle.ts';
import type { GenericStore } from './store.ts';

/** Options of a delete (the body's DeleteOptions and the dryRun query). */
export interface DeleteOptions {
  readonly dryRun?: boolean;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly gracePeriodSeconds?: number;
  /** Orphan, Background or Foreground; accepted, garbage collection is not done here. */
  readonly propagationPolicy?: string;
}

const policies = ['Orphan', 'Background', 'Foreground'];

function checkPreconditions(store: GenericStore, obj: KObject, opts: DeleteOptions): void {
  const name = obj.metadata.name ?? '';
  const p = opts.preconditions;
  if (p?.uid && p.uid !== obj.metadata.uid) throw conflict(store.gr, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
  if (p?.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw conflict(store.gr, name, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
  }
}

/**
 * Deletes one object. With finalizers it only sets deletionTimestamp (the last finalizer's
 * removal deletes it, in the update path). Returns the object as last stored.
 */
export async function deleteObject(store: GenericStore, namespace: string | undefined, name: string, opts: DeleteOptions): Promise<KObject> {
  if (opts.propagationPolicy !== undefined && !policies.includes(opts.propagationPolicy)) {
    throw badRequest(`propagationPolicy: Unsupported value: "${opts.propagationPolicy}": supported values: "Orphan", "Background", "Foreground"`);
  }
  if (opts.gracePeriodSeconds !== undefined && (!Number.isInteger(opts.gracePeriodSeconds) || opts.gracePeriodSeconds < 0)) {
    throw badRequest('gracePeriodSeconds must be a non-negative integer');
  }
  const key = objectKey(store.decl, namespace, name);
  const current = await store.storage.get(key);
  if (!current) throw notFound(store.gr, name);
  const obj = store.withType(decodeKeyValue(current));
  checkPreconditions(store, obj, opts);
  if ((obj.metadata.finalizers ?? []).length > 0) {
    if (obj.metadata.deletionTimestamp !== undefined) return obj;
    obj.metadata.deletionTimestamp = nowTimestamp();
    obj.metadata.deletionGracePeriodSeconds = opts.gracePeriodSeconds ?? 0;
    if (store.decl.tracksGeneration) obj.metadata.generation = (obj.metadata.generation ?? 1) + 1;
    if (opts.dryRun) return obj;
    const kv = await store.storage.update(key, encodeObject(obj), { expectedRevision: current.modRevision });
    return store.withType(decodeKeyValue(kv));
  }
  if (opts.dryRun) return obj;
  const kv = await store.storage.delete(key, { expectedRevision: current.modRevision });
  return store.withType(decodeKeyValue(kv));
}
