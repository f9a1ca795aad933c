// validateCustomResourceDefinitionValidation of apiextensions-apiserver 1.28: one schema of a CRD
// (`spec.versions[i].schema`, or `spec.validation` when every version has the same one, as kube
// sees a v1 CRD after converting it to its internal form). Structural first (its errors sorted),
// then the defaults, then the per-node checks; the CEL rules are compiled by the caller's
// `checkRules` only when all of that passed.
import { forbidden, invalidShown, invalidValue, type FieldError } from '../schema/field-errors.ts';
import { checkSchemaProps, type SchemaCheckContext } from './crd-validation-schema-props.ts';
import { validateDefaults, type CheckDefaultRules } from './schema/default-validation.ts';
import { isObject, str, type JsonSchema } from './schema/schema-props.ts';
import { structuralConversionError, validateStructural } from './schema/structural.ts';

/** Compiles a schema's x-kubernetes-validations rules: the errors to report (kube's paths under `path`). */
export type CheckRules = (schema: Record<string, unknown>, path: string) => FieldError[];

/** The CEL engine's part of CRD validation: compiling the rules, evaluating them on defaults. */
export interface SchemaRuleChecks {
  readonly checkRules?: CheckRules | undefined;
  readonly checkDefaultRules?: CheckDefaultRules | undefined;
}

/** What a CRD write requires of its schemas (stricter on create; an update keeps what the old object got away with). */
export interface SchemaRequirements {
  readonly requireStructuralSchema: boolean;
  readonly requireValidPropertyType: boolean;
  readonly requirePrunedDefaults: boolean;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
}

/** JSONSchemaProps' fields in Go's order, with their JSON names, for the status subresource's root check. */
const rootFields: readonly (readonly [string, string])[] = [
  ['id', 'ID'], ['$schema', 'Schema'], ['$ref', 'Ref'], ['description', 'Description'], ['type', 'Type'], ['nullable', 'Nullable'],
  ['format', 'Format'], ['title', 'Title'], ['default', 'Default'], ['maximum', 'Maximum'], ['exclusiveMaximum', 'ExclusiveMaximum'],
  ['minimum', 'Minimum'], ['exclusiveMinimum', 'ExclusiveMinimum'], ['maxLength', 'MaxLength'], ['minLength', 'MinLength'],
  ['pattern', 'Pattern'], ['maxItems', 'MaxItems'], ['minItems', 'MinItems'], ['uniqueItems', 'UniqueItems'], ['multipleOf', 'MultipleOf'],
  ['enum', 'Enum'], ['maxProperties', 'MaxProperties'], ['minProperties', 'MinProperties'], ['required', 'Required'], ['items', 'Items'],
  ['allOf', 'AllOf'], ['oneOf', 'OneOf'], ['anyOf', 'AnyOf'], ['not', 'Not'], ['properties', 'Properties'],
  ['additionalProperties', 'AdditionalProperties'], ['patternProperties', 'PatternProperties'], ['dependencies', 'Dependencies'],
  ['additionalItems', 'AdditionalItems'], ['definitions', 'Definitions'], ['externalDocs', 'ExternalDocs'], ['example', 'Example'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'], ['x-kubernetes-embedded-resource', 'XEmbeddedResource'],
  ['x-kubernetes-int-or-string', 'XIntOrString'], ['x-kubernetes-list-map-keys', 'XListMapKeys'], ['x-kubernetes-list-type', 'XListType'],
  ['x-kubernetes-map-type', 'XMapType'], ['x-kubernetes-validations', 'XValidations'],
];
const allowedAtRoot = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];

/** Go's zero value of a JSONSchemaProps field (pointers to 0 and empty non-nil lists are not zero). */
function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === false || v === '';
}

/** With the status subresource, the root may only carry what survives extracting `properties[status]`. */
function statusRootErrors(schema: JsonSchema, path: string): FieldError[] {
  for (const [json, goName] of rootFields) {
    const v = schema[json];
    if (isZero(v)) continue;
    if (goName === 'Type') {
      if (v !== 'object') return [invalidValue(`${path}.openAPIV3Schema.type`, v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!allowedAtRoot.includes(goName)) {
      return [invalidShown(`${path}.openAPIV3Schema`, 'apiextensions.JSONSchemaProps{...}', `only [${allowedAtRoot.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

/**
 * The errors of one CRD schema (`validation` is `{openAPIV3Schema}` at `path`), kube's order:
 * status-root restrictions, root nullable, structural, defaults, per-node checks, then the rules.
 */
export function validateSchemaValidation(validation: unknown, path: string, statusEnabled: boolean, req: SchemaRequirements, rules: SchemaRuleChecks): FieldError[] {
  if (!isObject(validation) || !isObject(validation.openAPIV3Schema)) return [];
  const schema = validation.openAPIV3Schema;
  const schemaPath = `${path}.openAPIV3Schema`;
  const errors: FieldError[] = [];
  if (statusEnabled) errors.push(...statusRootErrors(schema, path));
  if (schema.nullable === true) errors.push(forbidden(`${schemaPath}.nullable`, 'nullable cannot be true at the root'));
  const conversionError = req.requireStructuralSchema ? structuralConversionError(schema) : undefined;
  let structuralOk = false;
  if (req.requireStructuralSchema && conversionError === undefined) {
    const structural = validateStructural(schema, schemaPath);
    if (structural.length > 0) errors.push(...structural);
    else {
      const defaults = validateDefaults(schema, schemaPath, req.requirePrunedDefaults, rules.checkDefaultRules);
      errors.push(...defaults);
      structuralOk = defaults.length === 0;
    }
  }
  const ctx: SchemaCheckContext = {
    allowDefaults: true,
    disallowDefaultsReason: '',
    insideResourceMeta: false,
    requireValidPropertyType: req.requireValidPropertyType,
    requireAtomicSetType: req.requireAtomicSetType,
    requireMapListKeysMapSetValidation: req.requireMapListKeysMapSetValidation,
  };
  const propsErrors = checkSchemaProps(schema, schemaPath, ctx, true);
  errors.push(...propsErrors);
  if (structuralOk && propsErrors.length === 0 && rules.checkRules !== undefined) errors.push(...rules.checkRules(schema, schemaPath));
  if (errors.length === 0 && conversionError !== undefined) errors.push(invalidValue(schemaPath, '', conversionError));
  return errors;
}

/** Whether any node of the schema satisfies `pred` (kube's SchemaHas walk). */
export function schemaHas(s: unknown, pred: (s: JsonSchema) => boolean): boolean {
  if (!isObject(s)) return false;
  if (pred(s)) return true;
  const children: unknown[] = [s.not, s.additionalProperties, s.additionalItems];
  if (Array.isArray(s.items)) children.push(...s.items);
  else children.push(s.items);
  for (const key of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[key])) children.push(...(s[key] as unknown[]));
  for (const key of ['properties', 'patternProperties', 'definitions', 'dependencies']) if (isObject(s[key])) children.push(...Object.values(s[key]));
  return children.some((c) => schemaHas(c, pred));
}

/** Whether a schema uses a type CRDs do not know (kept on update when the old object did). */
export function hasInvalidType(s: unknown): boolean {
  return schemaHas(s, (n) => str(n, 'type') !== '' && !['array', 'boolean', 'integer', 'number', 'object', 'string'].includes(str(n, 'type')));
}
