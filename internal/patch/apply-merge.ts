// The object half of server-side apply: merging an applied configuration into the live object
// by the schema's list and map types (not strategic merge), and removing given-up fields.
import { PatchError } from './errors.ts';
import { pathToString } from './field-path.ts';
import type { FieldPath, PathElement } from './field-path.ts';
import { FieldSet } from './field-set.ts';
import { cloneJson, isObject, jsonEqual } from './json-value.ts';
import type { JsonObject } from './json-value.ts';
import { identifyItems, itemsById } from './list-items.ts';
import { nestingDepthMax } from './limits.ts';
import { fieldSchema, isAtomicMap, itemSchema, listMapItemKey, listTypeOf } from './schema.ts';
import type { Schema } from './schema.ts';

/**
 * The live object with the applied configuration merged in: scalars and atomic lists or maps
 * from the configuration replace the live value; granular maps merge per key; list-map and set
 * items merge per item (shared items in configuration order, live-only items where they were).
 * A `null` in the configuration removes the field. Neither input is modified.
 */
export function mergeForApply(live: unknown, config: unknown, schema: Schema | undefined): unknown {
  return merge(live, config, schema, [], 0);
}

function merge(live: unknown, config: unknown, schema: Schema | undefined, path: FieldPath, depth: number): unknown {
  if (depth > nestingDepthMax) throw new PatchError('TooDeep', 'applied configuration nesting too deep');
  if (config === undefined) return cloneJson(live);
  if (isObject(config) && isObject(live) && !isAtomicMap(schema)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(live)) if (!Object.hasOwn(config, k)) out[k] = cloneJson(v);
    for (const [k, v] of Object.entries(config)) {
      const merged = merge(live[k], v, fieldSchema(schema, k), [...path, { kind: 'field', name: k }], depth + 1);
      if (merged !== null) out[k] = merged;
    }
    return withKeyOrder(out, live);
  }
  if (Array.isArray(config) && Array.isArray(live) && listTypeOf(schema).kind !== 'atomic') {
    return mergeList(live, config, schema, path, depth);
  }
  return dropNulls(cloneJson(config));
}

/** `out` with the keys `live` had first, in live order (stored objects keep a stable key order). */
function withKeyOrder(out: JsonObject, live: JsonObject): JsonObject {
  const ordered: JsonObject = {};
  for (const k of Object.keys(live)) if (Object.hasOwn(out, k)) ordered[k] = out[k];
  for (const [k, v] of Object.entries(out)) if (!Object.hasOwn(ordered, k)) ordered[k] = v;
  return ordered;
}

function dropNulls(value: unknown): unknown {
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v === null) delete value[k];
      else dropNulls(v);
    }
  } else if (Array.isArray(value)) value.forEach(dropNulls);
  return value;
}

function mergeList(live: unknown[], config: unknown[], schema: Schema | undefined, path: FieldPath, depth: number): unknown[] {
  const listType = listTypeOf(schema);
  const where = pathToString(path);
  const left = identifyItems(live, listType, schema, where);
  const right = identifyItems(config, listType, schema, where);
  const leftById = itemsById(left);
  const rightById = itemsById(right);
  if (rightById.size !== right.length) throw new PatchError('InvalidObject', `${where}: duplicate entries in the applied list`);
  const out: unknown[] = [];
  const emitted = new Set<string>();
  const emit = (id: string): void => {
    const l = leftById.get(id);
    const r = rightById.get(id);
    const element = (r ?? l)!.element;
    out.push(r === undefined ? cloneJson(l!.value) : merge(l?.value, r.value, itemSchema(schema), [...path, element], depth + 1));
    emitted.add(id);
  };
  // Items in both lists follow the configuration's order; live-only items stay where they were.
  const shared = right.filter((r) => leftById.has(r.id)).map((r) => r.id);
  let nextShared = 0;
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const l = left[i];
    const r = right[j];
    if (l !== undefined && r !== undefined) {
      if (l.id === r.id) {
        if (!emitted.has(l.id)) emit(l.id);
        if (shared[nextShared] === l.id) nextShared++;
        i++;
        j++;
        continue;
      }
      if (rightById.has(l.id) && shared[nextShared] !== undefined && shared[nextShared] !== l.id) {
        i++;
        continue;
      }
    }
    if (l !== undefined && (!rightById.has(l.id) || emitted.has(l.id))) {
      if (!emitted.has(l.id)) emit(l.id);
      i++;
    } else if (r !== undefined) {
      if (!emitted.has(r.id)) emit(r.id);
      if (shared[nextShared] === r.id) nextShared++;
      j++;
    } else i++;
  }
  return out;
}

function matchesElement(item: unknown, e: PathElement, listSchema: Schema | undefined): boolean {
  if (e.kind === 'value') return jsonEqual(item, e.value);
  if (e.kind !== 'key' || !isObject(item)) return false;
  const keys = Object.keys(e.fields);
  try {
    return jsonEqual(listMapItemKey(item, keys, listSchema, ''), e.fields);
  } catch {
    return false;
  }
}

function removePath(obj: unknown, path: FieldPath, schema: Schema | undefined): void {
  let node = obj;
  let s = schema;
  for (let n = 0; n < path.length; n++) {
    const e = path[n]!;
    const last = n === path.length - 1;
    if (e.kind === 'field') {
      if (!isObject(node)) return;
      if (last) delete node[e.name];
      node = node[e.name];
      s = fieldSchema(s, e.name);
      continue;
    }
    if (!Array.isArray(node)) return;
    const list: unknown[] = node;
    const at = e.kind === 'index' ? e.index : list.findIndex((item) => matchesElement(item, e, s));
    if (at < 0 || at >= list.length) return;
    if (last) list.splice(at, 1);
    node = list[at];
    s = itemSchema(s);
  }
}

/**
 * Removes from `obj` (in place) each path of `toRemove` that no path of `keep` owns, either
 * exactly or below it (SSA rule 4: a given-up field stays while another manager owns it). The
 * key fields of a list-map item that stays are never removed.
 */
export function pruneFields(obj: unknown, toRemove: FieldSet, keep: FieldSet, schema: Schema | undefined): void {
  const removable = toRemove.paths().filter((path) => !keep.hasSelfOrDescendant(path) && !isKeptKeyField(path, toRemove, keep));
  const removed = new FieldSet(removable);
  for (const path of removable) {
    // A path below another removed one goes with it; removing it first could orphan a list item's key.
    if (path.some((_, n) => n < path.length - 1 && removed.has(path.slice(0, n + 1)))) continue;
    removePath(obj, path, schema);
  }
}

function isKeptKeyField(path: FieldPath, toRemove: FieldSet, keep: FieldSet): boolean {
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  if (last?.kind !== 'field' || parent?.kind !== 'key' || !Object.hasOwn(parent.fields, last.name)) return false;
  const itemPath = path.slice(0, -1);
  return !(toRemove.has(itemPath) && !keep.hasSelfOrDescendant(itemPath));
}
