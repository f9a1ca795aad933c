import type { ResourceDeclaration } from './declaration.ts';
import { obj, str, type FieldSchema } from './field-schema.ts';
import type { FieldError } from './field-errors.ts';
import { objectMetaSchema } from './object-meta.ts';

/** What checking a value against a schema found. */
export interface SchemaCheckResult {
  /** Paths of fields the schema does not know (`spec.foo`, `spec.ports[0].bar`). */
  readonly unknownFields: string[];
  /** Fields whose JSON type is wrong. */
  readonly typeErrors: FieldError[];
}

/** The schema of a whole object of a declared resource. */
export function objectSchema(decl: ResourceDeclaration): FieldSchema {
  return obj({ apiVersion: str(), kind: str(), metadata: objectMetaSchema, ...decl.fields }, { description: decl.description, required: [...(decl.required ?? [])] });
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
      return typeof value === 'string';
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

function walk(value: unknown, schema: FieldSchema, path: string, prune: boolean, out: SchemaCheckResult): void {
  // null is how JSON clients say "unset" for optional fields; Kubernetes accepts it.
  if (value === null || value === undefined) return;
  if (!typeMatches(schema, value)) {
    const expected = schema.type === 'int-or-string' ? 'integer or string' : schema.type;
    out.typeErrors.push({ type: 'FieldValueTypeInvalid', field: path, message: `Invalid value: "${typeName(value)}": ${path} in body must be of type ${expected}: "${typeName(value)}"` });
    return;
  }
  if (schema.type === 'array' && schema.items) {
    (value as unknown[]).forEach((item, i) => walk(item, schema.items as FieldSchema, `${path}[${i}]`, prune, out));
    return;
  }
  if (schema.type !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const child = schema.properties?.[key] ?? schema.additionalProperties;
    if (child) walk(record[key], child, join(path, key), prune, out);
    else if (!schema.preserveUnknown) {
      out.unknownFields.push(join(path, key));
      if (prune) delete record[key];
    }
  }
}

/**
 * Checks `value` against `schema`: collects unknown fields (removing them when `prune`) and
 * fields of the wrong JSON type. Mutates `value` only when pruning.
 */
export function checkSchema(value: unknown, schema: FieldSchema, prune: boolean): SchemaCheckResult {
  const out: SchemaCheckResult = { unknownFields: [], typeErrors: [] };
  walk(value, schema, '', prune, out);
  return out;
}

/** Required fields (by the schema's `required` lists, recursively through objects) that are missing. */
export function missingRequired(value: unknown, schema: FieldSchema, path = ''): string[] {
  if (schema.type !== 'object' || typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (schema.type === 'array' && Array.isArray(value) && schema.items) return value.flatMap((v, i) => missingRequired(v, schema.items as FieldSchema, `${path}[${i}]`));
    return [];
  }
  const record = value as Record<string, unknown>;
  const missing = (schema.required ?? []).filter((k) => record[k] === undefined || record[k] === null).map((k) => join(path, k));
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    if (record[key] !== undefined) missing.push(...missingRequired(record[key], child, join(path, key)));
  }
  return missing;
}
