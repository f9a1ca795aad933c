// Reading a CRD's JSONSchemaProps as plain JSON: the typed views the schema checks, the
// validator, pruning and defaulting share. A schema here is exactly what the CRD carries
// (`openAPIV3Schema` and everything under it), never rewritten.

/** One node of a CRD's OpenAPI v3 schema (JSONSchemaProps), as JSON. */
export type JsonSchema = Record<string, unknown>;

// JSON helpers the schema code shares with the patch layer: one definition of each.
import { cloneJson, isObject, jsonEqual } from '../../../patch/json-value.ts';

export { isObject, jsonEqual };

/** The schema's `properties` (empty when absent). */
export function properties(s: JsonSchema): Record<string, JsonSchema> {
  const p = s.properties;
  if (!isObject(p)) return {};
  const out: Record<string, JsonSchema> = {};
  for (const [k, v] of Object.entries(p)) if (isObject(v)) out[k] = v;
  return out;
}

/** The schema's `items` when it is one schema (not an array of them). */
export function itemsSchema(s: JsonSchema): JsonSchema | undefined {
  return isObject(s.items) ? s.items : undefined;
}

/**
 * The schema's `additionalProperties`: undefined when absent, else whether it allows other keys
 * and the schema they follow (`true` allows any value, `false` none).
 */
export function additionalProperties(s: JsonSchema): { allows: boolean; schema: JsonSchema | undefined } | undefined {
  const a = s.additionalProperties;
  if (a === undefined || a === null) return undefined;
  if (typeof a === 'boolean') return { allows: a, schema: undefined };
  if (isObject(a)) return { allows: true, schema: a };
  return undefined;
}

/** The schemas of a list-valued keyword (`allOf`, `anyOf`, `oneOf`). */
export function schemaList(s: JsonSchema, key: 'allOf' | 'anyOf' | 'oneOf'): JsonSchema[] {
  const v = s[key];
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** A string keyword, '' when absent. */
export function str(s: JsonSchema, key: string): string {
  const v = s[key];
  return typeof v === 'string' ? v : '';
}

/** A numeric keyword, undefined when absent. */
export function num(s: JsonSchema, key: string): number | undefined {
  const v = s[key];
  return typeof v === 'number' ? v : undefined;
}

/** A string-list keyword (`required`, `x-kubernetes-list-map-keys`), [] when absent. */
export function strings(s: JsonSchema, key: string): string[] {
  const v = s[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Whether the schema has a `default` (a JSON null default counts as none, as in kube). */
export function hasDefault(s: JsonSchema | undefined): boolean {
  return s !== undefined && s.default !== undefined && s.default !== null;
}

/** Whether the schema preserves unknown fields (`x-kubernetes-preserve-unknown-fields: true`). */
export function preservesUnknown(s: JsonSchema | undefined): boolean {
  return s !== undefined && s['x-kubernetes-preserve-unknown-fields'] === true;
}

/** Whether the schema is an embedded resource (`x-kubernetes-embedded-resource: true`). */
export function isEmbedded(s: JsonSchema | undefined): boolean {
  return s !== undefined && s['x-kubernetes-embedded-resource'] === true;
}

/** Whether the schema is nullable. */
export function isNullable(s: JsonSchema | undefined): boolean {
  return s !== undefined && s.nullable === true;
}

/** The schema an object's key follows: its property, else the additionalProperties schema. */
export function fieldSchema(s: JsonSchema | undefined, key: string): JsonSchema | undefined {
  if (s === undefined) return undefined;
  const p = properties(s)[key];
  if (p !== undefined) return p;
  return additionalProperties(s)?.schema;
}

/** A deep copy of a JSON value. */
export const deepCopy: <T>(value: T) => T = cloneJson;
