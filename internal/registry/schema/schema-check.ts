import type { ResourceDeclaration } from './declaration.ts';
import { obj, str, type FieldSchema } from './field-schema.ts';
import type { FieldError } from './field-errors.ts';
import { objectMetaSchema } from './object-meta.ts';
import { base64Error, canonicalQuantity, goTypeName, integerInRange, quantityError, timeError } from './wire-formats.ts';

/** What checking a value against a schema found. */
export interface SchemaCheckResult {
  /** Paths of fields the schema does not know (`spec.foo`, `spec.ports[0].bar`). */
  readonly unknownFields: string[];
  /** Fields whose JSON type is wrong. */
  readonly typeErrors: FieldError[];
  /**
   * What a Go client's decoder says of values its types cannot hold (a wrong JSON type, an int32
   * out of range, a malformed quantity, time or base64 string), in Go's words, in document order.
   */
  readonly decodeErrors: string[];
}

/** The schema of a whole object of a declared resource. */
export function objectSchema(decl: ResourceDeclaration): FieldSchema {
  return obj({ apiVersion: str(), kind: str(), metadata: objectMetaSchema, ...decl.fields }, { description: decl.description, required: [...(decl.required ?? [])], ...(decl.preserveUnknownFields ? { preserveUnknown: true } : {}) });
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function typeMatches(schema: FieldSchema, value: unknown): boolean {
  switch (schema.type) {
    case 'any':
      return true;
    case 'string':
      // A Quantity also decodes from a JSON number (its text is parsed).
      return typeof value === 'string' || (schema.format === 'quantity' && typeof value === 'number');
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'int-or-string':
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The JSON value as Go's decoder names it: the literal only for a number an integer type refuses
 * ("number 2147483648", "number 1.5"), else its JSON type ("number", "string", "bool").
 */
function jsonTypeText(schema: FieldSchema, value: unknown): string {
  if (typeof value === 'number') return schema.type === 'integer' ? `number ${String(value)}` : 'number';
  if (typeof value === 'boolean') return 'bool';
  return typeName(value);
}

/**
 * Where a walk is: the data path; the Go struct whose field it is in and that field's path as Go
 * names it (struct field names only: no list indexes, no map keys), for decode errors.
 */
interface Place {
  readonly path: string;
  readonly struct: string;
  readonly goField: string;
}

/** Go's words for a value its type cannot hold: `json: cannot unmarshal ... of type int32`. */
function goDecodeError(schema: FieldSchema, value: unknown, place: Place): string {
  const into = place.struct === '' || place.goField === '' ? 'Go value' : `Go struct field ${place.struct}.${place.goField}`;
  return `json: cannot unmarshal ${jsonTypeText(schema, value)} into ${into} of type ${goTypeName(schema)}`;
}

/** The error of a value of the right JSON type that its format refuses, in Go's words; undefined if fine. */
function formatError(schema: FieldSchema, value: unknown, place: Place): string | undefined {
  if (schema.type === 'integer' && !integerInRange(schema, value as number)) return goDecodeError(schema, value, place);
  if (schema.type === 'int-or-string' && typeof value === 'number' && !integerInRange({ type: 'integer', format: 'int32' }, value)) return goDecodeError({ type: 'integer', format: 'int32' }, value, place);
  if (schema.type !== 'string') return undefined;
  const text = typeof value === 'number' ? String(value) : (value as string);
  switch (schema.format) {
    case 'quantity':
      return quantityError(text);
    case 'date-time':
      return timeError(text);
    case 'byte':
      return base64Error(text);
    default:
      return undefined;
  }
}

/**
 * What Go's decoder leaves in a list item or map value sent as null: its type's zero value (an
 * empty struct, "", 0, false); null where that zero value is nil (a slice, []byte, interface{}).
 */
function goZeroValue(schema: FieldSchema): unknown {
  switch (schema.type) {
    case 'object':
      return schema.properties === undefined ? null : {};
    case 'string':
      if (schema.format === 'byte') return null;
      return schema.format === 'quantity' ? '0' : '';
    case 'integer':
    case 'number':
    case 'int-or-string':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Replaces a null list item or map value by what Go's decoder makes of it (see goZeroValue). */
function zeroNull(container: unknown[] | Record<string, unknown>, key: number | string, schema: FieldSchema): void {
  const values = container as Record<number | string, unknown>;
  if (values[key] === null) values[key] = goZeroValue(schema);
}

function walk(value: unknown, schema: FieldSchema, place: Place, prune: boolean, out: SchemaCheckResult, goNulls: boolean): void {
  // null is how JSON clients say "unset" for optional fields; Kubernetes accepts it.
  if (value === null || value === undefined) return;
  const { path } = place;
  if (!typeMatches(schema, value)) {
    const expected = schema.type === 'int-or-string' ? 'integer or string' : schema.type;
    out.typeErrors.push({ type: 'FieldValueTypeInvalid', field: path, message: `Invalid value: "${typeName(value)}": ${path} in body must be of type ${expected}: "${typeName(value)}"` });
    out.decodeErrors.push(goDecodeError(schema, value, place));
    return;
  }
  const refused = formatError(schema, value, place);
  if (refused !== undefined) out.decodeErrors.push(refused);
  const struct = schema.definition === undefined ? place.struct : (schema.definition.split('.').at(-1) ?? '');
  if (schema.type === 'array' && schema.items) {
    const items = schema.items;
    (value as unknown[]).forEach((_, i) => {
      if (goNulls) zeroNull(value as unknown[], i, items);
      walk((value as unknown[])[i], items, { path: `${path}[${i}]`, struct, goField: place.goField }, prune, out, goNulls);
      if (isQuantity(items)) (value as unknown[])[i] = storedQuantity((value as unknown[])[i], goNulls);
    });
    return;
  }
  if (schema.type !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = schema.properties?.[key];
    const child = field ?? schema.additionalProperties;
    if (child) {
      if (goNulls && field === undefined) zeroNull(record, key, child);
      walk(record[key], child, { path: join(path, key), struct, goField: field === undefined ? place.goField : join(place.goField, key) }, prune, out, goNulls);
      if (isQuantity(child)) record[key] = storedQuantity(record[key], goNulls);
    } else if (!schema.preserveUnknown) {
      out.unknownFields.push(join(path, key));
      if (prune) delete record[key];
    }
  }
}

function isQuantity(schema: FieldSchema): boolean {
  return schema.type === 'string' && schema.format === 'quantity';
}

/**
 * A quantity as it is stored: as the text a Go client writes back (Quantity marshals to a
 * string); in a built-in kind (`typed`) as kube-apiserver re-encodes it ("0.5" as "500m"). A
 * value Go refuses is left as it is (the decode error answers the request).
 */
function storedQuantity(value: unknown, typed: boolean): unknown {
  if (typeof value !== 'number' && typeof value !== 'string') return value;
  const text = String(value);
  return typed ? (canonicalQuantity(text) ?? value) : text;
}

/**
 * Checks `value` against `schema`: collects unknown fields (removing them when `prune`), fields of
 * the wrong JSON type and values their Go type refuses. Mutates `value` when pruning, and turns a
 * quantity given as a JSON number into its text (with `goNulls`, every quantity into the text
 * kube-apiserver stores for it: "0.5" as "500m"). `rootStruct` names the Go type of the whole value.
 * With `goNulls` (a built-in kind, decoded into Go types), a null list item or map value becomes
 * what Go's decoder makes of it, so validation sees and the store keeps what kube-apiserver would.
 */
export function checkSchema(value: unknown, schema: FieldSchema, prune: boolean, rootStruct = '', goNulls = false): SchemaCheckResult {
  const out: SchemaCheckResult = { unknownFields: [], typeErrors: [], decodeErrors: [] };
  walk(value, schema, { path: '', struct: rootStruct, goField: '' }, prune, out, goNulls);
  return out;
}
