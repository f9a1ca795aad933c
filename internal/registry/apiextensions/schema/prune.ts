// Dropping what a custom object's schema does not specify, as apiextensions-apiserver 1.28 does
// when it decodes a custom object (unstructuredSchemaCoercer.apply): pruning (the root's and
// embedded resources' apiVersion, kind and metadata are kept; x-kubernetes-preserve-unknown-fields
// keeps a subtree), dropping nulls of non-nullable fields without a default, and coercing embedded
// resources' metadata to ObjectMeta. The pruned paths are kube's: `spec.foo`, `spec.list[0].bar`,
// sorted, which is how kube names them in "unknown field" warnings and strict-validation errors.
import { invalidShown, type FieldError } from '../../schema/field-errors.ts';
import { objectMetaSchema } from '../../schema/object-meta.ts';
import { checkSchema } from '../../schema/schema-check.ts';
import { objectMetaDecodeError } from './embedded-meta.ts';
import { goShown } from './go-values.ts';
import { additionalProperties, fieldSchema, hasDefault, isEmbedded, isNullable, isObject, itemsSchema, preservesUnknown, properties, type JsonSchema } from './schema-props.ts';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

interface Walk {
  readonly paths: string[];
}

function appendKey(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

function pruneValue(x: unknown, s: JsonSchema | undefined, embedded: boolean, path: string, walk: Walk): void {
  if (s !== undefined && preservesUnknown(s)) {
    skipPrune(x, s, embedded, path, walk);
    return;
  }
  if (isObject(x)) {
    if (s === undefined) {
      for (const k of Object.keys(x)) {
        walk.paths.push(appendKey(path, k));
        delete x[k];
      }
      return;
    }
    const props = properties(s);
    const additional = additionalProperties(s);
    for (const [k, v] of Object.entries(x)) {
      if (embedded && metaFields.has(k)) continue;
      const prop = props[k];
      if (prop !== undefined) pruneValue(v, prop, isEmbedded(prop), appendKey(path, k), walk);
      else if (additional !== undefined) pruneValue(v, additional.schema, isEmbedded(additional.schema), appendKey(path, k), walk);
      else {
        if (!metaFields.has(k) || path !== '') walk.paths.push(appendKey(path, k));
        delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s);
    x.forEach((v, i) => pruneValue(v, items, isEmbedded(items), `${path}[${i}]`, walk));
  }
}

function skipPrune(x: unknown, s: JsonSchema, embedded: boolean, path: string, walk: Walk): void {
  if (isObject(x)) {
    const props = properties(s);
    const additional = additionalProperties(s);
    for (const [k, v] of Object.entries(x)) {
      if (embedded && metaFields.has(k)) continue;
      const prop = props[k];
      if (prop !== undefined) pruneValue(v, prop, isEmbedded(prop), appendKey(path, k), walk);
      else if (additional !== undefined) pruneValue(v, additional.schema, isEmbedded(additional.schema), appendKey(path, k), walk);
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => pruneValue(v, items, isEmbedded(items), `${path}[${i}]`, walk));
  }
}

/**
 * Removes, in place, the fields of `value` its schema does not specify (pruning.PruneWithOptions).
 * With `isResourceRoot` the value is a whole object whose apiVersion, kind and metadata are kept.
 * Returns the removed fields' paths, sorted.
 */
export function prune(value: unknown, schema: JsonSchema | undefined, isResourceRoot: boolean): string[] {
  const walk: Walk = { paths: [] };
  pruneValue(value, schema, isResourceRoot || isEmbedded(schema), '', walk);
  return walk.paths.sort();
}

/** PruneNonNullableNullsWithoutDefaults: drops, in place, object fields that are null where their schema allows no null and has no default. */
export function pruneNonNullableNulls(value: unknown, schema: JsonSchema | undefined): void {
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const sub = fieldSchema(schema, k);
      if (v === null && sub !== undefined && !isNullable(sub) && !hasDefault(sub)) delete value[k];
      else pruneNonNullableNulls(v, sub);
    }
  } else if (Array.isArray(value)) {
    const items = schema === undefined ? undefined : itemsSchema(schema);
    for (const v of value) pruneNonNullableNulls(v, items);
  }
}

function isZero(v: unknown): boolean {
  return v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** Embedded metadata as it comes out of a round trip through ObjectMeta: unknown and empty fields gone. */
function coerceMetadata(metadata: Record<string, unknown>, dropInvalid: boolean, path: string, unknown: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metadata)) {
    if (dropInvalid && objectMetaDecodeError({ [k]: v }) !== undefined) continue;
    out[k] = JSON.parse(JSON.stringify(v)) as unknown;
  }
  for (const f of checkSchema(out, objectMetaSchema, true, 'ObjectMeta').unknownFields) unknown.push(`${path}.${f}`);
  for (const [k, v] of Object.entries(out)) if (isZero(v)) delete out[k];
  return out;
}

function coerceValue(x: unknown, s: JsonSchema | undefined, path: string, dropInvalid: boolean, unknown: string[]): FieldError | undefined {
  if (s === undefined) return undefined;
  if (isObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      const at = appendKey(path, k);
      if (isEmbedded(s) && (k === 'apiVersion' || k === 'kind') && typeof v !== 'string') {
        if (!dropInvalid) return invalidShown(at, goShown(v), 'must be a string');
        delete x[k];
      } else if (isEmbedded(s) && k === 'metadata') {
        const decodeError = objectMetaDecodeError(v);
        if (decodeError !== undefined && !dropInvalid) return invalidShown(at, goShown(v), decodeError);
        if (isObject(v)) x[k] = coerceMetadata(v, dropInvalid, at, unknown);
      }
      const sub = properties(s)[k];
      const additional = additionalProperties(s)?.schema;
      const err = sub !== undefined ? coerceValue(x[k], sub, at, dropInvalid, unknown) : coerceValue(x[k], additional, `${path}[${k}]`, dropInvalid, unknown);
      if (err !== undefined) return err;
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (const [i, v] of x.entries()) {
      const err = coerceValue(v, items, `${path}[${i}]`, dropInvalid, unknown);
      if (err !== undefined) return err;
    }
  }
  return undefined;
}

/** What pruning a custom object did: the unknown fields it dropped, or the error that stops the request. */
export interface PruneOutcome {
  /** Dropped fields, kube's paths: the schema's unknown fields (sorted), then embedded metadata's. */
  readonly unknownFields: string[];
  /** Embedded TypeMeta/ObjectMeta of the wrong shape (only without `dropInvalidMetadata`). */
  readonly error?: FieldError;
}

/**
 * Prunes a whole custom object in place as kube does on decode: unknown fields (unless
 * `preserveUnknownFields`, a v1beta1-era CRD), non-nullable nulls without default, embedded
 * metadata coerced to ObjectMeta (`dropInvalidMetadata`: malformed fields dropped, as when
 * reading from storage; otherwise reported as the error). The root metadata is not touched.
 */
export function pruneCustomObject(obj: Record<string, unknown>, schema: JsonSchema, opts: { dropInvalidMetadata?: boolean; preserveUnknownFields?: boolean } = {}): PruneOutcome {
  const unknownFields: string[] = [];
  if (opts.preserveUnknownFields !== true) {
    unknownFields.push(...prune(obj, schema, true));
    pruneNonNullableNulls(obj, schema);
  }
  const error = coerceValue(obj, schema, '', opts.dropInvalidMetadata === true, unknownFields);
  return error === undefined ? { unknownFields } : { unknownFields, error };
}
