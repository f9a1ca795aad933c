// Equality that knows set- and map-lists: kube compares lists of `x-kubernetes-list-type` set or
// map without regard to order (a map-list by its key fields). Scalars go to the engine's own rule.
import { isCelList, isCelMap, isCelUint, type CelList, type CelMap, type CelValue } from '@bufbuild/cel';
import { listKindOf, type ListKind } from './list-kinds.ts';

/** Scalar equality of the engine (heterogeneous numbers, bytes, timestamps, types). */
export type ScalarEquals = (a: CelValue, b: CelValue) => boolean;

/** Deep equality of two values; a list marked set or map-list on either side is compared without order. */
export function celEquals(a: CelValue, b: CelValue, scalar: ScalarEquals): boolean {
  if (isCelList(a) || isCelList(b)) {
    if (!isCelList(a) || !isCelList(b)) return false;
    if (a.size !== b.size) return false;
    const kind = listKindOf(a) ?? listKindOf(b);
    if (kind !== undefined) return unorderedEquals(a, b, kind, scalar);
    for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i) ?? null, b.get(i) ?? null, scalar)) return false;
    return true;
  }
  if (isCelMap(a) || isCelMap(b)) {
    if (!isCelMap(a) || !isCelMap(b)) return false;
    return mapEquals(a, b, scalar);
  }
  return scalar(a, b);
}

function mapEquals(a: CelMap, b: CelMap, scalar: ScalarEquals): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    if (!b.has(k)) return false;
    if (!celEquals(v, b.get(k) ?? null, scalar)) return false;
  }
  return true;
}

/** The identity of a map-list item: its key fields' values. */
export function keyOf(item: CelValue, keys: readonly string[]): string {
  if (!isCelMap(item)) return '';
  return JSON.stringify(keys.map((k) => String(item.get(k) ?? '')));
}

function unorderedEquals(a: CelList, b: CelList, kind: ListKind, scalar: ScalarEquals): boolean {
  if (kind.listType === 'map') {
    const byKey = new Map<string, CelValue>();
    for (const item of b) byKey.set(keyOf(item, kind.keys), item);
    for (const item of a) {
      const other = byKey.get(keyOf(item, kind.keys));
      if (other === undefined || !celEquals(item, other, scalar)) return false;
    }
    return true;
  }
  // Items are matched through a hash of their values (kube hashes set items too), so large sets
  // compare in linear time; only items without a key (lists, timestamps...) pair up one by one.
  const pool = new ItemPool(b, scalar);
  for (const item of a) if (!pool.take(item)) return false;
  return true;
}

/**
 * A canonical key for a scalar: equal scalars (by the engine's heterogeneous numeric equality)
 * have equal keys. Undefined for values that have none; NaN has none either (it equals nothing).
 */
export function scalarKey(value: CelValue): string | undefined {
  switch (typeof value) {
    case 'string':
      return `s${value}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `n${value}`;
    case 'number':
      if (Number.isNaN(value)) return undefined;
      return Number.isInteger(value) ? `n${BigInt(value)}` : `d${value}`;
    default:
      if (value === null) return 'null';
      if (isCelUint(value)) return `n${value.value}`;
      if (value instanceof Uint8Array) return `y${Array.from(value).join(',')}`;
      return undefined;
  }
}

/**
 * A canonical key for a scalar or a map of them (to any depth up to 32, a map's entries in key
 * order): equal values have equal keys. Undefined for anything holding a list, NaN, a timestamp
 * and the like; no value with a key equals one without, so keyed and unkeyed items never meet.
 */
export function hashKey(value: CelValue, depth = 0): string | undefined {
  const scalarText = scalarKey(value);
  if (scalarText !== undefined || !isCelMap(value) || depth > 32) return scalarText;
  const entries: string[] = [];
  for (const [k, v] of value) {
    const keyText = scalarKey(k as CelValue);
    const valueText = hashKey(v, depth + 1);
    if (keyText === undefined || valueText === undefined) return undefined;
    entries.push(`${JSON.stringify(keyText)}:${JSON.stringify(valueText)}`);
  }
  return `m{${entries.sort().join(',')}}`;
}

/** Whether a value can never equal anything (NaN). */
function neverEqual(value: CelValue): boolean {
  return typeof value === 'number' && Number.isNaN(value);
}

/** Items to match against, each taken at most once: keyed items (see hashKey) found by key, others by search. */
export class ItemPool {
  private readonly byKey = new Map<string, CelValue[]>();
  private readonly others: CelValue[] = [];

  constructor(items: Iterable<CelValue>, private readonly scalar: ScalarEquals) {
    for (const item of items) this.add(item);
  }

  add(item: CelValue): void {
    const key = hashKey(item);
    if (key === undefined) {
      if (!neverEqual(item)) this.others.push(item);
      return;
    }
    const bucket = this.byKey.get(key);
    if (bucket === undefined) this.byKey.set(key, [item]);
    else bucket.push(item);
  }

  /** Whether an item equal to `item` is in the pool; with `remove`, that item is taken out. */
  take(item: CelValue, remove = true): boolean {
    if (neverEqual(item)) return false;
    const key = hashKey(item);
    const candidates = key === undefined ? this.others : this.byKey.get(key);
    if (candidates === undefined) return false;
    const at = candidates.findIndex((o) => celEquals(item, o, this.scalar));
    if (at < 0) return false;
    if (remove) {
      candidates[at] = candidates[candidates.length - 1] as CelValue;
      candidates.pop();
    }
    return true;
  }
}
