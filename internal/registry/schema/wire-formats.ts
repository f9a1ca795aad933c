// What Kubernetes' Go types accept when they decode a JSON value of a given OpenAPI type and
// format: an int32 field refuses 2147483648, a Quantity refuses "1Qi", a Time refuses "yesterday",
// a []byte refuses what is not base64. A value that passes here can be decoded by every Go client.
// Each check answers undefined or the error text Go's decoder gives (without its "json: " framing
// where the type's own UnmarshalJSON speaks).
import type { FieldSchema } from './field-schema.ts';
import { parseQuantity } from './quantity.ts';

const int32Range = [-(2 ** 31), 2 ** 31 - 1] as const;

/** The Go type a schema node decodes into, as Go's decoder names it in its errors. */
export function goTypeName(s: FieldSchema): string {
  if (s.definition !== undefined) {
    const parts = s.definition.split('.');
    return `${parts.at(-2) ?? ''}.${parts.at(-1) ?? ''}`;
  }
  switch (s.type) {
    case 'integer':
      return s.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${s.items === undefined ? 'interface {}' : goTypeName(s.items)}`;
    case 'object':
      return s.additionalProperties === undefined ? 'map[string]interface {}' : `map[string]${goTypeName(s.additionalProperties)}`;
    case 'string':
      return s.format === 'byte' ? '[]uint8' : 'string';
    case 'int-or-string':
      return 'intstr.IntOrString';
    case 'any':
      return 'interface {}';
  }
}

/**
 * Whether an integer fits the node's Go type (int32, else int64). A JSON number is read as a
 * double: 2^63 - 1 reads as 2^63 and -2^63 stays itself, and both are written back as
 * ±9223372036854776000, past int64, so an int64 must be strictly inside ±2^63.
 */
export function integerInRange(s: FieldSchema, n: number): boolean {
  if (s.format === 'int32') return n >= int32Range[0] && n <= int32Range[1];
  return n > -(2 ** 63) && n < 2 ** 63;
}

/** Why `text` is not a Kubernetes quantity (apimachinery's error text), or undefined when it is. */
export function quantityError(text: string): string | undefined {
  // Quantity.UnmarshalJSON trims the text before parsing it.
  return parseQuantity(text.trim()).error;
}

/** The text kube-apiserver stores for a quantity written as `text` (a JSON number as its text), or undefined when it is none. */
export function canonicalQuantity(text: string): string | undefined {
  return parseQuantity(text.trim()).canonical;
}

// RFC 3339 as Go's time.Parse(time.RFC3339, ...) takes it: fractional seconds allowed, a zone required.
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The days of `month` (1-12) in `year`, leap years counted as Go's time package counts them. */
function daysIn(month: number, year: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/**
 * Why `text` is not an RFC 3339 time (metav1.Time, metav1.MicroTime), or undefined when it is: a
 * value out of its range is refused in Go's words, the day by its month (February 30 is no time a
 * Go or Python client can decode), a zone offset past 24 hours or 60 minutes as Go refuses it.
 */
export function timeError(text: string): string | undefined {
  const m = rfc3339.exec(text);
  if (m === null) return `parsing time ${JSON.stringify(text)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(text)} as "2006"`;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  const [zoneHour = 0, zoneMinute = 0] = m[8] === 'Z' ? [] : (m[8] ?? '').slice(1).split(':').map(Number);
  const outOfRange =
    month < 1 || month > 12 ? 'month'
    : hour >= 24 ? 'hour'
    : minute >= 60 ? 'minute'
    : second >= 60 ? 'second'
    : zoneHour > 24 ? 'time zone offset hour'
    : zoneMinute > 60 ? 'time zone offset minute'
    : day < 1 || day > daysIn(month, year) ? 'day'
    : undefined;
  return outOfRange === undefined ? undefined : `parsing time ${JSON.stringify(text)}: ${outOfRange} out of range`;
}

/** Why `text` is not standard padded base64 (Go's []byte), or undefined when it is. */
export function base64Error(text: string): string | undefined {
  // Go's decoder skips line breaks.
  const data = text.replace(/[\r\n]/g, '');
  const bad = data.search(/[^A-Za-z0-9+/=]/);
  const padding = data.indexOf('=');
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`;
  if (padding >= 0 && (!/^=*$/.test(data.slice(padding)) || data.length - padding > 2)) return `illegal base64 data at input byte ${padding}`;
  if (data.length % 4 !== 0) return `illegal base64 data at input byte ${data.length - (data.length % 4)}`;
  return undefined;
}

const decimalScales: Readonly<Record<string, number>> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const binaryScales: Readonly<Record<string, number>> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

/**
 * The value of a quantity (in its base unit: cores, bytes), close enough to compare two of them,
 * or undefined when `text` is not a quantity.
 */
export function quantityValue(text: string | number): number | undefined {
  if (typeof text === 'number') return text;
  const canonical = canonicalQuantity(text);
  if (canonical === undefined) return undefined;
  // Canonical text, or text the parser kept as written: a plain number, then its suffix.
  const [, number = '', suffix = ''] = /^([+-]?[0-9]*\.?[0-9]*)(.*)$/.exec(canonical) ?? [];
  const scale = decimalScales[suffix] ?? binaryScales[suffix] ?? 10 ** Number(suffix.slice(1));
  return Number(number) * scale;
}
