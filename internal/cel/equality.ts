// Equality that knows set- and map-lists: kube compares lists of `x-kubernetes-list-type` set or
// map without regard to order (a map-list by its key fields). Scalars go to the engine's own rule.
import { isCelList, isCelMap, type CelList, type CelMap, type CelValue } from '@bufbuild/cel';
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

function keyOf(item: CelValue, keys: readonly string[]): string {
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
  const unmatched = Array.from(b);
  for (const item of a) {
    const at = unmatched.findIndex((o) => celEquals(item, o, scalar));
    if (at < 0) return false;
    unmatched.splice(at, 1);
  }
  return true;
}
