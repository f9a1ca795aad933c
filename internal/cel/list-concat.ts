// Concatenation of set- and map-lists (kube): for a set, X + Y keeps X and appends the items of Y
// not in X, in order; for a map-list, X + Y keeps X's key positions, takes Y's value where keys
// meet, and appends Y's other items in order. The result is of the same list type.
import { celList, isCelList, type CelList, type CelValue } from '@bufbuild/cel';
import { ItemPool, keyOf, type ScalarEquals } from './equality.ts';
import { listKindOf, markList } from './list-kinds.ts';


/** X + Y with set or map-list semantics when X or Y is one; undefined for ordinary lists (plain concatenation applies). */
export function concatLists(x: CelValue, y: CelValue, scalar: ScalarEquals): CelList | undefined {
  if (!isCelList(x) || !isCelList(y)) return undefined;
  const kind = listKindOf(x) ?? listKindOf(y);
  if (kind === undefined) return undefined;
  const items = Array.from(x);
  if (kind.listType === 'set') {
    // Membership through a hash of scalar items (linear); items without a scalar key are compared one by one.
    const present = new ItemPool(items, scalar);
    for (const item of y) {
      if (present.take(item, false)) continue;
      items.push(item);
      present.add(item);
    }
    return markList(celList(items), kind);
  }
  const position = new Map<string, number>();
  items.forEach((item, i) => position.set(keyOf(item, kind.keys), i));
  for (const item of y) {
    const key = keyOf(item, kind.keys);
    const at = position.get(key);
    if (at === undefined) {
      position.set(key, items.length);
      items.push(item);
    } else {
      items[at] = item;
    }
  }
  return markList(celList(items), kind);
}
