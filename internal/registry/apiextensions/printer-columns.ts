// A custom resource's table (kube's customresource tableconvertor): `Name` first, then the
// version's additionalPrinterColumns, or `Age` (a date column of metadata.creationTimestamp) when
// it declares none. Each column's jsonPath is read as the client-go template `{<jsonPath>}` with
// missing keys allowed, and only its first result is shown: a `string` column prints it as
// client-go's jsonpath prints (objects and arrays as Go's JSON), other types keep a value of their
// own type (an integer column truncates a number), a `date` column shows the age of its timestamp,
// and no value (or one of another type, or an evaluation error) is a null cell, which kubectl shows
// as `<none>`.
import type { KObject, PrinterColumn } from '../schema/declaration.ts';
import { humanDuration } from '../schema/printers.ts';
import { findResults, parseColumnJsonPath, type JsonPath } from './jsonpath.ts';

/** ObjectMeta's documentation of `name` and `creationTimestamp` (kube takes them from its swagger docs). */
const nameDescription =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const creationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** A cell as kube writes it: null when the column has no value for the object. */
export type CustomCell = string | number | boolean | null;

type Entry = Record<string, unknown>;

/** Go's %v of a float64 that is not an integer (%g, shortest): exponent form below 1e-4 and from 1e6. */
/** Go's zero time, which a date column shows as `<unknown>`. */
const goZeroTime = Date.parse('0001-01-01T00:00:00Z');

function goFloat(value: number): string {
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return String(value);
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** Go's encoding/json: map keys sorted, and <, >, &, U+2028, U+2029 escaped. */
function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Entry)[k])]));
    return v;
  };
  const escapes: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
  return JSON.stringify(sorted(value)).replace(/[<>&\u2028\u2029]/g, (c) => escapes[c] ?? c);
}

/** How client-go's jsonpath prints one value taken out of its result (a JSON null: `<no value>`). */
function printed(value: unknown): string {
  if (value === null || value === undefined) return '<no value>';
  if (typeof value === 'object') return goJson(value);
  if (typeof value === 'number' && !Number.isInteger(value)) return goFloat(value);
  return String(value);
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A date cell: the age of an RFC 3339 timestamp, `<unknown>` for none, `<invalid>` for a bad one. */
function dateCell(text: string, now: Date): string {
  if (text === '' || text === 'null') return '<unknown>';
  const time = rfc3339.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(time)) return '<invalid>';
  if (time === goZeroTime) return '<unknown>';
  return humanDuration(now.getTime() - time);
}

/** kube's cellForJSONValue: the value when it has the column's type, else null. */
function typedCell(type: string, value: unknown, now: Date): CustomCell {
  if (type === 'integer' && typeof value === 'number') return Math.trunc(value);
  if (type === 'number' && typeof value === 'number') return value;
  if (type === 'boolean' && typeof value === 'boolean') return value;
  if (type === 'date' && typeof value === 'string') return dateCell(value, now);
  return null;
}

/** The cell of one object for a column of `type` reading `path`. */
export function customColumnCell(path: JsonPath, type: string, obj: unknown, now: Date): CustomCell {
  let first: unknown[] | undefined;
  try {
    first = findResults(path, obj, { allowMissingKeys: true })[0];
  } catch {
    return null;
  }
  if (first === undefined || first.length === 0) return null;
  return type === 'string' ? printed(first[0]) : typedCell(type, first[0], now);
}

/** The first column of every custom resource table. */
const customNameColumn: PrinterColumn = { name: 'Name', type: 'string', format: 'name', description: nameDescription, cell: (o: KObject) => o.metadata.name ?? '' };

/** The columns a version declares, or kube's default `Age` when it declares none. */
function declaredColumns(version: Entry): Entry[] {
  const declared = Array.isArray(version.additionalPrinterColumns) ? version.additionalPrinterColumns.filter((c): c is Entry => typeof c === 'object' && c !== null) : [];
  if (declared.length > 0) return declared;
  return [{ name: 'Age', type: 'date', description: creationTimestampDescription, jsonPath: '.metadata.creationTimestamp' }];
}

function text(entry: Entry, field: string): string {
  const value = entry[field];
  return typeof value === 'string' ? value : '';
}

/**
 * A CRD version's table columns, and kube's error for the first column whose jsonPath does not
 * parse (`unrecognized column definition "<jsonPath>"`): as kube, the columns before it are kept
 * and the rest dropped.
 */
export function customTableColumns(version: Record<string, unknown>): { columns: PrinterColumn[]; error?: string } {
  const columns: PrinterColumn[] = [customNameColumn];
  for (const column of declaredColumns(version)) {
    const jsonPath = text(column, 'jsonPath');
    const parsed = parseColumnJsonPath(jsonPath);
    if (parsed.path === undefined) return { columns, error: `unrecognized column definition ${JSON.stringify(jsonPath)}` };
    const path = parsed.path;
    const type = text(column, 'type');
    const description = text(column, 'description');
    columns.push({
      name: text(column, 'name'),
      type: type as PrinterColumn['type'],
      format: text(column, 'format'),
      description: description === '' ? `Custom resource definition column (in JSONPath format): ${jsonPath}` : description,
      priority: typeof column.priority === 'number' ? column.priority : 0,
      cell: (obj, now) => customColumnCell(path, type, obj, now),
    });
  }
  return { columns };
}

/** The printer columns of a CRD version (`spec.versions[i]`): Name, then its columns or Age. */
export function customPrinterColumns(version: Record<string, unknown>): PrinterColumn[] {
  return customTableColumns(version).columns;
}
