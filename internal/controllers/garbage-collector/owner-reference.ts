import type { KObject } from '../../registry/schema/declaration.ts';

/** One entry of metadata.ownerReferences, as the collector reads it. */
export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  /** True when the owner's foreground deletion waits for this dependent. */
  readonly blockOwnerDeletion: boolean;
}

function isReference(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The object's owner references. Entries without a string uid, kind, name and apiVersion are
 * skipped: they name no owner the collector could ever find, so they keep nothing alive and
 * make nothing collectable.
 */
export function ownerReferencesOf(obj: KObject): OwnerReference[] {
  const raw = obj.metadata.ownerReferences;
  if (!Array.isArray(raw)) return [];
  const out: OwnerReference[] = [];
  for (const r of raw) {
    if (!isReference(r)) continue;
    const { apiVersion, kind, name, uid } = r;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string' || typeof uid !== 'string' || uid === '') continue;
    out.push({ apiVersion, kind, name, uid, blockOwnerDeletion: r.blockOwnerDeletion === true });
  }
  return out;
}

/** The API group of an apiVersion (`v1` -> '', `apps/v1` -> `apps`). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
