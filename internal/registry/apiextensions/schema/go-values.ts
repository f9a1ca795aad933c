// Values as kube-apiserver's field errors print them. A custom object is decoded into Go's
// map[string]interface{} (integers as int64, other numbers as float64), and field.Error's body
// prints a string with %q, a number or bool with %v, nil as "null" (quoted) and anything else
// with %#v. These helpers render the same text from plain JSON.

/** Go's strconv.FormatFloat(x, 'g', -1, 64), which %v uses for a float64: 1e+06, 0.5, 1.5e-05. */
export function goFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa = '0', exponentText = '0'] = x.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    const digits = String(Math.abs(exponent)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(x);
}

/** A JSON number as the Go value kube decodes it to prints with %v: int64 in decimal, float64 as goFloat. */
export function goNumber(x: number): string {
  return Number.isInteger(x) && Math.abs(x) < 2 ** 63 ? BigInt(x).toString() : goFloat(x);
}

/** Go's %q of a string (JSON's quoting matches it for the text kube shows). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's %#v of a decoded JSON value: `map[string]interface {}{"a":1}`, `[]interface {}{"x"}`. */
export function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  const record = value as Record<string, unknown>;
  const entries = Object.keys(record).sort().map((k) => `${goQuote(k)}:${goSyntax(record[k])}`);
  return `map[string]interface {}{${entries.join(', ')}}`;
}

/**
 * A value as field.Error's body shows it: a string quoted, a number or bool plain, nil as "null",
 * a map or slice with %#v.
 */
export function goShown(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  return goSyntax(value);
}

/** A Go []string as %#v prints it: `[]string{"a", "b"}`. */
export function goStrings(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** Go's %v of a []interface{} (an enum's values in kube-openapi's message): `[a 1 true]`. */
export function goList(values: readonly unknown[]): string {
  return `[${values.map(goPlain).join(' ')}]`;
}

/** Go's %v of a decoded JSON value: strings bare, maps as `map[a:1]`, slices as `[a b]`. */
export function goPlain(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return goList(value);
  const record = value as Record<string, unknown>;
  return `map[${Object.keys(record).sort().map((k) => `${k}:${goPlain(record[k])}`).join(' ')}]`;
}
