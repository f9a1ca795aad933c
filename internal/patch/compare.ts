// Comparison of two versions of an object by schema: which fields were added, modified or
// removed. Update ownership (SSA rule 3) and apply conflicts (rule 2) are both computed from it.
import { PatchError } from './errors.ts';
import { extendPath, fieldElement, pathToString } from './field-path.ts';
import type { FieldPath } from './field-path.ts';
import { FieldSet } from './field-set.ts';
import { isEmptyOrAbsent, isObject, jsonEqual } from './json-value.ts';
import { identifyItems, itemsById } from './list-items.ts';
import { nestingDepthMax } from './limits.ts';
import { fieldSchema, isAtomicMap, itemSchema, listTypeOf } from './schema.ts';
import type { Schema } from './schema.ts';

/** Fields that differ between two versions of an object. */
export interface Comparison {
  /** Present only in the new version; includes a granular map, list or item that appeared. */
  added: FieldSet;
  /** Present in both with different values (scalars and atomic lists or maps). */
  modified: FieldSet;
  /** Present only in the old version; includes a granular map, list or item that disappeared. */
  removed: FieldSet;
}

type Shape = 'absent' | 'map' | 'list' | 'scalar';

function shapeOf(value: unknown): Shape {
  if (value === undefined || value === null) return 'absent';
  if (Array.isArray(value)) return 'list';
  return isObject(value) ? 'map' : 'scalar';
}

/**
 * Compares `lhs` (old) with `rhs` (new) by `schema`. Scalars, atomic lists and maps, and
 * containers that are empty or absent on both sides compare as leaves; granular containers
 * recurse, and a granular container present on one side only is itself added or removed.
 */
export function compareObjects(lhs: unknown, rhs: unknown, schema: Schema | undefined): Comparison {
  const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(out, lhs, rhs, schema, []);
  return out;
}

function leaf(out: Comparison, lhs: unknown, rhs: unknown, path: FieldPath): void {
  if (lhs === undefined && rhs === undefined) return;
  if (lhs === undefined) out.added.insert(path);
  else if (rhs === undefined) out.removed.insert(path);
  else if (!jsonEqual(lhs, rhs)) out.modified.insert(path);
}

function walk(out: Comparison, lhs: unknown, rhs: unknown, schema: Schema | undefined, path: FieldPath): void {
  if (path.length > nestingDepthMax) throw new PatchError('TooDeep', 'object nesting too deep');
  const l = shapeOf(lhs);
  const r = shapeOf(rhs);
  const container = l === 'map' || l === 'list' ? l : r === 'map' || r === 'list' ? r : 'scalar';
  const mixed = (l !== 'absent' && l !== container) || (r !== 'absent' && r !== container);
  const atomic = container === 'map' ? isAtomicMap(schema) : container === 'list' && listTypeOf(schema).kind === 'atomic';
  if (container === 'scalar' || mixed || atomic || (isEmptyOrAbsent(lhs) && isEmptyOrAbsent(rhs))) {
    return leaf(out, lhs, rhs, path);
  }
  // Only a side that is missing (not one that is null) makes the container itself added or removed.
  if (lhs === undefined) out.added.insert(path);
  if (rhs === undefined) out.removed.insert(path);
  if (container === 'map') return walkMap(out, lhs, rhs, schema, path);
  walkList(out, lhs, rhs, schema, path);
}

function ownValue(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function walkMap(out: Comparison, lhs: unknown, rhs: unknown, schema: Schema | undefined, path: FieldPath): void {
  const left = isObject(lhs) ? lhs : {};
  const right = isObject(rhs) ? rhs : {};
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  // Own values only: a field named `constructor` or `toString` is absent from `{}`, not inherited.
  for (const k of keys) walk(out, ownValue(left, k), ownValue(right, k), fieldSchema(schema, k), extendPath(path, fieldElement(k)));
}

function walkList(out: Comparison, lhs: unknown, rhs: unknown, schema: Schema | undefined, path: FieldPath): void {
  const listType = listTypeOf(schema);
  const where = pathToString(path);
  const left = itemsById(identifyItems(Array.isArray(lhs) ? lhs : [], listType, schema, where));
  const right = itemsById(identifyItems(Array.isArray(rhs) ? rhs : [], listType, schema, where));
  const ids = new Set([...left.keys(), ...right.keys()]);
  for (const id of ids) {
    const l = left.get(id);
    const r = right.get(id);
    const itemPath = extendPath(path, (l ?? r)!.element);
    if (listType.kind === 'set') {
      leaf(out, l?.value, r?.value, itemPath);
      continue;
    }
    if (l === undefined) out.added.insert(itemPath);
    if (r === undefined) out.removed.insert(itemPath);
    walk(out, l?.value, r?.value, itemSchema(schema), itemPath);
  }
}
