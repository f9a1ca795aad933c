// Reading and comparing metadata.ownerReferences: whether a write changes them at all, and which
// references newly block their owner's deletion (added with blockOwnerDeletion true, or turned
// from unset/false to true; matched to the old ones by uid).
import type { KObject } from '../../../registry/schema/declaration.ts';

/** One owner reference as JSON carries it. */
export interface OwnerReference {
  readonly apiVersion?: unknown;
  readonly kind?: unknown;
  readonly name?: unknown;
  readonly uid?: unknown;
  readonly controller?: unknown;
  readonly blockOwnerDeletion?: unknown;
}

/** The object's owner references (none when absent or malformed). */
export function ownerReferences(object: KObject | undefined): OwnerReference[] {
  const refs = object?.metadata['ownerReferences'];
  return Array.isArray(refs) ? refs.filter((r): r is OwnerReference => typeof r === 'object' && r !== null) : [];
}

/** JSON equality where an absent field and null are the same (Go's nil pointer). */
function sameValue(a: unknown, b: unknown): boolean {
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Whether the write sets or changes owner references (a create: whether it has any). */
export function changesOwnerReferences(object: KObject | undefined, old: KObject | undefined): boolean {
  const next = ownerReferences(object);
  if (old === undefined) return next.length > 0;
  const before = ownerReferences(old);
  return next.length !== before.length || next.some((ref, i) => !sameValue(ref, before[i]));
}

/** The references of `object` that now block their owner's deletion and did not before. */
export function newBlockingReferences(object: KObject | undefined, old: KObject | undefined): OwnerReference[] {
  const blocking = ownerReferences(object).filter((ref) => ref.blockOwnerDeletion === true);
  if (blocking.length === 0 || old === undefined) return blocking;
  const before = new Map(ownerReferences(old).map((ref) => [ref.uid, ref]));
  return blocking.filter((ref) => {
    const previous = before.get(ref.uid);
    return previous === undefined || previous.blockOwnerDeletion !== true;
  });
}
