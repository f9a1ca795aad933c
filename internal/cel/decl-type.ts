// Expression-language types of schema nodes, with the size bounds the cost estimator needs
// (kube `SchemaDeclType`): a list's most items, a map's most entries, a string's most bytes, and
// the fewest bytes a value of the type takes in JSON (for worst-case counts of unbounded lists).
import { escapePropertyName } from './escaping.ts';
import { maxRequestSizeBytes } from './limits.ts';
import { additionalPropertiesSchema, withTypeAndObjectMeta, type StructuralSchema } from './schema.ts';

/** A property of an object type: its name in the data and its type. */
export interface DeclField {
  readonly name: string;
  readonly type: DeclType;
}

/** The expression type of a schema node; `maxElements` bounds items, entries or bytes. */
export type DeclType =
  | { readonly kind: 'object'; readonly fields: ReadonlyMap<string, DeclField>; readonly preserveUnknown: boolean; readonly minSize: number; readonly maxElements: number }
  | { readonly kind: 'map'; readonly value: DeclType; readonly minSize: number; readonly maxElements: number }
  | { readonly kind: 'list'; readonly elem: DeclType; readonly listType: 'atomic' | 'set' | 'map'; readonly mapKeys: readonly string[]; readonly minSize: number; readonly maxElements: number }
  | { readonly kind: 'string' | 'bytes' | 'timestamp' | 'duration' | 'int' | 'double' | 'bool' | 'int-or-string' | 'dyn'; readonly minSize: number; readonly maxElements: number };

/** Sizes of JSON forms (kube apiserver/pkg/cel/types.go). */
const jsonSize = { minString: 2, minBool: 4, minNumber: 1, minDuration: 4, maxDuration: 32, date: 12, minDateTime: 22, maxDateTime: 37 } as const;

/** The largest string any request can hold (its two quotes subtracted). */
export const maxStringBytesPerRequest = maxRequestSizeBytes - 2;

/** The most list items of the given least JSON size one request can hold. */
export function maxItemsFromMinSize(minSize: number): number {
  return Math.floor((maxRequestSizeBytes - 2) / (minSize + 1));
}

/** The most map entries with values of the given least JSON size one request can hold. */
export function maxPropertiesFromMinSize(minSize: number): number {
  return Math.floor((maxRequestSizeBytes - 2) / (minSize + 6));
}

/** The type of a value that was not described by a schema (preserved unknown fields). */
export const dynType: DeclType = { kind: 'dyn', minSize: 1, maxElements: maxStringBytesPerRequest };

/**
 * The expression type of a schema node, or undefined when the node has no type the expression
 * language can see. `isResourceRoot` adds apiVersion, kind and the name fields of metadata.
 */
export function declTypeOf(schema: StructuralSchema, isResourceRoot: boolean): DeclType | undefined {
  if (schema['x-kubernetes-int-or-string'] === true) return { kind: 'int-or-string', minSize: 1, maxElements: maxStringBytesPerRequest };
  const s = isResourceRoot ? withTypeAndObjectMeta(schema) : schema;
  switch (s.type) {
    case 'array': return listTypeOf(s);
    case 'object': return objectTypeOf(s);
    case 'boolean': return { kind: 'bool', minSize: jsonSize.minBool, maxElements: 0 };
    case 'number': return { kind: 'double', minSize: jsonSize.minNumber, maxElements: 0 };
    case 'integer': return { kind: 'int', minSize: jsonSize.minNumber, maxElements: 0 };
    case 'string': return stringTypeOf(s);
    default:
      return s['x-kubernetes-preserve-unknown-fields'] === true ? dynType : undefined;
  }
}

function listTypeOf(s: StructuralSchema): DeclType | undefined {
  if (s.items === undefined) return undefined;
  const elem = declTypeOf(s.items, s.items['x-kubernetes-embedded-resource'] === true);
  if (elem === undefined) return undefined;
  const maxElements = s.maxItems !== undefined ? Math.max(0, s.maxItems) : maxItemsFromMinSize(elem.minSize);
  return { kind: 'list', elem, listType: s['x-kubernetes-list-type'] ?? 'atomic', mapKeys: s['x-kubernetes-list-map-keys'] ?? [], minSize: 2, maxElements };
}

function objectTypeOf(s: StructuralSchema): DeclType | undefined {
  const ap = additionalPropertiesSchema(s);
  if (ap !== undefined) {
    const value = declTypeOf(ap, ap['x-kubernetes-embedded-resource'] === true);
    if (value === undefined) return undefined;
    const maxElements = s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : maxPropertiesFromMinSize(value.minSize);
    return { kind: 'map', value, minSize: 2, maxElements };
  }
  const fields = new Map<string, DeclField>();
  const required = new Set(s.required ?? []);
  let minSize = 2;
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const type = declTypeOf(prop, prop['x-kubernetes-embedded-resource'] === true);
    if (type === undefined) continue;
    const escaped = escapePropertyName(name);
    if (escaped !== undefined) fields.set(escaped, { name, type });
    if (required.has(name) && prop.default === undefined) minSize += name.length + type.minSize + 4;
  }
  const maxElements = s.maxProperties ?? maxPropertiesFromMinSize(1);
  return { kind: 'object', fields, preserveUnknown: s['x-kubernetes-preserve-unknown-fields'] === true, minSize, maxElements };
}

function stringTypeOf(s: StructuralSchema): DeclType {
  switch (s.format) {
    case 'byte':
      return { kind: 'bytes', minSize: jsonSize.minString, maxElements: s.maxLength !== undefined ? Math.max(0, s.maxLength) : maxStringBytesPerRequest };
    case 'duration':
      return { kind: 'duration', minSize: jsonSize.minDuration, maxElements: jsonSize.maxDuration };
    case 'date':
      return { kind: 'timestamp', minSize: jsonSize.date, maxElements: jsonSize.date };
    case 'date-time':
    case 'datetime':
      return { kind: 'timestamp', minSize: jsonSize.minDateTime, maxElements: jsonSize.maxDateTime };
  }
  // maxLength counts code points; a code point takes at most 4 bytes, and sizes here are bytes.
  let maxElements = maxStringBytesPerRequest;
  if (s.maxLength !== undefined) maxElements = Math.max(0, s.maxLength) * 4;
  else if (s.enum !== undefined && s.enum.length > 0) maxElements = Math.max(...s.enum.map((v) => (typeof v === 'string' ? Buffer.byteLength(v) : 0)));
  return { kind: 'string', minSize: jsonSize.minString, maxElements };
}
