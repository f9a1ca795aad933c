// Go's text forms of time: metav1.Time (RFC 3339, seconds), metav1.MicroTime (RFC 3339 with six
// fraction digits) and metav1.Duration (time.Duration's String and ParseDuration).

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** The digits at text[from, from + count) as a number, or NaN if one is not a digit. */
function digitsAt(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** Seconds since the epoch of a UTC date and time (years 0000-9999, as Go's RFC 3339 allows); undefined if a part is out of range. */
function utcSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number): number | undefined {
  if (!(month >= 1 && month <= 12 && hour <= 23 && minute <= 59 && second <= 59 && day >= 1)) return undefined;
  if (day > (month === 2 && isLeapYear(year) ? 29 : (monthDays[month - 1] as number))) return undefined;
  // Days from 1970-01-01 to the date in the proleptic Gregorian calendar (March-based years).
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146097 + dayOfEra - 719468;
  return days * 86400 + hour * 3600 + minute * 60 + second;
}

/** `2006-01-02T15:04:05Z`, the form metav1.Time always has in orch's JSON, without a regular expression. */
function parseUtcSeconds(text: string): { seconds: number; nanos: number } | undefined {
  if (text.length !== 20 || text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== 'Z') return undefined;
  const seconds = utcSeconds(digitsAt(text, 0, 4), digitsAt(text, 5, 2), digitsAt(text, 8, 2), digitsAt(text, 11, 2), digitsAt(text, 14, 2), digitsAt(text, 17, 2));
  return seconds === undefined ? undefined : { seconds, nanos: 0 };
}

/** Seconds since the epoch and nanoseconds of an RFC 3339 time; undefined if it is not one. */
export function parseRfc3339(text: string): { seconds: number; nanos: number } | undefined {
  const utc = parseUtcSeconds(text);
  if (utc !== undefined) return utc;
  const m = rfc3339.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m as unknown as string[];
  const local = utcSeconds(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
  if (local === undefined) return undefined;
  let offsetSeconds = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') offsetSeconds = (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60);
  const nanos = fraction === undefined ? 0 : Number(fraction.slice(1).padEnd(9, '0'));
  return { seconds: local - offsetSeconds, nanos };
}

function utcPrefix(seconds: number): string | undefined {
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(date.getTime()) || year < 0 || year > 9999) return undefined;
  return date.toISOString().slice(0, 19);
}

/** metav1.Time's JSON: `2006-01-02T15:04:05Z` (the fraction dropped, as Go does); undefined if out of Go's range. */
export function formatTime(seconds: number): string | undefined {
  const prefix = utcPrefix(seconds);
  return prefix === undefined ? undefined : `${prefix}Z`;
}

/** metav1.MicroTime's JSON: `2006-01-02T15:04:05.000000Z`; undefined if out of Go's range. */
export function formatMicroTime(seconds: number, nanos: number): string | undefined {
  const prefix = utcPrefix(seconds);
  return prefix === undefined ? undefined : `${prefix}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

const unitNanos: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

const durationPart = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Nanoseconds of a Go duration string (`1h2m3.5s`, `300ms`, `-1m`, `0`); undefined if it is not one. */
export function parseGoDuration(text: string): number | undefined {
  let i = 0;
  let sign = 1;
  if (text.startsWith('-') || text.startsWith('+')) {
    sign = text.startsWith('-') ? -1 : 1;
    i = 1;
  }
  if (text.slice(i) === '0') return 0;
  if (i >= text.length) return undefined;
  let total = 0;
  while (i < text.length) {
    durationPart.lastIndex = i;
    const m = durationPart.exec(text);
    if (m === null) return undefined;
    total += Number(m[1]) * (unitNanos[m[2] ?? ''] ?? 0);
    i = durationPart.lastIndex;
  }
  return Math.round(sign * total);
}

function fractionText(value: number, scale: number): string {
  const whole = Math.floor(value / scale);
  const rest = value % scale;
  if (rest === 0) return String(whole);
  return `${whole}.${String(rest).padStart(String(scale).length - 1, '0').replace(/0+$/, '')}`;
}

/** Go's time.Duration.String of nanoseconds: `0s`, `1.5ms`, `1h0m0s`. */
export function formatGoDuration(nanos: number): string {
  if (nanos === 0) return '0s';
  const sign = nanos < 0 ? '-' : '';
  const n = Math.abs(nanos);
  if (n < 1e3) return `${sign}${n}ns`;
  if (n < 1e6) return `${sign}${fractionText(n, 1e3)}µs`;
  if (n < 1e9) return `${sign}${fractionText(n, 1e6)}ms`;
  const hours = Math.floor(n / 3600e9);
  const minutes = Math.floor((n % 3600e9) / 60e9);
  const seconds = fractionText(n % 60e9, 1e9);
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}
