// The list half of strategic merge patch: merge by key, union of scalars, deletes and ordering.
import { PatchError } from './errors.ts';
import { canonicalJson, cloneJson, isObject, jsonEqual } from './json-value.ts';

/**
 * Merges a patch list into a list of objects identified by `mergeKey`. Items with
 * `$patch: delete` remove the matching entry; an item `{"$patch": "replace"}` makes the list
 * the other patch items; matching items merge with `mergeItem`; new items are added. Patched
 * items take the patch's order, the others keep theirs (see `orderList`).
 */
export function mergeKeyedList(
  original: readonly unknown[],
  patch: readonly unknown[],
  mergeKey: string,
  mergeItem: (original: unknown, patch: unknown) => unknown,
): unknown[] {
  let result = original.map((item) => cloneJson(item));
  const plain: Record<string, unknown>[] = [];
  let replace = false;
  for (const item of patch) {
    if (!isObject(item)) throw new PatchError('InvalidPatch', `invalid patch: items of a list merged by "${mergeKey}" must be objects`);
    const directive = item['$patch'];
    if (directive === undefined) plain.push(item);
    else if (directive === 'delete') {
      if (!(mergeKey in item)) throw missingKey(item, mergeKey);
      result = result.filter((o) => !(isObject(o) && jsonEqual(o[mergeKey], item[mergeKey])));
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') throw new PatchError('InvalidDirective', 'invalid patch: merging lists cannot yet be specified in the patch');
    else throw new PatchError('InvalidDirective', `invalid patch: unknown patch type ${JSON.stringify(directive)} in list`);
  }
  if (replace) return plain.map((item) => mergeItem(undefined, item));
  const before = result.slice();
  for (const item of plain) {
    if (!(mergeKey in item)) throw missingKey(item, mergeKey);
    const at = result.findIndex((o) => isObject(o) && jsonEqual(o[mergeKey], item[mergeKey]));
    if (at >= 0) result[at] = mergeItem(result[at], item);
    else result.push(mergeItem(undefined, item));
  }
  return orderList(result, before, plain, mergeKey);
}

function missingKey(item: Record<string, unknown>, mergeKey: string): PatchError {
  return new PatchError('MissingMergeKey', `map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
}

/** Union of two scalar lists, duplicates dropped; patched values take the patch's order (see `orderList`). */
export function mergePrimitiveList(original: readonly unknown[], patch: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of [...original, ...patch]) {
    if (isObject(item) || Array.isArray(item)) {
      throw new PatchError('InvalidPatch', 'invalid patch: a list merged without a merge key must hold scalars');
    }
    const id = canonicalJson(item);
    if (!seen.has(id)) {
      seen.add(id);
      out.push(item);
    }
  }
  return orderList(out, original, patch, undefined);
}

/** `$deleteFromPrimitiveList/<field>`: the list without the given values (non-lists unchanged). */
export function deleteFromPrimitiveList(list: unknown, values: readonly unknown[]): unknown {
  if (!Array.isArray(list)) return list;
  return list.filter((item) => !values.some((v) => jsonEqual(v, item)));
}

/**
 * Orders a merged list as Kubernetes does: items named by `order` (the `$setElementOrder` list,
 * or else the patch list itself) come first in that order; every other item keeps its relative
 * order and is interleaved by its position in `before` (the list before the patch).
 */
export function orderList(list: readonly unknown[], before: readonly unknown[], order: readonly unknown[], mergeKey: string | undefined): unknown[] {
  const idOf = (item: unknown): string => canonicalJson(mergeKey !== undefined && isObject(item) ? item[mergeKey] : item);
  const orderIndex = new Map<string, number>();
  order.forEach((entry, i) => {
    const id = idOf(entry);
    if (!orderIndex.has(id)) orderIndex.set(id, i);
  });
  const named = list.filter((item) => orderIndex.has(idOf(item))).sort((a, b) => orderIndex.get(idOf(a))! - orderIndex.get(idOf(b))!);
  const others = list.filter((item) => !orderIndex.has(idOf(item)));
  const beforeIndex = new Map<string, number>();
  before.forEach((item, i) => {
    if (!beforeIndex.has(idOf(item))) beforeIndex.set(idOf(item), i);
  });
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < others.length || j < named.length) {
    const l = others[i];
    const r = named[j];
    const li = l === undefined ? undefined : beforeIndex.get(idOf(l));
    const ri = r === undefined ? undefined : beforeIndex.get(idOf(r));
    const takeOther = r === undefined || (l !== undefined && li !== undefined && ri !== undefined && li < ri);
    if (takeOther) out.push(others[i++]);
    else out.push(named[j++]);
  }
  return out;
}

/**
 * Checks a patch list against its `$setElementOrder` list: every patch item (deletes and
 * directives aside) must be named there, in the same relative order.
 */
export function validateElementOrder(patchList: readonly unknown[], order: readonly unknown[], mergeKey: string | undefined): void {
  const idOf = (item: unknown): string => canonicalJson(mergeKey !== undefined && isObject(item) ? item[mergeKey] : item);
  for (const entry of order) {
    if (mergeKey !== undefined && !(isObject(entry) && mergeKey in entry)) {
      throw new PatchError('InvalidDirective', `invalid patch: each $setElementOrder entry must carry the merge key "${mergeKey}"`);
    }
  }
  let at = 0;
  for (const item of patchList) {
    if (isObject(item) && '$patch' in item) continue;
    while (at < order.length && idOf(order[at]) !== idOf(item)) at++;
    if (at >= order.length) {
      throw new PatchError('InvalidDirective', `invalid patch: the order of the patch list does not match its $setElementOrder list`);
    }
    at++;
  }
}
