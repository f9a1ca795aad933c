// objectmeta.Validate of apiextensions-apiserver 1.28 (isResourceRoot false): every
// `x-kubernetes-embedded-resource` object in a custom object has a string apiVersion that parses
// as a group/version, a kind shaped like a DNS-1035 label (any case), and metadata that is a valid
// ObjectMeta (names as URL path segments, labels, annotations...).
import { dns1035Label } from '../../admissionregistration/go-values.ts';
import type { KObject, ResourceDeclaration } from '../../schema/declaration.ts';
import { invalidShown, invalidValue, required, type FieldError } from '../../schema/field-errors.ts';
import { validateObjectMeta } from '../../schema/metadata-validation.ts';
import { objectMetaSchema } from '../../schema/object-meta.ts';
import { checkSchema } from '../../schema/schema-check.ts';
import { goShown } from './go-values.ts';
import { additionalProperties, isEmbedded, isObject, itemsSchema, properties, type JsonSchema } from './schema-props.ts';

function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** Go's json error for metadata that does not decode into an ObjectMeta (undefined when it does). */
export function objectMetaDecodeError(metadata: unknown): string | undefined {
  if (!isObject(metadata)) {
    const type = Array.isArray(metadata) ? 'array' : typeof metadata === 'boolean' ? 'bool' : typeof metadata;
    return metadata === null ? undefined : `json: cannot unmarshal ${type} into Go value of type v1.ObjectMeta`;
  }
  const copy = JSON.parse(JSON.stringify(metadata)) as unknown;
  return checkSchema(copy, objectMetaSchema, false, 'ObjectMeta').decodeErrors[0];
}

function validateEmbeddedMetadata(path: string, metadata: unknown): FieldError[] {
  const at = child(path, 'metadata');
  const decodeError = objectMetaDecodeError(metadata);
  if (decodeError !== undefined) return [invalidShown(at, goShown(metadata), decodeError)];
  const meta = { ...(isObject(metadata) ? metadata : {}) } as KObject['metadata'];
  if (typeof meta.name !== 'string' || meta.name === '') meta.name = 'fakename';
  const namespaced = typeof meta.namespace === 'string' && meta.namespace !== '';
  const decl = { namespaced, nameRule: 'path-segment' } as unknown as ResourceDeclaration;
  return validateObjectMeta({ metadata: meta }, decl).map((e) => ({ ...e, field: at + e.field.slice('metadata'.length) }));
}

/** validateEmbeddedResource: the TypeMeta and ObjectMeta of one embedded object at `path`. */
export function validateEmbeddedResource(path: string, x: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  if (!('apiVersion' in x)) errors.push(required(child(path, 'apiVersion')));
  if (!('kind' in x)) errors.push(required(child(path, 'kind')));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errors.push(invalidShown(child(path, k), goShown(v), 'must be a string'));
      else if (v === '') errors.push(required(child(path, k)));
      else if (v.split('/').length > 2) errors.push(invalidValue(child(path, k), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errors.push(invalidShown(child(path, k), goShown(v), 'must be a string'));
      else if (v === '') errors.push(required(child(path, k)));
      else {
        const problems = dns1035Label(v.toLowerCase());
        if (problems.length > 0) errors.push(invalidValue(child(path, k), v, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
      }
    } else if (k === 'metadata') errors.push(...validateEmbeddedMetadata(path, v));
  }
  return errors;
}

/**
 * Validates the embedded resources inside `value` (at `path`, '' for a custom object's root, whose
 * own TypeMeta and ObjectMeta are not checked here unless `isResourceRoot`).
 */
export function validateEmbeddedResources(value: unknown, s: JsonSchema | undefined, path = '', isResourceRoot = false): FieldError[] {
  if (s === undefined) return [];
  const errors: FieldError[] = [];
  if (isObject(value)) {
    if (isEmbedded(s) || isResourceRoot) errors.push(...validateEmbeddedResource(path, value));
    const props = properties(s);
    const additional = additionalProperties(s)?.schema;
    for (const [k, v] of Object.entries(value)) {
      const prop = props[k];
      if (prop !== undefined) errors.push(...validateEmbeddedResources(v, prop, child(path, k)));
      else if (additional !== undefined) errors.push(...validateEmbeddedResources(v, additional, `${path}[${k}]`));
    }
  } else if (Array.isArray(value)) {
    const items = itemsSchema(s);
    value.forEach((v, i) => errors.push(...validateEmbeddedResources(v, items, `${path}[${i}]`)));
  }
  return errors;
}
