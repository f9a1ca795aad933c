// ValidateListSetsAndMaps of apiextensions-apiserver 1.28 (schema/listtype): items of an
// `x-kubernetes-list-type: set` list are unique, and so are the keys of a `map` list's items.
import { duplicate, invalidShown, type FieldError } from '../../schema/field-errors.ts';
import { goShown, goSyntax } from './go-values.ts';
import { canonicalJson } from '../../../patch/json-value.ts';
import { additionalProperties, isObject, itemsSchema, properties, str, strings, type JsonSchema } from './schema-props.ts';

/** A value's identity as Go compares it: scalars by type and value, compounds by their JSON. */
function identity(value: unknown): string {
  if (typeof value === 'number') return `${Number.isInteger(value) ? 'i' : 'f'}:${value}`;
  if (isObject(value) || Array.isArray(value)) return `j:${canonicalJson(value)}`;
  return `${typeof value}:${String(value)}`;
}


/** The index of each value's second appearance (kube reports one error per duplicated value). */
function secondAppearances(values: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const id = identity(v);
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

const unspecified = Symbol('unspecified key');

function validateListMap(path: string, s: JsonSchema, list: readonly unknown[]): FieldError[] {
  for (const [i, x] of list.entries()) {
    if (x !== null && !isObject(x)) return [invalidShown(`${path}[${i}]`, goShown(x), 'must be an object for an array of list-type map')];
  }
  if (list.length <= 1) return [];
  const keyFields = strings(s, 'x-kubernetes-list-map-keys');
  if (keyFields.length === 1) {
    const keyField = keyFields[0] ?? '';
    const keys = list.map((x) => (isObject(x) && keyField in x ? x[keyField] : unspecified));
    return secondAppearances(keys.map((k) => (k === unspecified ? { unspecified: true } : [k]))).map((i) => {
      const key = keys[i];
      return { ...duplicate(`${path}[${i}]`, ''), message: `Duplicate value: ${goSyntax(key === unspecified ? {} : { [keyField]: key })}` };
    });
  }
  const keys = list.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const f of keyFields) if (f in x) key[f] = x[f];
    return key;
  });
  return secondAppearances(keys).map((i) => ({ ...duplicate(`${path}[${i}]`, ''), message: `Duplicate value: ${goSyntax(keys[i])}` }));
}

function validateArray(path: string, s: JsonSchema, list: readonly unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  const listType = str(s, 'x-kubernetes-list-type');
  if (listType === 'set') {
    for (const i of secondAppearances(list)) errors.push({ ...duplicate(`${path}[${i}]`, ''), message: `Duplicate value: ${goShown(list[i])}` });
  } else if (listType === 'map') errors.push(...validateListMap(path, s, list));
  const items = itemsSchema(s);
  if (items !== undefined) list.forEach((x, i) => errors.push(...validateAny(`${path}[${i}]`, items, x)));
  return errors;
}

function validateAny(path: string, s: JsonSchema, value: unknown): FieldError[] {
  if (Array.isArray(value)) return validateArray(path, s, value);
  if (isObject(value)) return validateListSetsAndMaps(value, s, path);
  return [];
}

/**
 * Checks that `x-kubernetes-list-type: set` items and `map` item keys are unique throughout `obj`
 * (a custom object, `path` '' at its root), reporting `Duplicate value` at each repeat.
 */
export function validateListSetsAndMaps(obj: Record<string, unknown>, s: JsonSchema, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  const join = (k: string): string => (path === '' ? k : `${path}.${k}`);
  const additional = additionalProperties(s)?.schema;
  if (additional !== undefined) for (const [k, v] of Object.entries(obj)) errors.push(...validateAny(`${path}[${k}]`, additional, v));
  const props = properties(s);
  for (const [k, v] of Object.entries(obj)) {
    const sub = props[k];
    if (sub !== undefined) errors.push(...validateAny(join(k), sub, v));
  }
  return errors;
}
