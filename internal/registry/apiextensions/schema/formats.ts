// The string formats kube-apiserver 1.28 checks in custom objects: kube-openapi's strfmt default
// registry, restricted to the formats CRDs support (StripUnsupportedFormatsPostProcess). Names are
// compared without dashes ("date-time" is "datetime"), as go-openapi normalizes them.
import { parseGoUrl } from '../../admissionregistration/go-url.ts';
import { parseIpSloppy } from '../../schema/ip-address.ts';

/** The string formats a CRD schema may name and kube validates; others are ignored. */
export const supportedStringFormats: ReadonlySet<string> = new Set([
  'bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5',
  'isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password', 'date', 'duration', 'datetime',
]);

/** A format name as go-openapi's registry keys it. */
export function normalizeFormat(format: string): string {
  return format.replaceAll('-', '');
}

/**
 * The format kube keeps for a schema of `type` (StripUnsupportedFormatsPostProcess): supported
 * string formats on strings or untyped schemas, int32/int64 on integers, float/double on numbers.
 */
export function effectiveFormat(type: string, format: string): string {
  if (format === '') return '';
  if (type === '' || type === 'string') return supportedStringFormats.has(normalizeFormat(format)) ? format : '';
  if (type === 'integer') return format === 'int32' || format === 'int64' ? format : '';
  if (type === 'number') return format === 'float' || format === 'double' ? format : '';
  return '';
}

const hostnameRe = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z0-9\p{S}\p{L}])(-?[a-zA-Z0-9\p{S}\p{L}]){1,62})$/u;
const uuidRes: Record<string, RegExp> = {
  uuid: /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i,
  uuid3: /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i,
  uuid4: /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i,
  uuid5: /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i,
};
const base64Re = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const rgbPart = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const rgbRe = new RegExp(`^rgb\\(${rgbPart},${rgbPart},${rgbPart}\\)$`);
const creditCardRe = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const emailRe = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

/** Go's net.ParseIP (1.17+: no leading zeros in IPv4 parts). */
function goParseIp(text: string): boolean {
  if (/(^|[.:])0\d/.test(text) && text.includes('.') && !text.includes(':')) return false;
  return parseIpSloppy(text) !== undefined;
}

/** Go's net.ParseCIDR. */
function goParseCidr(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const mask = text.slice(slash + 1);
  const bits = text.slice(0, slash).includes(':') ? 128 : 32;
  return goParseIp(text.slice(0, slash)) && /^\d+$/.test(mask) && Number(mask) <= bits && !(mask.length > 1 && mask.startsWith('0'));
}

/** Go's net.ParseMAC: 6, 8 or 20 octets separated by ':' or '-', or dotted groups of four hex digits. */
function goParseMac(text: string): boolean {
  const colon = /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2})*$/;
  if (colon.test(text)) return [6, 8, 20].includes(text.split(/[:-]/).length);
  if (/^[0-9a-fA-F]{4}(\.[0-9a-fA-F]{4})*$/.test(text)) return [3, 4, 10].includes(text.split('.').length);
  return false;
}

/** Go's url.ParseRequestURI: an absolute URI (scheme:...) or an absolute path, that Go parses. */
function goParseRequestUri(text: string): boolean {
  try {
    return parseGoUrl(text).scheme !== '' || text.startsWith('/');
  } catch {
    return false;
  }
}

/** Go's time.Parse("2006-01-02"). */
function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** strfmt's IsDateTime: a date, 't' (any case), hh:mm:ss, optional fraction, 'z' or an offset. */
function isDateTime(text: string): boolean {
  if (text.length < 4) return false;
  const parts = text.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] ?? '')) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/.exec(parts[1] ?? '');
  if (m === null) return false;
  return (m[1] ?? '') <= '23' && (m[2] ?? '') <= '59' && (m[3] ?? '') <= '59';
}

const goDurationRe = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const scalaDurationRe = /^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$/;
const durationUnits = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];

/** strfmt's ParseDuration: Go's time.ParseDuration, else the Scala-like "3 days" form. */
function isDuration(text: string): boolean {
  if (text === '0' || goDurationRe.test(text)) return true;
  if (!scalaDurationRe.test(text)) return false;
  for (const m of text.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = (m[2] ?? '').trim().toLowerCase();
    for (const variants of durationUnits) {
      if (variants.some((v, i) => (i === variants.length - 1 && unit.startsWith(v)) || v === unit)) return true;
    }
  }
  return false;
}

function isbn10(text: string): boolean {
  const s = text.replace(/[\s-]/g, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(s[i]);
  sum += s[9] === 'X' ? 100 : 10 * Number(s[9]);
  return sum % 11 === 0;
}

function isbn13(text: string): boolean {
  const s = text.replace(/[\s-]/g, '');
  if (!/^[0-9]{13}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(s[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(s[12]);
}

function creditCard(text: string): boolean {
  const s = text.replace(/[^0-9]/g, '');
  if (!creditCardRe.test(s)) return false;
  let sum = 0;
  let double = false;
  for (let i = s.length - 1; i >= 0; i--) {
    let d = Number(s[i]);
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const checks: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: goParseRequestUri,
  email: (s) => emailRe.test(s.trim()) || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(s.trim()),
  hostname: (s) => hostnameRe.test(s) && s.length <= 255 && s.split('.').every((p) => Buffer.byteLength(p) <= 63),
  ipv4: (s) => goParseIp(s) && s.includes('.'),
  ipv6: (s) => goParseIp(s) && s.includes(':'),
  cidr: goParseCidr,
  mac: goParseMac,
  isbn: (s) => isbn10(s) || isbn13(s),
  isbn10,
  isbn13,
  creditcard: creditCard,
  ssn: (s) => /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => rgbRe.test(s),
  byte: (s) => base64Re.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
  ...Object.fromEntries(Object.entries(uuidRes).map(([k, re]) => [k, (s: string) => re.test(s)])),
};

/** Whether kube-openapi's registry knows `format` (after normalization). */
export function isKnownFormat(format: string): boolean {
  return checks[normalizeFormat(format)] !== undefined;
}

/** Whether `text` is valid in `format`; true for formats the registry does not know. */
export function formatValid(format: string, text: string): boolean {
  const check = checks[normalizeFormat(format)];
  return check === undefined || check(text);
}
