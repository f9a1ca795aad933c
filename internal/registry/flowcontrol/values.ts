// Small readers of API Priority and Fairness objects' JSON, and Go's semantic equality of specs.
import { stableStringify } from '../generic/stable-json.ts';

/** `v` when it is a JSON object, else an empty one. */
export function obj(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The strings of a list (anything else: none). */
export function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/** `v` without the zero values Go does not tell from absent ones (null, "", 0, false, empty lists and maps). */
function withoutZeros(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => withoutZeros(x) ?? null);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const kept = withoutZeros(x);
      if (kept !== undefined) out[k] = kept;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null || v === '' || v === 0 || v === false ? undefined : v;
}

/** Whether two specs are equal as apimachinery's Semantic.DeepEqual compares the Go structs they decode to. */
export function goEqual(a: unknown, b: unknown): boolean {
  return stableStringify(withoutZeros(a) ?? null) === stableStringify(withoutZeros(b) ?? null);
}
