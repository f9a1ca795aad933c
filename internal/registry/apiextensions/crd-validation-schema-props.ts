// ValidateCustomResourceDefinitionOpenAPISchema of apiextensions-apiserver 1.28: the rules every
// node of a CRD schema follows beyond being structural (no $ref, id, definitions...; no defaults in
// the root's metadata; list-type and map-type extensions used where they mean something; the
// static shape of x-kubernetes-validations rules). Field paths are kube's (`properties[spec]`).
import { forbidden, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { goShown, goStrings } from './schema/go-values.ts';
import { additionalProperties, isObject, itemsSchema, properties, schemaList, str, strings, type JsonSchema } from './schema/schema-props.ts';

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);
const validationReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** What a node's position allows (kube's specStandardValidatorV3 and validationOptions). */
export interface SchemaCheckContext {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
  readonly requireValidPropertyType: boolean;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function nonEmpty(v: unknown): boolean {
  if (!present(v)) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return v !== '';
}

/** specStandardValidatorV3.validate: keywords CRDs do not support. */
function standardChecks(s: JsonSchema, path: string, ctx: SchemaCheckContext): FieldError[] {
  const errors: FieldError[] = [];
  const type = str(s, 'type');
  if (ctx.requireValidPropertyType && type !== '' && !openapiV3Types.includes(type)) errors.push(notSupported(`${path}.type`, type, openapiV3Types));
  if (present(s.default) && !ctx.allowDefaults) errors.push(forbidden(`${path}.default`, `must not be set${ctx.disallowDefaultsReason === '' ? '' : ` ${ctx.disallowDefaultsReason}`}`));
  if (nonEmpty(s.id)) errors.push(forbidden(`${path}.id`, 'id is not supported'));
  if (present(s.additionalItems)) errors.push(forbidden(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (nonEmpty(s.patternProperties)) errors.push(forbidden(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (nonEmpty(s.definitions)) errors.push(forbidden(`${path}.definitions`, 'definitions is not supported'));
  if (present(s.dependencies)) errors.push(forbidden(`${path}.dependencies`, 'dependencies is not supported'));
  if (present(s.$ref)) errors.push(forbidden(`${path}.$ref`, '$ref is not supported'));
  if (type === 'null') errors.push(forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errors.push(forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) errors.push(forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  return errors;
}

function mapTypeChecks(s: JsonSchema, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const mapType = s['x-kubernetes-map-type'];
  const type = str(s, 'type');
  if (present(mapType) && type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    errors.push(type === '' ? required(`${path}.type`, detail) : invalidValue(`${path}.type`, type, detail));
  }
  if (present(mapType) && mapType !== 'atomic' && mapType !== 'granular') errors.push(notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  return errors;
}

function listTypeChecks(s: JsonSchema, path: string, ctx: SchemaCheckContext): FieldError[] {
  const errors: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  const type = str(s, 'type');
  const items = itemsSchema(s);
  if (present(listType) && type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    errors.push(type === '' ? required(`${path}.type`, detail) : invalidValue(`${path}.type`, type, detail));
  } else if (ctx.requireAtomicSetType && listType === 'set' && items !== undefined) {
    const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemsListType = items['x-kubernetes-list-type'];
    if (items.type === 'array' && present(itemsListType) && itemsListType !== 'atomic') errors.push(invalidShown(`${path}.items.x-kubernetes-list-type`, goShown(itemsListType), detail));
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') errors.push(invalidShown(`${path}.items.x-kubernetes-map-type`, goShown(itemsListType), detail));
  }
  if (present(listType) && !['atomic', 'set', 'map'].includes(String(listType))) errors.push(notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  const keys = strings(s, 'x-kubernetes-list-map-keys');
  if (keys.length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (!present(listType)) errors.push(required(`${path}.x-kubernetes-list-type`, detail));
    else if (listType !== 'map') errors.push(invalidValue(`${path}.x-kubernetes-list-type`, listType, detail));
  }
  if (listType === 'map') errors.push(...listMapChecks(s, path, keys));
  if (ctx.requireMapListKeysMapSetValidation) errors.push(...mapListKeysMapSetChecks(s, path));
  return errors;
}

function listMapChecks(s: JsonSchema, path: string, keys: string[]): FieldError[] {
  const errors: FieldError[] = [];
  if (keys.length === 0) errors.push(required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  if (!present(s.items)) errors.push(required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
  if (Array.isArray(s.items)) errors.push(invalidShown(`${path}.items`, '&apiextensions.JSONSchemaPropsOrArray{...}', 'must only have a single schema if x-kubernetes-list-type is map'));
  const items = itemsSchema(s);
  if (items === undefined) return errors;
  const itemsType = str(items, 'type');
  if (itemsType !== 'object') {
    errors.push(invalidValue(`${path}.items.type`, itemsType, "must be object if parent array's x-kubernetes-list-type is map"));
    return errors;
  }
  const props = properties(items);
  const seen = new Set<string>();
  for (const k of keys) {
    const p = props[k];
    if (p !== undefined) {
      if (p.type === 'array' || p.type === 'object') errors.push(invalidValue(`${path}.items.properties[${k}].type`, itemsType, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    } else errors.push(invalidShown(`${path}.x-kubernetes-list-map-keys`, goStrings(keys), 'entries must all be names of item properties'));
    if (seen.has(k)) errors.push(invalidShown(`${path}.x-kubernetes-list-map-keys`, goStrings(keys), 'must not contain duplicate entries'));
    seen.add(k);
  }
  return errors;
}

/** validateMapListKeysMapSet: set and map items not nullable; map keys required or defaulted, not nullable. */
export function mapListKeysMapSetChecks(s: JsonSchema, path: string): FieldError[] {
  const items = itemsSchema(s);
  const listType = s['x-kubernetes-list-type'];
  if (items === undefined || (listType !== 'set' && listType !== 'map')) return [];
  const errors: FieldError[] = [];
  if (items.nullable === true) errors.push(forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${String(listType)}`));
  if (listType !== 'map') return errors;
  const requiredKeys = new Set(strings(items, 'required'));
  const props = properties(items);
  for (const k of strings(s, 'x-kubernetes-list-map-keys')) {
    const p = props[k];
    if (p === undefined) continue;
    if (!requiredKeys.has(k) && !present(p.default)) errors.push(required(`${path}.items.properties[${k}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    if (p.nullable === true) errors.push(forbidden(`${path}.items.properties[${k}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return errors;
}

/** The static checks of x-kubernetes-validations rules (compiling them is the CEL engine's). */
function ruleChecks(s: JsonSchema, path: string): FieldError[] {
  const rules = Array.isArray(s['x-kubernetes-validations']) ? (s['x-kubernetes-validations'] as unknown[]) : [];
  const errors: FieldError[] = [];
  rules.forEach((entry, i) => {
    const rule = isObject(entry) ? entry : {};
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const text = (k: string): string => (typeof rule[k] === 'string' ? (rule[k] as string) : '');
    const trimmedRule = text('rule').trim();
    const message = text('message');
    const trimmedMessage = message.trim();
    if (trimmedRule === '') errors.push(required(`${at}.rule`, 'rule is not specified'));
    else if (message !== '' && trimmedMessage === '') errors.push(invalidValue(`${at}.message`, message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(trimmedMessage)) errors.push(invalidValue(`${at}.message`, message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(trimmedRule) && trimmedMessage === '') errors.push(required(`${at}.message`, 'message must be specified if rule contains line breaks'));
    if (text('messageExpression') !== '' && text('messageExpression').trim() === '') errors.push(required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'));
    if (present(rule.reason) && !validationReasons.includes(String(rule.reason))) errors.push(notSupported(`${at}.reason`, rule.reason, validationReasons));
    const fieldPath = text('fieldPath');
    if (fieldPath !== '' && fieldPath.trim() === '') errors.push(invalidValue(`${at}.fieldPath`, fieldPath, 'fieldPath must be non-empty if specified'));
    if (/[\n\r]/.test(fieldPath)) errors.push(invalidValue(`${at}.fieldPath`, fieldPath, 'fieldPath must not contain line breaks'));
    if (fieldPath !== '' && !validFieldPath(fieldPath, s)) errors.push(invalidValue(`${at}.fieldPath`, fieldPath, 'fieldPath must be a valid path'));
  });
  return errors;
}

/** cel.ValidFieldPath, approximately: `.name`, `['key']` and `[n]` steps the schema specifies. */
function validFieldPath(fieldPath: string, s: JsonSchema): boolean {
  let rest = fieldPath;
  let node: JsonSchema | undefined = s;
  const step = /^(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\])/;
  if (rest === '') return false;
  while (rest !== '' && node !== undefined) {
    const m = step.exec(rest);
    if (m === null) return false;
    rest = rest.slice(m[0].length);
    const name = m[1] ?? m[2];
    if (name !== undefined) node = properties(node)[name] ?? additionalProperties(node)?.schema;
    else node = itemsSchema(node);
  }
  return node !== undefined;
}

/**
 * The checks of one schema node and everything under it, at `path`. `isRoot` for a version's
 * `openAPIV3Schema` itself.
 */
export function checkSchemaProps(s: JsonSchema, path: string, ctx: SchemaCheckContext, isRoot: boolean): FieldError[] {
  const errors = standardChecks(s, path, ctx);
  if (s.uniqueItems === true) errors.push(forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const props = properties(s);
  const additional = additionalProperties(s);
  if (additional !== undefined) {
    if (Object.keys(props).length > 0 && (!additional.allows || additional.schema !== undefined)) errors.push(forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    const sub = ctx.insideResourceMeta ? { ...ctx, allowDefaults: false, disallowDefaultsReason: 'inside additionalProperties applying to object metadata' } : ctx;
    if (additional.schema !== undefined) errors.push(...checkSchemaProps(additional.schema, `${path}.additionalProperties`, sub, false));
  }
  for (const [name, p] of Object.entries(props)) {
    let sub = ctx;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${name}` };
    }
    errors.push(...checkSchemaProps(p, `${path}.properties[${name}]`, sub, false));
  }
  if (isObject(s.not)) errors.push(...checkSchemaProps(s.not, `${path}.not`, ctx, false));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) schemaList(s, key).forEach((x, i) => errors.push(...checkSchemaProps(x, `${path}.${key}[${i}]`, ctx, false)));
  if (isObject(s.definitions)) for (const [k, d] of Object.entries(s.definitions)) if (isObject(d)) errors.push(...checkSchemaProps(d, `${path}.definitions[${k}]`, ctx, false));
  const items = itemsSchema(s);
  if (items !== undefined) errors.push(...checkSchemaProps(items, `${path}.items`, ctx, false));
  if (Array.isArray(s.items)) s.items.forEach((x, i) => isObject(x) && errors.push(...checkSchemaProps(x, `${path}.items[${i}]`, ctx, false)));
  if (isObject(s.dependencies)) for (const [k, d] of Object.entries(s.dependencies)) if (isObject(d)) errors.push(...checkSchemaProps(d, `${path}.dependencies[${k}]`, ctx, false));
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errors.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  errors.push(...mapTypeChecks(s, path), ...listTypeChecks(s, path, ctx), ...ruleChecks(s, path));
  return errors;
}
