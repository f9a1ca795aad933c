// Equality of stored objects as apimachinery's equality.Semantic sees it for the RBAC storages:
// an empty list or map equals an absent one.

type Json = unknown;

function isEmpty(v: Json): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

/** Whether two JSON values are equal, empty lists and maps counting as absent. */
export function semanticEqual(a: Json, b: Json): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ra = a as Record<string, Json>;
    const rb = b as Record<string, Json>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    for (const k of keys) if (!semanticEqual(ra[k], rb[k])) return false;
    return true;
  }
  return a === b;
}

/**
 * Whether an update changes only what the garbage collector writes (ownerReferences, finalizers;
 * managedFields and resourceVersion ignored too), kube's IsOnlyMutatingGCFields: such an update of
 * a role or binding skips the escalation check.
 */
export function onlyGarbageCollectionFieldsChanged(object: Record<string, unknown>, old: Record<string, unknown>): boolean {
  const stomp = (o: Record<string, unknown>): Record<string, unknown> => {
    const metadata = { ...((o.metadata ?? {}) as Record<string, unknown>) };
    for (const k of ['ownerReferences', 'finalizers', 'managedFields', 'resourceVersion', 'selfLink']) delete metadata[k];
    return { ...o, metadata };
  };
  return semanticEqual(stomp(object), stomp(old));
}
