// JSON equality as Go's semantic DeepEqual sees decoded objects: an absent field and null are the
// same (a nil pointer), arrays compare in order, objects by their keys.

/** Whether `a` and `b` are the same JSON value, absent and null alike. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].every((key) => jsonEqual(x[key], y[key]));
}
