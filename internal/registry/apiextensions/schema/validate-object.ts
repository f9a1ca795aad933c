// Validating a custom object against its version's schema as kube-apiserver 1.28's custom
// resource strategy does after pruning and defaulting: kube-openapi's schema validation (unsupported
// formats stripped), the embedded resources' TypeMeta and ObjectMeta, and the uniqueness of
// `set` and `map` lists. The object's own metadata is the generic store's business, not this.
import type { FieldError } from '../../schema/field-errors.ts';
import { validateEmbeddedResources } from './embedded-meta.ts';
import { validateListSetsAndMaps } from './list-types.ts';
import { toFieldErrors } from './openapi-field-errors.ts';
import { validateValue } from './openapi-validator.ts';
import { isObject, type JsonSchema } from './schema-props.ts';

/**
 * kube-openapi's validation of `value` against `schema` as field errors named under `prefix`
 * (undefined: the value is a whole custom object). `stripFormats` as for custom objects (true) or
 * CRD defaults (false).
 */
export function validateAgainstSchema(value: unknown, schema: JsonSchema, prefix: string | undefined, stripFormats = true): FieldError[] {
  return toFieldErrors(validateValue(schema, value, '', { stripFormats }).errors, prefix);
}

/**
 * Everything kube-apiserver checks of a custom object against its schema (the `openAPIV3Schema`
 * of the object's version), in kube's order: schema, embedded resources, list sets and maps.
 * Pure: `obj` is not changed. Expects `obj` already pruned and defaulted.
 */
export function validateCustomObject(obj: Record<string, unknown>, schema: JsonSchema): FieldError[] {
  return [
    ...validateAgainstSchema(obj, schema, undefined),
    ...validateEmbeddedResources(obj, schema),
    ...(isObject(obj) ? validateListSetsAndMaps(obj, schema) : []),
  ];
}
