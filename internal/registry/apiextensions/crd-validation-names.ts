// The parts of ValidateCustomResourceDefinition (apiextensions-apiserver 1.28) about names and
// per-version presentation: spec.names and status.acceptedNames, subresources (scale paths),
// additionalPrinterColumns and a version's deprecationWarning.
import { dns1035Label } from '../admissionregistration/go-values.ts';
import { invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { isObject } from './schema/schema-props.ts';

type Entry = Record<string, unknown>;

function text(o: Entry, key: string): string {
  const v = o[key];
  return typeof v === 'string' ? v : '';
}

/** ValidateCustomResourceDefinitionNames: each name shaped like a DNS-1035 label (kinds in any case). */
export function validateNames(names: unknown, path: string): FieldError[] {
  const n: Entry = isObject(names) ? names : {};
  const errors: FieldError[] = [];
  for (const key of ['plural', 'singular']) {
    const v = text(n, key);
    const problems = dns1035Label(v);
    if (v !== '' && problems.length > 0) errors.push(invalidValue(`${path}.${key}`, v, problems.join(',')));
  }
  for (const key of ['kind', 'listKind']) {
    const v = text(n, key);
    const problems = dns1035Label(v.toLowerCase());
    if (v !== '' && problems.length > 0) errors.push(invalidValue(`${path}.${key}`, v, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
  }
  const list = (key: string): unknown[] => (Array.isArray(n[key]) ? (n[key] as unknown[]) : []);
  list('shortNames').forEach((s, i) => {
    const problems = dns1035Label(String(s));
    if (problems.length > 0) errors.push(invalidValue(`${path}.shortNames[${i}]`, s, problems.join(',')));
  });
  const kind = text(n, 'kind');
  if (kind !== '' && kind === text(n, 'listKind')) errors.push(invalidValue(`${path}.listKind`, kind, 'kind and listKind may not be the same'));
  list('categories').forEach((c, i) => {
    const problems = dns1035Label(String(c));
    if (problems.length > 0) errors.push(invalidValue(`${path}.categories[${i}]`, c, problems.join(',')));
  });
  return errors;
}

/** The names spec.names must have (status.acceptedNames may lack them). */
export function requiredNames(names: unknown, path: string): FieldError[] {
  const n: Entry = isObject(names) ? names : {};
  return ['plural', 'singular', 'kind', 'listKind'].filter((k) => text(n, k) === '').map((k) => required(`${path}.${k}`));
}

/** validateSimpleJSONPath: a path starting with a dot. */
export function validateSimpleJsonPath(s: string, path: string): FieldError[] {
  if (s === '') return [invalidValue(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalidValue(path, s, 'must be a simple json path starting with .')];
  return [];
}

function validateReplicasPath(value: string, path: string, prefix: string, detail: string): FieldError[] {
  if (value === '') return [required(path)];
  const errors = validateSimpleJsonPath(value, path);
  if (errors.length > 0) return errors;
  return value.startsWith(prefix) ? [] : [invalidValue(path, value, detail)];
}

/** ValidateCustomResourceDefinitionSubresources: the scale subresource's paths. */
export function validateSubresources(subresources: unknown, path: string): FieldError[] {
  if (!isObject(subresources) || !isObject(subresources.scale)) return [];
  const scale = subresources.scale;
  const errors = [
    ...validateReplicasPath(text(scale, 'specReplicasPath'), `${path}.scale.specReplicasPath`, '.spec.', 'should be a json path under .spec'),
    ...validateReplicasPath(text(scale, 'statusReplicasPath'), `${path}.scale.statusReplicasPath`, '.status.', 'should be a json path under .status'),
  ];
  const selector = text(scale, 'labelSelectorPath');
  if (selector !== '') {
    const at = `${path}.scale.labelSelectorPath`;
    const pathErrors = validateSimpleJsonPath(selector, at);
    if (pathErrors.length > 0) errors.push(...pathErrors);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) errors.push(invalidValue(at, selector, 'should be a json path under either .spec or .status'));
  }
  return errors;
}

const columnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** ValidateCustomResourceColumnDefinition: one printer column (kube names its path `JSONPath`). */
export function validateColumn(column: unknown, path: string): FieldError[] {
  const c: Entry = isObject(column) ? column : {};
  const errors: FieldError[] = [];
  if (text(c, 'name') === '') errors.push(required(`${path}.name`));
  const type = text(c, 'type');
  const typeDetail = `must be one of ${columnTypes.join(',')}`;
  if (type === '') errors.push(required(`${path}.type`, typeDetail));
  else if (!columnTypes.includes(type)) errors.push(invalidValue(`${path}.type`, type, typeDetail));
  const format = text(c, 'format');
  if (format !== '' && !columnFormats.includes(format)) errors.push(invalidValue(`${path}.format`, format, `must be one of ${columnFormats.join(',')}`));
  const jsonPath = text(c, 'jsonPath');
  if (jsonPath === '') errors.push(required(`${path}.JSONPath`));
  else errors.push(...validateSimpleJsonPath(jsonPath, `${path}.JSONPath`));
  return errors;
}

/** Go's unicode.IsControl. */
function isControl(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

/** Go's unicode.IsPrint, approximately: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(ch: string): boolean {
  return ch === ' ' || /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(ch);
}

/** validateDeprecationWarning: set only on deprecated versions, 1 to 256 bytes of printable text. */
export function validateDeprecationWarning(version: Entry, path: string): FieldError[] {
  const warning = version.deprecationWarning;
  if (warning === undefined || warning === null) return [];
  const at = `${path}.deprecationWarning`;
  if (version.deprecated !== true) return [invalidValue(at, warning, 'can only be set for deprecated versions')];
  const w = String(warning);
  const problems: string[] = [];
  if (Buffer.byteLength(w) > 256) problems.push('must be <= 256 characters long');
  if (w === '') problems.push('must not be an empty string');
  let index = 0;
  for (const ch of w) {
    const cp = ch.codePointAt(0) ?? 0;
    if (!isPrint(ch)) {
      problems.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
      break;
    }
    if (isControl(cp)) {
      problems.push(`must only contain printable UTF-8 characters; control character found at index ${index}`);
      break;
    }
    index += Buffer.byteLength(ch);
  }
  return problems.map((p) => invalidValue(at, w, p));
}
