/**
 * Query parameters read as kube-apiserver reads them. Its parameter codec converts each parameter
 * from the request's values with k8s.io/apimachinery's string conversions (runtime/conversion.go):
 * only the first value counts (`dryRun` alone takes them all), a bool is false only when absent,
 * "0" or "false" in any case, and an integer is what Go's strconv.ParseInt accepts, its failure a
 * 400 carrying Go's message. Every handler reads its parameters through here.
 */
import { badRequest } from '../registry/errors/status-error.ts';

/** Go's strconv.Quote: a double-quoted string, `"` and `\` escaped, what unicode.IsPrint refuses as \x, \u or \U escapes. */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (isGoPrintable(ch)) out += ch;
    else if (cp < 0x20 || cp === 0x7f) out += shortEscapes[cp] ?? `\\x${hex(cp, 2)}`;
    else out += cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/** Go's unicode.IsPrint for one character: a letter, mark, number, punctuation, symbol or the ASCII space. */
export function isGoPrintable(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

const shortEscapes: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * A bool parameter (Convert_Slice_string_To_bool): false when absent, "0" or (case-folded)
 * "false"; anything else is true, an empty value (`?watch=` or a bare `?watch`) included.
 */
export function boolParam(query: URLSearchParams, name: string): boolean {
  return optionalBoolParam(query, name) ?? false;
}

/** A *bool parameter (Convert_Slice_string_To_Pointer_bool): undefined when absent, else as boolParam. */
export function optionalBoolParam(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  return !(value === '0' || foldsToFalse(value));
}

/** Go's strings.EqualFold(value, "false"): simple case folding, where 'ſ' (U+017F) folds to 's'. */
function foldsToFalse(value: string): boolean {
  return /^[fF][aA][lL][sS\u017f][eE]$/u.test(value);
}

const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

/** Go's strconv.ParseInt(text, 10, 64): the value, or why it fails. */
function parseInt64(text: string): bigint | 'invalid syntax' | 'value out of range' {
  const negative = text.startsWith('-');
  const digits = negative || text.startsWith('+') ? text.slice(1) : text;
  if (digits === '') return 'invalid syntax';
  let n = 0n;
  for (const ch of digits) {
    if (ch < '0' || ch > '9') return 'invalid syntax';
    n = n * 10n + BigInt(ch);
    // ParseUint stops at the first digit that overflows 64 bits, before any later syntax error.
    if (n > uint64Max) return 'value out of range';
  }
  if (negative ? n > int64Max + 1n : n > int64Max) return 'value out of range';
  return negative ? -n : n;
}

/**
 * An int64 parameter (Convert_Slice_string_To_int64), or undefined when absent; 400 with Go's
 * message (`strconv.ParseInt: parsing "x": invalid syntax`) when ParseInt refuses it, an empty
 * value included. Values past ±(2^53 - 1) are clamped to it: every such parameter is a count or a
 * number of seconds, for which nothing tells those values apart.
 */
export function int64Param(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const n = parseInt64(value);
  if (typeof n === 'string') throw badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: ${n}`);
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  return Number(n > safe ? safe : n < -safe ? -safe : n);
}

/** Go's time package quoting of a duration in its errors: non-ASCII and control bytes as \xNN. */
function timeQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x20 || cp >= 0x80) for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${hex(byte, 2)}`;
    else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

/** Nanoseconds per unit of a Go duration. */
const durationUnits: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n], ['us', 1_000n], ['\u00b5s', 1_000n], ['\u03bcs', 1_000n], ['ms', 1_000_000n], ['s', 1_000_000_000n], ['m', 60_000_000_000n], ['h', 3_600_000_000_000n],
]);

const twoTo63 = 2n ** 63n;

/** The digits `text` starts with as a number (undefined past 2^63, as Go's leadingInt), and their count. */
function leadingInt(text: string): { value: bigint | undefined; length: number } {
  const digits = /^[0-9]*/.exec(text)?.[0] ?? '';
  const value = BigInt(digits === '' ? 0 : digits);
  return { value: value > twoTo63 ? undefined : value, length: digits.length };
}

/** The fraction digits `text` starts with: their value and scale, digits past 63 bits ignored (Go's leadingFraction). */
function leadingFraction(text: string): { value: bigint; scale: number; length: number } {
  const digits = /^[0-9]*/.exec(text)?.[0] ?? '';
  let value = 0n;
  let scale = 1;
  let overflow = false;
  for (const ch of digits) {
    const next = value * 10n + BigInt(ch);
    if (overflow || value > (twoTo63 - 1n) / 10n || next > twoTo63) {
      overflow = true;
      continue;
    }
    value = next;
    scale *= 10;
  }
  return { value, scale, length: digits.length };
}

/**
 * Go's time.ParseDuration (`300ms`, `-1.5h`, `2h45m`, `1h2m3.5s`; units ns, us, µs, ms, s, m, h),
 * in nanoseconds. Throws an Error with Go's message when it is not one.
 */
export function parseGoDuration(text: string): bigint {
  const invalid = (): Error => new Error(`time: invalid duration ${timeQuote(text)}`);
  let s = text;
  const negative = s.startsWith('-');
  if (negative || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) throw invalid();
    const whole = leadingInt(s);
    if (whole.value === undefined) throw invalid();
    s = s.slice(whole.length);
    let fraction = { value: 0n, scale: 1, length: 0 };
    if (s.startsWith('.')) {
      fraction = leadingFraction(s.slice(1));
      s = s.slice(1 + fraction.length);
    }
    if (whole.length === 0 && fraction.length === 0) throw invalid();
    const unitLength = /^[^0-9.]*/.exec(s)?.[0].length ?? 0;
    if (unitLength === 0) throw new Error(`time: missing unit in duration ${timeQuote(text)}`);
    const unitName = s.slice(0, unitLength);
    s = s.slice(unitLength);
    const unit = durationUnits.get(unitName);
    if (unit === undefined) throw new Error(`time: unknown unit ${timeQuote(unitName)} in duration ${timeQuote(text)}`);
    if (whole.value > twoTo63 / unit) throw invalid();
    let v = whole.value * unit;
    if (fraction.value > 0n) v += BigInt(Math.trunc(Number(fraction.value) * (Number(unit) / fraction.scale)));
    total += v;
    if (v > twoTo63 || total > twoTo63) throw invalid();
  }
  if (negative) return -total;
  if (total > twoTo63 - 1n) throw invalid();
  return total;
}

/**
 * How long a request that is not long-running may take (kube-apiserver's WithRequestDeadline):
 * `timeout` when it is a positive Go duration shorter than `maxMs`, else `maxMs` (absent, empty,
 * 0s or longer); 400 when it is not a Go duration.
 */
export function requestTimeoutMs(query: URLSearchParams, maxMs: number): number {
  const value = query.get('timeout');
  if (value === null || value === '') return maxMs;
  let ns: bigint;
  try {
    ns = parseGoDuration(value);
  } catch (err) {
    throw badRequest(`invalid timeout specified in the request URL - ${(err as Error).message}`);
  }
  const ms = Number(ns) / 1e6;
  return ms > 0 && ms < maxMs ? ms : maxMs;
}

/** Go's strconv.ParseBool, undefined for what it refuses. */
export function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/**
 * Whether to indent a response (responsewriters' isPrettyPrint): a non-empty `pretty` decides, by
 * strconv.ParseBool (a value it refuses is false); else curl, Wget and browsers get it.
 */
export function prettyOf(query: URLSearchParams, userAgent: string | undefined): boolean {
  const value = query.get('pretty');
  if (value !== null && value !== '') return parseGoBool(value) ?? false;
  const agent = userAgent ?? '';
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}
