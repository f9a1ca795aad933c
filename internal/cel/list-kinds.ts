// Lists whose schema says `x-kubernetes-list-type: set` or `map` compare equal regardless of
// order (kube's lists of those types). The engine's lists carry no such mark, so the layer keeps
// one on the side, keyed by the list value.
import type { CelList } from '@bufbuild/cel';

/** How a list's items are told apart: a set by value, a map by the named key fields. */
export type ListKind = { readonly listType: 'set' } | { readonly listType: 'map'; readonly keys: readonly string[] };

const kinds = new WeakMap<CelList, ListKind>();

/** Marks a list as a set or a map-list; returns it. */
export function markList(list: CelList, kind: ListKind): CelList {
  kinds.set(list, kind);
  return list;
}

/** The set or map-list kind of a list, or undefined for an ordered (atomic) list. */
export function listKindOf(list: CelList): ListKind | undefined {
  return kinds.get(list);
}
