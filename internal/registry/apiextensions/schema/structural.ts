// Whether a CRD schema is structural, as apiextensions-apiserver 1.28's NewStructural and
// ValidateStructural decide: every node specifies its type (outside of value validations), value
// validations (allOf/anyOf/oneOf/not) only restrict what is specified outside of them, metadata at
// the root only restricts name and generateName, and the kube extensions are used where they mean
// something. Errors come sorted by their text, as kube sorts them.
import { forbidden, invalidValue, required, type FieldError } from '../../schema/field-errors.ts';
import { compileGoRegexp } from './go-regexp.ts';
import { additionalProperties, isObject, itemsSchema, properties, schemaList, str, type JsonSchema } from './schema-props.ts';

type Level = 'root' | 'item' | 'field';

const metaProperties = ['kind', 'apiVersion'] as const;

/**
 * NewStructural's refusal of a schema (the first unsupported construct found, in kube's walk
 * order), or undefined when it converts. CRD validation reports it only when nothing else is wrong.
 */
export function structuralConversionError(s: JsonSchema): string | undefined {
  const unsupported = unsupportedField(s);
  if (unsupported !== undefined) return unsupported;
  const nested = valueValidationError(s);
  if (nested !== undefined) return nested;
  const additional = additionalProperties(s)?.schema;
  if (additional !== undefined) {
    const e = structuralConversionError(additional);
    if (e !== undefined) return e;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const items = itemsSchema(s);
  if (items !== undefined) {
    const e = structuralConversionError(items);
    if (e !== undefined) return e;
  }
  for (const p of Object.values(properties(s))) {
    const e = structuralConversionError(p);
    if (e !== undefined) return e;
  }
  return undefined;
}

function nonEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return true;
}

function unsupportedField(s: JsonSchema): string | undefined {
  if (nonEmpty(s.id)) return "OpenAPIV3Schema 'id' is not supported";
  if (nonEmpty(s.$schema)) return "OpenAPIV3Schema 'schema' is not supported";
  if (nonEmpty(s.$ref)) return "OpenAPIV3Schema '$ref' is not supported";
  if (nonEmpty(s.patternProperties)) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (nonEmpty(s.dependencies)) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined && s.additionalItems !== null) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (nonEmpty(s.definitions)) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

/** newValueValidation's walk: not, allOf, anyOf, oneOf, each a nested schema. */
function valueValidationError(s: JsonSchema): string | undefined {
  const nestedOnes = [...(isObject(s.not) ? [s.not] : []), ...schemaList(s, 'allOf'), ...schemaList(s, 'anyOf'), ...schemaList(s, 'oneOf')];
  for (const n of nestedOnes) {
    const e = nestedConversionError(n);
    if (e !== undefined) return e;
  }
  return undefined;
}

function nestedConversionError(s: JsonSchema): string | undefined {
  const e = unsupportedField(s) ?? valueValidationError(s);
  if (e !== undefined) return e;
  const additional = additionalProperties(s)?.schema;
  if (additional !== undefined) {
    const a = structuralConversionError(additional);
    if (a !== undefined) return a;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const items = itemsSchema(s);
  if (items !== undefined) {
    const i = nestedConversionError(items);
    if (i !== undefined) return i;
  }
  for (const p of Object.values(properties(s))) {
    const n = nestedConversionError(p);
    if (n !== undefined) return n;
  }
  return undefined;
}

function isIntOrStringPair(anyOf: JsonSchema[]): boolean {
  if (anyOf.length !== 2) return false;
  const only = (x: JsonSchema | undefined, type: string): boolean => x !== undefined && Object.keys(x).length === 1 && x.type === type;
  return only(anyOf[0], 'integer') && only(anyOf[1], 'string');
}

function validateNested(v: JsonSchema | undefined, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  if (v === undefined) return [];
  const errors = validateValueValidation(v, skipAnyOf, skipFirstAllOfAnyOf, lvl, path);
  errors.push(...validateNested(itemsSchema(v), false, false, lvl, `${path}.items`));
  for (const [k, p] of Object.entries(properties(v))) errors.push(...validateNested(p, false, false, 'field', `${path}.properties[${k}]`));
  if (str(v, 'type') !== '') errors.push(forbidden(`${path}.type`, 'must be empty to be structural'));
  if (additionalProperties(v) !== undefined) errors.push(forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (v.default !== undefined && v.default !== null) errors.push(forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (str(v, 'title') !== '') errors.push(forbidden(`${path}.title`, 'must be empty to be structural'));
  if (str(v, 'description') !== '') errors.push(forbidden(`${path}.description`, 'must be empty to be structural'));
  if (v.nullable === true) errors.push(forbidden(`${path}.nullable`, 'must be false to be structural'));
  if (v['x-kubernetes-preserve-unknown-fields'] === true) errors.push(forbidden(`${path}.x-kubernetes-preserve-unknown-fields`, 'must be false to be structural'));
  if (v['x-kubernetes-embedded-resource'] === true) errors.push(forbidden(`${path}.x-kubernetes-embedded-resource`, 'must be false to be structural'));
  if (v['x-kubernetes-int-or-string'] === true) errors.push(forbidden(`${path}.x-kubernetes-int-or-string`, 'must be false to be structural'));
  if (nonEmpty(v['x-kubernetes-list-map-keys'])) errors.push(forbidden(`${path}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  if (v['x-kubernetes-list-type'] !== undefined && v['x-kubernetes-list-type'] !== null) errors.push(forbidden(`${path}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (v['x-kubernetes-map-type'] !== undefined && v['x-kubernetes-map-type'] !== null) errors.push(forbidden(`${path}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if (nonEmpty(v['x-kubernetes-validations'])) errors.push(forbidden(`${path}.x-kubernetes-validations`, 'must be empty to be structural'));
  if ('metadata' in properties(v)) errors.push(forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  return errors;
}

/** Go's regexp.Compile error for a pattern, undefined when it compiles. */
function patternError(pattern: string): string | undefined {
  const compiled = compileGoRegexp(pattern);
  return 'error' in compiled ? compiled.error : undefined;
}

function validateValueValidation(v: JsonSchema, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!skipAnyOf) schemaList(v, 'anyOf').forEach((x, i) => errors.push(...validateNested(x, false, false, lvl, `${path}.anyOf[${i}]`)));
  schemaList(v, 'allOf').forEach((x, i) => errors.push(...validateNested(x, skipFirstAllOfAnyOf && i === 0, false, lvl, `${path}.allOf[${i}]`)));
  schemaList(v, 'oneOf').forEach((x, i) => errors.push(...validateNested(x, false, false, lvl, `${path}.oneOf[${i}]`)));
  if (isObject(v.not)) errors.push(...validateNested(v.not, false, false, lvl, `${path}.not`));
  const pattern = str(v, 'pattern');
  if (pattern !== '') {
    const problem = patternError(pattern);
    if (problem !== undefined) errors.push(invalidValue(`${path}.pattern`, pattern, `must be a valid regular expression, but isn't: ${problem}`));
  }
  return errors;
}

/** Keys of a root metadata schema that restrict more than name and generateName (Structural's view). */
function metadataRestricts(m: JsonSchema): boolean {
  const props = Object.keys(properties(m));
  const onlyNames = props.length > 0 && props.every((p) => p === 'name' || p === 'generateName');
  for (const [k, v] of Object.entries(m)) {
    if (['type', 'default', 'externalDocs', 'example'].includes(k) || v === undefined || v === null || v === false || v === '') continue;
    if (k === 'properties' && (onlyNames || props.length === 0)) continue;
    if (['allOf', 'anyOf', 'oneOf', 'enum'].includes(k) && Array.isArray(v) && v.length === 0) continue;
    return true;
  }
  return false;
}

function validateMetadataInvariants(m: JsonSchema, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = str(m, 'type');
  if (checkMetadata && type !== 'object') errors.push(invalidValue(`${path}.type`, type, 'must be object'));
  if (lvl === 'root' && metadataRestricts(m)) errors.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  return errors;
}

function validateExtensions(s: JsonSchema, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  if (intOrString && s['x-kubernetes-preserve-unknown-fields'] === true) errors.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && s['x-kubernetes-embedded-resource'] === true) errors.push(invalidValue(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  return errors;
}

function typeRequired(lvl: Level): string {
  if (lvl === 'root') return 'must not be empty at the root';
  return lvl === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
}

function validateInvariants(s: JsonSchema, lvl: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = str(s, 'type');
  const items = itemsSchema(s);
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const props = properties(s);
  if (type === 'array' && items === undefined) errors.push(required(`${path}.items`, 'must be specified'));
  if (items !== undefined) errors.push(...validateInvariants(items, 'item', `${path}.items`));
  for (const [k, p] of Object.entries(props)) errors.push(...validateInvariants(p, 'field', `${path}.properties[${k}]`));
  const additional = additionalProperties(s);
  if (additional !== undefined) {
    if (lvl === 'root') errors.push(forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (additional.schema !== undefined) errors.push(...validateInvariants(additional.schema, 'field', `${path}.additionalProperties`));
  }
  errors.push(...validateExtensions(s, path));
  const skipAnyOf = isIntOrStringPair(schemaList(s, 'anyOf'));
  const firstAllOf = schemaList(s, 'allOf')[0];
  const skipFirstAllOfAnyOf = firstAllOf !== undefined && isIntOrStringPair(schemaList(firstAllOf, 'anyOf'));
  errors.push(...validateValueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, path));
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errors.push(type === '' ? required(`${path}.type`, detail) : invalidValue(`${path}.type`, type, detail));
  } else if (type === '' && s['x-kubernetes-int-or-string'] !== true && !preserve) errors.push(required(`${path}.type`, typeRequired(lvl)));
  if (embedded && additional !== undefined) errors.push(forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && type !== '' && type !== 'object') errors.push(invalidValue(`${path}.type`, type, 'must be object at the root'));
  for (const name of metaProperties) {
    const p = props[name];
    if (p !== undefined && checkMetadata && str(p, 'type') !== 'string') errors.push(invalidValue(`${path}.properties[${name}].type`, str(p, 'type'), 'must be string'));
  }
  const metadata = props.metadata;
  if (metadata !== undefined) errors.push(...validateMetadataInvariants(metadata, checkMetadata, lvl, `${path}.properties[metadata]`));
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errors.push(required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errors;
}

function validateNestedCompleteness(v: JsonSchema | undefined, s: JsonSchema | undefined, sPath: string, vPath: string): FieldError[] {
  if (v === undefined) return [];
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath}`)];
  const errors = validateCompleteness(v, s, sPath, vPath);
  const vItems = itemsSchema(v);
  if (vItems !== undefined) errors.push(...validateNestedCompleteness(vItems, itemsSchema(s), `${sPath}.items`, `${vPath}.items`));
  const sProps = properties(s);
  for (const [k, vField] of Object.entries(properties(v))) {
    const sField = sProps[k];
    if (sField === undefined) errors.push(required(`${sPath}.properties[${k}]`, `because it is defined in ${vPath}.properties[${k}]`));
    else errors.push(...validateNestedCompleteness(vField, sField, `${sPath}.properties[${k}]`, `${vPath}.properties[${k}]`));
  }
  return errors;
}

function validateCompleteness(v: JsonSchema, s: JsonSchema, sPath: string, vPath: string): FieldError[] {
  const errors: FieldError[] = [];
  if (isObject(v.not)) errors.push(...validateNestedCompleteness(v.not, s, sPath, `${vPath}.not`));
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    schemaList(v, key).forEach((x, i) => errors.push(...validateNestedCompleteness(x, s, sPath, `${vPath}.${key}[${i}]`)));
  }
  return errors;
}

/**
 * ValidateStructural: the structural-schema violations of `schema` (a CRD version's
 * `openAPIV3Schema`, reported under `path`), sorted by their text. Assumes
 * structuralConversionError found nothing.
 */
export function validateStructural(schema: JsonSchema, path: string): FieldError[] {
  const errors = [...validateInvariants(schema, 'root', path), ...validateCompleteness(schema, schema, path, path)];
  const text = (e: FieldError): string => `${e.field}: ${e.message}`;
  return errors.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}
