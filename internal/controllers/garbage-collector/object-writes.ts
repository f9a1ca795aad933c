import type { GenericStore } from '../../registry/generic/store.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { hasStatus } from '../../registry/errors/status-error.ts';

/** The field manager the collector's writes are recorded under. */
export const fieldManager = 'garbage-collector';

/** Which object a write is for: its uid guards against a new object that reuses the name. */
export interface ObjectIdentity {
  readonly store: GenericStore;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly uid: string;
}

/**
 * Removes `finalizer` from the object (deleting it when that was the last one). Reads the latest
 * object and writes against its resourceVersion, retrying lost races; a different uid under the
 * name answers 409, a missing object 404 (both StatusError).
 */
export async function removeFinalizer(target: ObjectIdentity, finalizer: string): Promise<void> {
  await target.store.patch(target.namespace, target.name, (obj: KObject) => {
    obj.metadata.uid = target.uid;
    const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    if (finalizers.length === 0) delete obj.metadata.finalizers;
    else obj.metadata.finalizers = finalizers;
    return obj;
  }, { fieldManager });
}

/** Removes the owner references to `ownerUids` from the object; same guarantees as removeFinalizer. */
export async function removeOwnerReferences(target: ObjectIdentity, ownerUids: ReadonlySet<string>): Promise<void> {
  await target.store.patch(target.namespace, target.name, (obj: KObject) => {
    obj.metadata.uid = target.uid;
    const refs = Array.isArray(obj.metadata.ownerReferences) ? (obj.metadata.ownerReferences as unknown[]) : [];
    const kept = refs.filter((r) => !(typeof r === 'object' && r !== null && ownerUids.has(String((r as { uid?: unknown }).uid))));
    if (kept.length === 0) delete obj.metadata.ownerReferences;
    else obj.metadata.ownerReferences = kept;
    return obj;
  }, { fieldManager });
}

/**
 * Sets blockOwnerDeletion=false on every owner reference of the object, returning its new
 * resourceVersion: what breaks a cycle of foreground deletions waiting for each other.
 */
export async function unblockOwnerReferences(target: ObjectIdentity): Promise<string> {
  const result = await target.store.patch(target.namespace, target.name, (obj: KObject) => {
    obj.metadata.uid = target.uid;
    const refs = Array.isArray(obj.metadata.ownerReferences) ? (obj.metadata.ownerReferences as unknown[]) : [];
    obj.metadata.ownerReferences = refs.map((r) => (typeof r === 'object' && r !== null && (r as { blockOwnerDeletion?: unknown }).blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r));
    return obj;
  }, { fieldManager });
  return result.object.metadata.resourceVersion ?? '';
}

/**
 * Deletes the object with `policy`, only if it still is the version `resourceVersion` the
 * decision was made on (409 otherwise: the caller looks again).
 */
export async function deleteWithPolicy(target: ObjectIdentity, resourceVersion: string, policy: 'Orphan' | 'Background' | 'Foreground'): Promise<void> {
  await target.store.delete(target.namespace, target.name, { propagationPolicy: policy, preconditions: { uid: target.uid, resourceVersion } });
}

/** Awaits `write`, treating a 404 (the object is gone already) as done. */
export async function ignoreNotFound(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (!hasStatus(err, 404)) throw err;
  }
}

/**
 * The object named `name` as stored now (a consistent read), or undefined when it is absent or
 * the name now holds another object (a different uid).
 */
export async function getByUid(store: GenericStore, namespace: string | undefined, name: string, uid: string): Promise<KObject | undefined> {
  try {
    const obj = await store.get(namespace, name);
    return obj.metadata.uid === uid ? obj : undefined;
  } catch (err) {
    if (hasStatus(err, 404)) return undefined;
    throw err;
  }
}
