import type { KeyValue, Storage } from '../../storage/storage.ts';
import { StorageError } from '../../storage/storage.ts';
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { badRequest, conflict, invalid, notFound, type GroupResource } from '../errors/status-error.ts';
import { objectKey } from './keys.ts';
import { patchRetriesMax } from './limits.ts';
import { nowTimestamp } from './object-lifecycle.ts';
import type { WriteHooks } from './write-hooks.ts';
import { admitAsIs, type WriteAdmission } from './write-admission.ts';

/** What a delete acts through: the generic store's storage, codec and hooks (GenericStore is one). */
export interface DeletingStore {
  readonly decl: ResourceDeclaration;
  readonly gr: GroupResource;
  readonly storage: Storage;
  readonly hooks: WriteHooks;
  load(kv: KeyValue, revision?: number): Promise<KObject> | KObject;
  dump(obj: KObject): Promise<Uint8Array> | Uint8Array;
}

/** Options of a delete (the body's DeleteOptions and the dryRun query). */
export interface DeleteOptions {
  readonly dryRun?: boolean;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly gracePeriodSeconds?: number;
  /**
   * Orphan, Background or Foreground: Orphan and Foreground keep the object terminating with the
   * `orphan` or `foregroundDeletion` finalizer until the garbage collector has handled its
   * dependents; Background (the default) leaves the dependents to be collected afterwards.
   */
  readonly propagationPolicy?: string;
  /** The deprecated form of the policy: true is Orphan, false is Background. Exclusive with propagationPolicy. */
  readonly orphanDependents?: boolean;
  /** The request's admission chain, run on the stored object before the delete writes; absent for the server's own deletes. */
  readonly admission?: WriteAdmission;
}

/** The finalizer that makes the garbage collector orphan an object's dependents before it goes. */
export const orphanFinalizer = 'orphan';

/** The finalizer that makes the garbage collector delete an object's blocking dependents before it goes. */
export const foregroundFinalizer = 'foregroundDeletion';

const policies = ['Orphan', 'Background', 'Foreground'];

/** 400/422 for delete options kube-apiserver refuses (a propagation policy it does not know, a negative grace period...). */
export function checkDeleteOptions(opts: DeleteOptions): void {
  if (opts.propagationPolicy !== undefined && !policies.includes(opts.propagationPolicy)) {
    throw badRequest(`propagationPolicy: Unsupported value: "${opts.propagationPolicy}": supported values: "Orphan", "Background", "Foreground"`);
  }
  if (opts.propagationPolicy !== undefined && opts.orphanDependents !== undefined) {
    throw invalid('DeleteOptions', 'meta.k8s.io', '', [{ reason: 'FieldValueInvalid', field: 'propagationPolicy', message: `Invalid value: "${opts.propagationPolicy}": orphanDependents and deletionPropagation cannot be both set` }]);
  }
  if (opts.gracePeriodSeconds !== undefined && (!Number.isInteger(opts.gracePeriodSeconds) || opts.gracePeriodSeconds < 0)) {
    throw badRequest('gracePeriodSeconds must be a non-negative integer');
  }
}

/** 409 unless the object matches the delete's uid and resourceVersion preconditions (empty ones are none). */
export function checkPreconditions(store: DeletingStore, obj: KObject, opts: DeleteOptions): void {
  const name = obj.metadata.name ?? '';
  const p = opts.preconditions;
  if (p?.uid && p.uid !== obj.metadata.uid) throw conflict(store.gr, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
  if (p?.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw conflict(store.gr, name, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
  }
}

/**
 * The garbage-collection finalizer a delete asks for: an explicit policy wins, then a finalizer
 * the object already carries (a repeated delete keeps the first one's choice), then Background.
 */
function wantedGcFinalizer(finalizers: readonly string[], opts: DeleteOptions): string | undefined {
  if (opts.orphanDependents !== undefined) return opts.orphanDependents ? orphanFinalizer : undefined;
  if (opts.propagationPolicy === 'Orphan') return orphanFinalizer;
  if (opts.propagationPolicy === 'Foreground') return foregroundFinalizer;
  if (opts.propagationPolicy === 'Background') return undefined;
  return finalizers.find((f) => f === orphanFinalizer || f === foregroundFinalizer);
}

/** The finalizers after a delete: the other finalizers kept in order, the wanted GC finalizer last. */
function finalizersAfterDelete(finalizers: readonly string[], opts: DeleteOptions): string[] {
  const wanted = wantedGcFinalizer(finalizers, opts);
  const next = finalizers.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (wanted !== undefined) next.push(wanted);
  return next;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

/** One attempt at the delete against `current`; a lost race throws StorageError Conflict. */
async function deleteFrom(store: DeletingStore, current: KeyValue, opts: DeleteOptions): Promise<KObject> {
  const obj = await store.load(current);
  checkPreconditions(store, obj, opts);
  const finalizers = obj.metadata.finalizers ?? [];
  const terminating = obj.metadata.deletionTimestamp !== undefined;
  // As Kubernetes: a deletion already pending with a grace period cannot change its finalizers.
  if (terminating && (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0) return obj;
  if (opts.admission !== undefined) await admitDelete(opts.admission, obj);
  const next = finalizersAfterDelete(finalizers, opts);
  if (next.length === 0) {
    if (opts.dryRun) return obj;
    const removed = await store.load(await store.storage.delete(current.key, { expectedRevision: current.modRevision }));
    await store.hooks.afterDelete?.(removed);
    return removed;
  }
  if (terminating && sameSet(next, finalizers)) return obj;
  obj.metadata.finalizers = next;
  if (!terminating) {
    obj.metadata.deletionTimestamp = nowTimestamp();
    obj.metadata.deletionGracePeriodSeconds = opts.gracePeriodSeconds ?? 0;
    if (store.decl.tracksGeneration) obj.metadata.generation = (obj.metadata.generation ?? 1) + 1;
  }
  if (opts.dryRun) return obj;
  return store.load(await store.storage.update(current.key, await store.dump(obj), { expectedRevision: current.modRevision }));
}

/** DELETE's admission: both phases see the stored object (a copy: plugins must not change it). */
export async function admitDelete(admission: WriteAdmission, obj: KObject): Promise<void> {
  await admitAsIs(admission, 'DELETE', undefined, structuredClone(obj));
}

/**
 * Deletes one object. Without finalizers (after applying the propagation policy) it is removed at
 * once; otherwise it only becomes terminating (deletionTimestamp set, the policy's finalizer
 * added) and the last finalizer's removal deletes it, in the update path. A repeated delete may
 * switch the policy's finalizer. Returns the object as last stored (or as it would be, on dry run).
 * Races with other writers are retried; preconditions are checked against each fresh read.
 */
export async function deleteObject(store: DeletingStore, namespace: string | undefined, name: string, opts: DeleteOptions): Promise<KObject> {
  checkDeleteOptions(opts);
  const key = objectKey(store.decl, namespace, name);
  for (let attempt = 1; ; attempt++) {
    const current = await store.storage.get(key);
    if (!current) throw notFound(store.gr, name);
    try {
      return await deleteFrom(store, current, opts);
    } catch (err) {
      const lostRace = err instanceof StorageError && err.code === 'Conflict';
      if (!lostRace || attempt >= patchRetriesMax) throw err;
    }
  }
}
