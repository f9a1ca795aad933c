// Identity of list items for SSA: a list-map item by its key fields, a set item by its value.
import { elementToFieldsV1 } from './field-path.ts';
import type { PathElement } from './field-path.ts';
import { listMapItemKey } from './schema.ts';
import type { ListType, Schema } from './schema.ts';

/** The path element naming `item` in a granular list (list type `map` or `set`). */
export function listItemElement(item: unknown, listType: ListType, schema: Schema | undefined, where: string): PathElement {
  if (listType.kind === 'map') return { kind: 'key', fields: listMapItemKey(item, listType.keys, schema, where) };
  return { kind: 'value', value: item };
}

/** One item of a granular list together with its identity. */
export interface IdentifiedItem {
  element: PathElement;
  /** `elementToFieldsV1(element)`: equal for items that are the same entry. */
  id: string;
  value: unknown;
}

/** The items of a granular list with their identities, in list order (duplicates kept). */
export function identifyItems(list: readonly unknown[], listType: ListType, schema: Schema | undefined, where: string): IdentifiedItem[] {
  return list.map((value) => {
    const element = listItemElement(value, listType, schema, where);
    return { element, id: elementToFieldsV1(element), value };
  });
}

/** The first item with each identity, by identity. */
export function itemsById(items: readonly IdentifiedItem[]): Map<string, IdentifiedItem> {
  const out = new Map<string, IdentifiedItem>();
  for (const item of items) if (!out.has(item.id)) out.set(item.id, item);
  return out;
}
