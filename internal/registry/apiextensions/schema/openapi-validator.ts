// kube-openapi's SchemaValidator (k8s.io/kube-openapi/pkg/validation/validate) as kube-apiserver
// 1.28 runs it on custom objects and on CRD defaults: the same checks in the same order (type,
// allOf/anyOf/oneOf/not, string, format, number, array, enum, object), with its messages ("spec.replicas
// in body must be of type integer: \"string\"") and the names it gives values (`spec.items[0]`).
// Results are raw kube-openapi errors; openapi-field-errors.ts turns them into field errors.
import { compileGoRegexp } from './go-regexp.ts';
import { effectiveFormat, formatValid, isKnownFormat } from './formats.ts';
import { goFloat, goList, goNumber } from './go-values.ts';
import { additionalProperties, isObject, itemsSchema, jsonEqual, num, properties, schemaList, str, strings, type JsonSchema } from './schema-props.ts';

/** kube-openapi's error codes that kube-apiserver tells apart. */
export type OpenApiCode = 'invalidType' | 'required' | 'tooLong' | 'enum' | 'maxItems' | 'tooManyProperties' | 'other';

/** One kube-openapi error: a validation error of a named value, or a composite (anyOf...) error. */
export type OpenApiError =
  | { readonly kind: 'validation'; readonly code: OpenApiCode; readonly name: string; readonly value: unknown; readonly valid?: number; readonly values?: readonly unknown[]; readonly message: string }
  | { readonly kind: 'composite'; readonly message: string };

/** What validating a value found: its errors and kube-openapi's count of passed checks. */
export interface OpenApiResult {
  errors: OpenApiError[];
  matchCount: number;
}

/** How to read the schema: CR validation strips unsupported formats, default validation does not. */
export interface OpenApiOptions {
  readonly stripFormats: boolean;
}

const inBody = 'body';

function fail(code: OpenApiCode, name: string, value: unknown, message: string, extra: { valid?: number; values?: readonly unknown[] } = {}): OpenApiResult {
  return { errors: [{ kind: 'validation', code, name, value, message, ...extra }], matchCount: 0 };
}

function ok(): OpenApiResult {
  return { errors: [], matchCount: 1 };
}

/** go-openapi's Result.Merge: errors appended unless one with the same text is already there. */
function merge(into: OpenApiResult, ...others: OpenApiResult[]): OpenApiResult {
  for (const o of others) {
    for (const e of o.errors) if (!into.errors.some((x) => x.message === e.message)) into.errors.push(e);
    into.matchCount += o.matchCount;
  }
  return into;
}

/** The JSON type and Go format kube-openapi infers for a decoded value. */
function inferred(data: unknown): { type: string; format: string } {
  if (typeof data === 'string') return { type: 'string', format: '' };
  if (typeof data === 'boolean') return { type: 'boolean', format: '' };
  if (typeof data === 'number') return Number.isInteger(data) ? { type: 'integer', format: 'int64' } : { type: 'number', format: 'float64' };
  if (Array.isArray(data)) return { type: 'array', format: '' };
  return { type: 'object', format: '' };
}

function typeList(s: JsonSchema): string[] {
  if (s['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  const t = str(s, 'type');
  return t === '' ? [] : [t];
}

function invalidType(name: string, typeName: string, value: unknown): OpenApiResult {
  const message = typeof value === 'string' ? `${name} in ${inBody} must be of type ${typeName}: ${JSON.stringify(value)}` : `${name} in ${inBody} must be of type ${typeName}`;
  return fail('invalidType', name, value, message);
}

/** typeValidator: the JSON type (and a non-string format) of the value. */
function validateType(types: string[], format: string, nullable: boolean, data: unknown, path: string): OpenApiResult {
  if (data === null || data === undefined) {
    if (types.length > 0 && !types.includes('null') && !nullable) return invalidType(path, types.join(','), 'null');
    return ok();
  }
  const { type: schType, format: dataFormat } = inferred(data);
  const isFloatInt = schType === 'number' && Number.isInteger(data) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringOrSlice = typeof data === 'string' || Array.isArray(data);
  if (!stringOrSlice && format !== '' && !(types.includes(schType) || dataFormat === format || isFloatInt || isIntFloat)) return invalidType(path, format, dataFormat);
  if (!(types.includes('number') || types.includes('integer')) && format !== '' && stringOrSlice) return ok();
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) return invalidType(path, types.join(','), schType);
  return ok();
}

function validateString(s: JsonSchema, data: string, path: string): OpenApiResult {
  const length = [...data].length;
  const maxLength = num(s, 'maxLength');
  if (maxLength !== undefined && length > maxLength) return fail('tooLong', path, data, `${path} in ${inBody} should be at most ${maxLength} chars long`, { valid: maxLength });
  const minLength = num(s, 'minLength');
  if (minLength !== undefined && length < minLength) return fail('other', path, data, `${path} in ${inBody} should be at least ${minLength} chars long`);
  const pattern = str(s, 'pattern');
  if (pattern !== '') {
    const compiled = compileGoRegexp(pattern);
    if ('error' in compiled) return fail('other', path, data, `${path} in ${inBody} should match '${pattern}, but pattern is invalid: ${compiled.error}'`);
    if (!compiled.re.test(data)) return fail('other', path, data, `${path} in ${inBody} should match '${pattern}'`);
  }
  return ok();
}

/** swag.IsFloat64AJSONInteger. */
function isJsonInteger(f: number): boolean {
  if (!Number.isFinite(f)) return false;
  const g = Math.trunc(f);
  if (f === g) return true;
  const diff = Math.abs(f - g);
  return diff / Math.min(Math.abs(f) + Math.abs(g), Number.MAX_VALUE) < 1e-9;
}

function validateNumber(s: JsonSchema, data: number, path: string): OpenApiResult {
  const res: OpenApiResult = { errors: [], matchCount: 0 };
  const isInt = Number.isInteger(data);
  const shown = (x: number): string => (isInt ? goNumber(Math.trunc(x)) : goFloat(x));
  const multipleOf = num(s, 'multipleOf');
  if (multipleOf !== undefined) {
    if (multipleOf < 0) merge(res, fail('other', path, multipleOf, `factor MultipleOf declared for ${path} must be positive: ${shown(multipleOf)}`));
    else if (isInt && Number.isInteger(multipleOf) && multipleOf !== 0) {
      if (data % multipleOf !== 0) merge(res, fail('other', path, data, `${path} in ${inBody} should be a multiple of ${goNumber(multipleOf)}`));
    } else if (!isJsonInteger(multipleOf < 1 ? (1 / multipleOf) * data : data / multipleOf)) {
      merge(res, fail('other', path, data, `${path} in ${inBody} should be a multiple of ${goFloat(multipleOf)}`));
    }
  }
  const exclusiveMin = s.exclusiveMinimum === true;
  const minimum = num(s, 'minimum');
  if (minimum !== undefined) {
    const bound = isInt ? Math.trunc(minimum) : minimum;
    if (exclusiveMin ? data <= bound : data < bound) merge(res, fail('other', path, data, `${path} in ${inBody} should be greater than ${exclusiveMin ? '' : 'or equal to '}${shown(minimum)}`));
  }
  const exclusiveMax = s.exclusiveMaximum === true;
  const maximum = num(s, 'maximum');
  if (maximum !== undefined) {
    const bound = isInt ? Math.trunc(maximum) : maximum;
    if (exclusiveMax ? data >= bound : data > bound) merge(res, fail('other', path, data, `${path} in ${inBody} should be less than ${exclusiveMax ? '' : 'or equal to '}${shown(maximum)}`));
  }
  res.matchCount += 1;
  return res;
}

function validateSlice(s: JsonSchema, data: unknown[], path: string, opts: OpenApiOptions): OpenApiResult {
  const res: OpenApiResult = { errors: [], matchCount: 0 };
  const items = itemsSchema(s);
  if (items !== undefined) data.forEach((v, i) => merge(res, validateValue(items, v, `${path}[${i}]`, opts)));
  const minItems = num(s, 'minItems');
  if (minItems !== undefined && data.length < minItems) merge(res, fail('other', path, data.length, `${path} in ${inBody} should have at least ${minItems} items`));
  const maxItems = num(s, 'maxItems');
  if (maxItems !== undefined && data.length > maxItems) merge(res, fail('maxItems', path, data.length, `${path} in ${inBody} should have at most ${maxItems} items`, { valid: maxItems }));
  if (s.uniqueItems === true && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) merge(res, fail('other', path, undefined, `${path} in ${inBody} shouldn't contain duplicates`));
  res.matchCount += 1;
  return res;
}

/** Go's reflect conversion of the value to the enum value's type, then DeepEqual. */
function enumMatches(data: unknown, enumValue: unknown): boolean {
  if (enumValue === null || enumValue === undefined || data === null || data === undefined) return false;
  if (typeof enumValue === 'number' && typeof data === 'number') return (Number.isInteger(enumValue) ? Math.trunc(data) : data) === enumValue;
  if (typeof enumValue === 'string' && typeof data === 'number' && Number.isInteger(data)) return String.fromCodePoint(data) === enumValue;
  return jsonEqual(data, enumValue);
}

function validateEnum(s: JsonSchema, data: unknown, path: string): OpenApiResult {
  const values = Array.isArray(s.enum) ? (s.enum as unknown[]) : [];
  if (values.length === 0 || values.some((e) => enumMatches(data, e))) return ok();
  return fail('enum', path, data, `${path} in ${inBody} should be one of ${goList(values)}`, { values });
}

function validateObject(s: JsonSchema, data: Record<string, unknown>, path: string, opts: OpenApiOptions): OpenApiResult {
  const keys = Object.keys(data);
  const minProperties = num(s, 'minProperties');
  if (minProperties !== undefined && keys.length < minProperties) return fail('other', path, keys.length, `${path} in ${inBody} should have at least ${minProperties} properties`);
  const maxProperties = num(s, 'maxProperties');
  if (maxProperties !== undefined && keys.length > maxProperties) return fail('tooManyProperties', path, keys.length, `${path} in ${inBody} should have at most ${maxProperties} properties`, { valid: maxProperties });
  const res: OpenApiResult = { errors: [], matchCount: 0 };
  const props = properties(s);
  const additional = additionalProperties(s);
  for (const key of keys) {
    if (key in props) continue;
    if (additional !== undefined && !additional.allows) merge(res, fail('other', path, key, `${path}.${key} in ${inBody} is a forbidden property`));
    else if (additional?.schema !== undefined) merge(res, validateValue(additional.schema, data[key], `${path}.${key}`, opts));
  }
  for (const [name, schema] of Object.entries(props)) {
    if (name in data) merge(res, validateValue(schema, data[name], path === '' ? name : `${path}.${name}`, opts));
  }
  for (const name of strings(s, 'required')) {
    if (!(name in data)) merge(res, fail('required', `${path}.${name}`, undefined, `${path}.${name} in ${inBody} is required`));
  }
  return res;
}

function composite(message: string): OpenApiResult {
  return { errors: [{ kind: 'composite', message }], matchCount: 0 };
}

/** schemaPropsValidator: anyOf, oneOf, allOf, not, each branch validated at the same path. */
function validateSchemaProps(s: JsonSchema, data: unknown, path: string, opts: OpenApiOptions): OpenApiResult {
  const main: OpenApiResult = { errors: [], matchCount: 0 };
  const quoted = JSON.stringify(path);
  const anyOf = schemaList(s, 'anyOf');
  if (anyOf.length > 0) {
    let best: OpenApiResult | undefined;
    let success: OpenApiResult | undefined;
    for (const branch of anyOf) {
      const r = validateValue(branch, data, path, opts);
      if (r.errors.length === 0) {
        best = undefined;
        success = r;
        break;
      }
      if (best === undefined || r.matchCount > best.matchCount) best = r;
    }
    if (success === undefined) merge(main, composite(`${quoted} must validate at least one schema (anyOf)`));
    if (best !== undefined) merge(main, best);
    else if (success !== undefined) merge(main, success);
  }
  const oneOf = schemaList(s, 'oneOf');
  if (oneOf.length > 0) {
    let best: OpenApiResult | undefined;
    let success: OpenApiResult | undefined;
    let validated = 0;
    for (const branch of oneOf) {
      const r = validateValue(branch, data, path, opts);
      if (r.errors.length === 0) {
        validated++;
        best = undefined;
        success ??= r;
        continue;
      }
      if (validated === 0 && (best === undefined || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      const detail = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      merge(main, composite(`${quoted} must validate one and only one schema (oneOf). ${detail}`));
      if (best !== undefined) merge(main, best);
    } else if (success !== undefined) merge(main, success);
  }
  const allOf = schemaList(s, 'allOf');
  if (allOf.length > 0) {
    let validated = 0;
    for (const branch of allOf) {
      const r = validateValue(branch, data, path, opts);
      if (r.errors.length === 0) validated++;
      merge(main, r);
    }
    if (validated !== allOf.length) merge(main, composite(`${quoted} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`));
  }
  if (isObject(s.not) && validateValue(s.not, data, path, opts).errors.length === 0) merge(main, composite(`${quoted} must not validate the schema (not)`));
  main.matchCount += 1;
  return main;
}

/**
 * Validates `data` (decoded JSON) against one schema node whose value kube-openapi names `path`
 * ('' at the root). Never throws; errors come in kube-openapi's order.
 */
export function validateValue(s: JsonSchema, data: unknown, path: string, opts: OpenApiOptions): OpenApiResult {
  const types = typeList(s);
  const format = opts.stripFormats ? effectiveFormat(types.length === 1 ? (types[0] ?? '') : '', str(s, 'format')) : str(s, 'format');
  const result: OpenApiResult = { errors: [], matchCount: 0 };
  const applies = types.length > 0 || format !== '';
  if (data === null || data === undefined) {
    if (applies) merge(result, validateType(types, format, s.nullable === true, data, path));
    return merge(result, validateEnum(s, data, path));
  }
  const step = (r: OpenApiResult): void => {
    merge(result, r);
    result.matchCount += 1;
  };
  if (applies) step(validateType(types, format, s.nullable === true, data, path));
  step(validateSchemaProps(s, data, path, opts));
  if (typeof data === 'string') {
    step(validateString(s, data, path));
    if (format !== '' && isKnownFormat(format) && !formatValid(format, data)) step(invalidType(path, format, data));
  }
  if (typeof data === 'number') step(validateNumber(s, data, path));
  if (Array.isArray(data)) step(validateSlice(s, data, path, opts));
  step(validateEnum(s, data, path));
  if (isObject(data)) step(validateObject(s, data, path, opts));
  result.matchCount += 1;
  return result;
}
