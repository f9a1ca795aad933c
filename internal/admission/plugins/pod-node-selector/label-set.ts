// Plain label sets (labels.Set) as PodNodeSelector uses them: parsed from the `k=v,k2=v2` text
// of kube's ConvertSelectorToLabelsMap, compared for conflicts, merged and tested for inclusion.
import { labelValue, qualifiedName } from '../../../registry/schema/name-validation.ts';

/** A label set: key to value. */
export type LabelSet = Readonly<Record<string, string>>;

/**
 * Parses `k=v,k2=v2` (spaces around keys and values trimmed; '' is the empty set). Throws an
 * Error worded as kube's when an item is not `k=v` or a key or value is not a valid label.
 */
export function parseLabelSet(selector: string): LabelSet {
  const set: Record<string, string> = {};
  if (selector === '') return set;
  for (const item of selector.split(',')) {
    const parts = item.split('=');
    if (parts.length !== 2) throw new Error(`invalid selector: [${parts.join(' ')}]`);
    const key = (parts[0] ?? '').trim();
    const keyErrors = qualifiedName(key);
    if (keyErrors.length > 0) throw new Error(`invalid label key ${JSON.stringify(key)}: ${keyErrors.join('; ')}`);
    const value = (parts[1] ?? '').trim();
    const valueErrors = labelValue(value);
    if (valueErrors.length > 0) throw new Error(`invalid label value: ${JSON.stringify(value)}: at key: ${JSON.stringify(key)}: ${valueErrors.join('; ')}`);
    set[key] = value;
  }
  return set;
}

/** Whether a key is in both sets with different values (labels.Conflicts). */
export function conflicts(a: LabelSet, b: LabelSet): boolean {
  return Object.entries(a).some(([key, value]) => Object.hasOwn(b, key) && b[key] !== value);
}

/** `a` then `b` (b wins on a shared key): labels.Merge. */
export function merge(a: LabelSet, b: LabelSet): Record<string, string> {
  return { ...a, ...b };
}

/** Whether every label of `subset` is in `superset` with its value; an empty superset allows all. */
export function isSubset(subset: LabelSet, superset: LabelSet): boolean {
  if (Object.keys(superset).length === 0) return true;
  return Object.entries(subset).every(([key, value]) => Object.hasOwn(superset, key) && superset[key] === value);
}
