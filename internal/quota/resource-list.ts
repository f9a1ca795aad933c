// Resource lists (core/v1 ResourceList: resource name -> quantity) as quota arithmetic needs them,
// with the helpers of k8s.io/apiserver/pkg/quota/v1/resources.go: add, subtract without going
// below zero, mask, compare against hard limits, and the `name=value,...` text errors print.
import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  quantityValue,
  subtractQuantities,
  zeroQuantity,
  type QuantityValue,
} from '../registry/schema/quantity-arithmetic.ts';

/** Resource name -> exact quantity. Insertion order carries no meaning; printers sort. */
export type ResourceList = Map<string, QuantityValue>;

/** A JSON ResourceList (`{cpu: "500m"}`) as values; entries that are not quantities are left out. */
export function parseResourceList(json: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return out;
  for (const [name, text] of Object.entries(json)) {
    const value = quantityValue(text);
    if (value !== undefined) out.set(name, value);
  }
  return out;
}

/** The JSON form, keys sorted (as Go's map encoding writes them). */
export function resourceListToJson(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list.keys()].sort().map((k) => [k, formatQuantity(list.get(k) ?? zeroQuantity)]));
}

/** a + b per name; a name in one list only keeps its value (quota.Add). */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const mine = out.get(k);
    out.set(k, mine === undefined ? v : addQuantities(mine, v));
  }
  return out;
}

/** a - b per name, never below zero; names only in b come out as zero (SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const other = b.get(k);
    const diff = other === undefined ? v : subtractQuantities(v, other);
    out.set(k, compareQuantities(diff, zeroQuantity) > 0 ? diff : zeroQuantity);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, zeroQuantity);
  return out;
}

/** Only the entries whose names are in `names` (quota.Mask). */
export function maskList(list: ResourceList, names: Iterable<string>): ResourceList {
  const keep = new Set(names);
  return new Map([...list].filter(([k]) => keep.has(k)));
}

/** The names where `a` is above `b`, among the names both have (quota.LessThanOrEqual's second result). */
export function exceededNames(a: ResourceList, b: ResourceList): string[] {
  return [...b].filter(([k, limit]) => {
    const value = a.get(k);
    return value !== undefined && compareQuantities(value, limit) > 0;
  }).map(([k]) => k);
}

/** Without the zero entries (quota.RemoveZeros). */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, v]) => v.units !== 0n));
}

/** The names with a negative value (quota.IsNegative). */
export function negativeNames(list: ResourceList): string[] {
  return [...list].filter(([, v]) => v.units < 0n).map(([k]) => k);
}

/** Same names with equal values (quota.Equals). */
export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const other = b.get(k);
    if (other === undefined || compareQuantities(v, other) !== 0) return false;
  }
  return true;
}

/** `a=1,b=2Gi`, names sorted (the quota admission's prettyPrint). */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((k) => `${k}=${formatQuantity(list.get(k) ?? zeroQuantity)}`).join(',');
}

/** Names sorted and comma-joined (prettyPrintResourceNames). */
export function prettyPrintNames(names: Iterable<string>): string {
  return [...names].sort().join(',');
}

/** The sorted, deduplicated names of `a` that are also in `b` (quota.Intersection). */
export function intersection(a: Iterable<string>, b: Iterable<string>): string[] {
  const other = new Set(b);
  return [...new Set(a)].filter((n) => other.has(n)).sort();
}

/** A whole-number quantity (resource.NewQuantity(n, DecimalSI)). */
export function count(n: number): QuantityValue {
  return { units: BigInt(n), exponent: 0, format: 'DecimalSI' };
}
