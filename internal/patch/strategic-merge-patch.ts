// Strategic merge patch (application/strategic-merge-patch+json) as Kubernetes applies it on the
// server: JSON merge patch, except that lists whose schema says `patchStrategy: merge` merge by
// their merge key (or as a union of scalars), and `$`-directives steer deletes and ordering.
import { PatchError } from './errors.ts';
import { cloneJson, isObject } from './json-value.ts';
import type { JsonObject } from './json-value.ts';
import { nestingDepthMax } from './limits.ts';
import { fieldSchema, hasMergeStrategy, itemSchema } from './schema.ts';
import type { Schema } from './schema.ts';
import { deleteFromPrimitiveList, mergeKeyedList, mergePrimitiveList, orderList, validateElementOrder } from './strategic-merge-lists.ts';

const patchDirective = '$patch';
const retainKeysDirective = '$retainKeys';
const setElementOrderPrefix = '$setElementOrder/';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList/';

/** True for keys that are directives rather than fields. */
function isDirectiveKey(key: string): boolean {
  return key === patchDirective || key === retainKeysDirective || key.startsWith(setElementOrderPrefix) || key.startsWith(deleteFromPrimitiveListPrefix);
}

/**
 * Applies a strategic merge patch to `original` (not modified) and returns the patched copy.
 * `schema` supplies `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key`; without them
 * lists are replaced. Throws PatchError (InvalidPatch, InvalidDirective, MissingMergeKey, TooDeep).
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: Schema | undefined): unknown {
  if (!isObject(patch)) throw new PatchError('InvalidPatch', 'a strategic merge patch must be a JSON object');
  const base = original === undefined || original === null ? {} : original;
  if (!isObject(base)) throw new PatchError('InvalidPatch', 'a strategic merge patch applies only to a JSON object');
  return mergeMap(cloneJson(base), patch, schema, 0);
}

/** Merges one patch value into one original value (either may be absent); the result is fresh. */
export function mergeValue(original: unknown, patch: unknown, schema: Schema | undefined, depth: number): unknown {
  if (depth > nestingDepthMax) throw new PatchError('TooDeep', 'patch nesting too deep');
  if (isObject(patch)) {
    const replace = (schema?.['x-kubernetes-patch-strategy'] ?? '').split(',').includes('replace');
    const base = isObject(original) && !replace ? cloneJson(original) : {};
    return mergeMap(base, patch, schema, depth + 1);
  }
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : [], patch, schema, depth + 1);
  return cloneJson(patch);
}

function mergeList(original: unknown[], patch: unknown[], schema: Schema | undefined, depth: number): unknown[] {
  if (!hasMergeStrategy(schema)) {
    // Replaced wholesale; items still go through the map merge so no directive is ever stored.
    return patch.map((item) => (isObject(item) || Array.isArray(item) ? mergeValue(undefined, item, itemSchema(schema), depth) : item));
  }
  const mergeKey = schema?.['x-kubernetes-patch-merge-key'];
  if (mergeKey) return mergeKeyedList(original, patch, mergeKey, (o, p) => mergeValue(o, p, itemSchema(schema), depth));
  return mergePrimitiveList(original, patch);
}

function handleMapDirective(patch: JsonObject): JsonObject | undefined {
  const directive = patch[patchDirective];
  if (directive === undefined) return undefined;
  if (directive === 'delete') return {};
  if (directive === 'replace') {
    const rest: JsonObject = {};
    for (const [k, v] of Object.entries(patch)) if (k !== patchDirective) rest[k] = cloneJson(v);
    return rest;
  }
  throw new PatchError('InvalidDirective', `invalid patch: unknown patch type ${JSON.stringify(directive)} in map (want "replace" or "delete")`);
}

function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  const retain = patch[retainKeysDirective];
  if (retain === undefined) return;
  if (!Array.isArray(retain) || !retain.every((k) => typeof k === 'string')) {
    throw new PatchError('InvalidDirective', 'invalid patch: the value of $retainKeys must be a list of strings');
  }
  for (const [k, v] of Object.entries(patch)) {
    if (!isDirectiveKey(k) && v !== null && !retain.includes(k)) {
      throw new PatchError('InvalidDirective', `invalid patch: key "${k}" is in the patch but not in $retainKeys`);
    }
  }
  for (const k of Object.keys(original)) if (!retain.includes(k)) delete original[k];
}

function directiveList(patch: JsonObject, key: string): unknown[] {
  const value = patch[key];
  if (!Array.isArray(value)) throw new PatchError('InvalidDirective', `invalid patch: the value of ${key} must be a list`);
  return value;
}

function mergeMap(original: JsonObject, patch: JsonObject, schema: Schema | undefined, depth: number): JsonObject {
  if (depth > nestingDepthMax) throw new PatchError('TooDeep', 'patch nesting too deep');
  const replaced = handleMapDirective(patch);
  if (replaced !== undefined) return replaced;
  applyRetainKeys(original, patch);
  const listsBefore = new Map<string, unknown>();
  for (const key of Object.keys(patch)) {
    if (key.startsWith(setElementOrderPrefix)) {
      const field = key.slice(setElementOrderPrefix.length);
      listsBefore.set(field, original[field]);
    }
    if (key.startsWith(deleteFromPrimitiveListPrefix)) {
      const field = key.slice(deleteFromPrimitiveListPrefix.length);
      original[field] = deleteFromPrimitiveList(original[field], directiveList(patch, key));
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (isDirectiveKey(key)) continue;
    if (value === null) delete original[key];
    else original[key] = mergeValue(original[key], value, fieldSchema(schema, key), depth);
  }
  for (const [field, before] of listsBefore) {
    const order = directiveList(patch, setElementOrderPrefix + field);
    const mergeKey = fieldSchema(schema, field)?.['x-kubernetes-patch-merge-key'];
    const patchList = patch[field];
    validateElementOrder(Array.isArray(patchList) ? patchList : [], order, mergeKey);
    const list = original[field];
    if (Array.isArray(list)) original[field] = orderList(list, Array.isArray(before) ? before : [], order, mergeKey);
  }
  return original;
}
