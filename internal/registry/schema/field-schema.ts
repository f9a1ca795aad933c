/**
 * A small structural schema: enough to check field types, find unknown fields, prune them and
 * derive OpenAPI. `preserveUnknown` objects keep (and never report) fields they do not list.
 */

/** The type of one schema node. `int-or-string` accepts either; `any` accepts everything. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'int-or-string' | 'any';

/** One node of a structural schema. */
export interface FieldSchema {
  readonly type: FieldType;
  readonly description?: string;
  /** Named fields of an object. */
  readonly properties?: Readonly<Record<string, FieldSchema>>;
  /** Values of a map-like object (`additionalProperties`). */
  readonly additionalProperties?: FieldSchema;
  /** Elements of an array. */
  readonly items?: FieldSchema;
  readonly required?: readonly string[];
  readonly enum?: readonly string[];
  readonly format?: string;
  /** Unlisted fields of this object are kept and not reported as unknown. */
  readonly preserveUnknown?: boolean;
}

/** A string field. */
export function str(description?: string, extra: Partial<FieldSchema> = {}): FieldSchema {
  return { type: 'string', ...(description ? { description } : {}), ...extra };
}

/** An integer field. */
export function int(description?: string): FieldSchema {
  return { type: 'integer', format: 'int32', ...(description ? { description } : {}) };
}

/** A boolean field. */
export function bool(description?: string): FieldSchema {
  return { type: 'boolean', ...(description ? { description } : {}) };
}

/** An RFC 3339 timestamp string. */
export function time(description?: string): FieldSchema {
  return { type: 'string', format: 'date-time', ...(description ? { description } : {}) };
}

/** A field holding an integer or a string (ports, percentages). */
export function intOrString(description?: string): FieldSchema {
  return { type: 'int-or-string', ...(description ? { description } : {}) };
}

/** A field of any JSON value, never checked. */
export function anyValue(description?: string): FieldSchema {
  return { type: 'any', ...(description ? { description } : {}) };
}

/** An object with the given fields. */
export function obj(properties: Record<string, FieldSchema>, opts: { required?: string[]; description?: string; preserveUnknown?: boolean } = {}): FieldSchema {
  return { type: 'object', properties, ...opts };
}

/** An object with unlisted fields allowed (a large built-in structure we only partly describe). */
export function open(properties: Record<string, FieldSchema> = {}, description?: string): FieldSchema {
  return { type: 'object', properties, preserveUnknown: true, ...(description ? { description } : {}) };
}

/** A map from string keys to values of one schema. */
export function mapOf(values: FieldSchema, description?: string): FieldSchema {
  return { type: 'object', additionalProperties: values, ...(description ? { description } : {}) };
}

/** An array of elements of one schema. */
export function arr(items: FieldSchema, description?: string): FieldSchema {
  return { type: 'array', items, ...(description ? { description } : {}) };
}
