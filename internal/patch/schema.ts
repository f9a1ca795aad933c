// The structural schema the patch algorithms walk: the subset of Kubernetes' OpenAPI v3 that
// carries merge markers, so the registry can hand over its declared schemas unchanged.
import { PatchError } from './errors.ts';
import { isObject } from './json-value.ts';

/**
 * A structural schema node (OpenAPI v3 subset with Kubernetes extensions). `undefined` where a
 * schema is expected means unstructured: every map key is a granular field, every list atomic.
 */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  /** Default value; used for a list-map key field an item omits (e.g. a port's `protocol`). */
  default?: unknown;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  /** Strategic-merge strategy, e.g. `merge`, `replace`, `retainKeys` or `merge,retainKeys`. */
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

/** How SSA treats a list: owned whole, by scalar element, or by the key fields of its items. */
export type ListType = { kind: 'atomic' } | { kind: 'set' } | { kind: 'map'; keys: readonly string[] };

/** The schema of map key `key` under `schema`; undefined (unstructured) when none is declared. */
export function fieldSchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (schema === undefined) return undefined;
  const declared = schema.properties?.[key];
  if (declared !== undefined) return declared;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

/** The schema of the items of a list schema; undefined when none is declared. */
export function itemSchema(schema: Schema | undefined): Schema | undefined {
  return schema?.items;
}

function patchStrategies(schema: Schema | undefined): string[] {
  return (schema?.['x-kubernetes-patch-strategy'] ?? '').split(',').map((s) => s.trim());
}

/** True when the strategic-merge strategy of this field includes `merge`. */
export function hasMergeStrategy(schema: Schema | undefined): boolean {
  return patchStrategies(schema).includes('merge');
}

function isScalarItems(schema: Schema | undefined): boolean {
  const t = schema?.items?.type;
  return t === 'string' || t === 'integer' || t === 'number' || t === 'boolean' || schema?.items?.['x-kubernetes-int-or-string'] === true;
}

/**
 * The SSA list type of a list field. Without `x-kubernetes-list-type`, a `merge` patch strategy
 * reads as `map` keyed by the patch merge key (or `set` for scalar items); otherwise atomic.
 */
export function listTypeOf(schema: Schema | undefined): ListType {
  const declared = schema?.['x-kubernetes-list-type'];
  if (declared === 'map') {
    const keys = schema?.['x-kubernetes-list-map-keys'] ?? [];
    return keys.length > 0 ? { kind: 'map', keys } : { kind: 'atomic' };
  }
  if (declared === 'set') return { kind: 'set' };
  if (declared === 'atomic') return { kind: 'atomic' };
  if (hasMergeStrategy(schema)) {
    const mergeKey = schema?.['x-kubernetes-patch-merge-key'];
    if (mergeKey) return { kind: 'map', keys: [mergeKey] };
    if (isScalarItems(schema)) return { kind: 'set' };
  }
  return { kind: 'atomic' };
}

/** True when a map or struct is owned as a whole (`x-kubernetes-map-type: atomic`). */
export function isAtomicMap(schema: Schema | undefined): boolean {
  return schema?.['x-kubernetes-map-type'] === 'atomic';
}

/**
 * The key of a list-map item: its key fields in key order, a missing one taken from the key
 * field's schema default and otherwise left out. Throws InvalidObject when the item is not an
 * object, has none of its key fields, or a key field is not a scalar.
 */
export function listMapItemKey(item: unknown, keys: readonly string[], schema: Schema | undefined, where: string): Record<string, unknown> {
  if (!isObject(item)) throw new PatchError('InvalidObject', `${where}: list item must be an object with key fields ${keys.join(', ')}`);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const value = item[k] ?? fieldSchema(itemSchema(schema), k)?.default;
    if (value === undefined || value === null) continue;
    if (typeof value === 'object') throw new PatchError('InvalidObject', `${where}: key field "${k}" must be a scalar`);
    out[k] = value;
  }
  if (Object.keys(out).length === 0) {
    throw new PatchError('InvalidObject', `${where}: associative list with keys has an element that omits key field "${keys[0]}"`);
  }
  return out;
}
