// k8s.io/apimachinery/pkg/api/resource's Quantity as kube-apiserver v1.28 decodes and re-encodes
// it: ParseQuantity (its byte scanner, its int64 fast path, its inf.Dec path rounding up to
// nano and capping binary values at 2^63-1) and MarshalJSON (the text given back unchanged when
// the fast path found it canonical, else CanonicalizeBytes: the same suffix family, no fraction,
// the largest suffix). A built-in kind stores what kube-apiserver stores: "0.5" becomes "500m",
// "1.5Gi" "1536Mi", "1000" "1k", while "1e3", "+1" and "01" are kept as written (the fast path
// keeps the text). Arithmetic is on digit strings: the text may be a few MiB long, and the result
// is computed in time linear in it.
import { decimalExponentOf, increment, multiplyByPowerOfTwo, stripTrailingZeros, type Decimal } from './quantity-decimal.ts';

/** How a quantity is written: the family of its suffix. */
export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';
type Format = QuantityFormat;

/** apimachinery's ErrFormatWrong, ErrNumeric and ErrSuffix texts. */
const errFormatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const errNumeric = 'unable to parse numeric part of quantity';
const errSuffix = "unable to parse quantity's suffix";

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalSuffixOf = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binarySuffixOf = new Map(Object.entries(binarySuffixes).map(([s, e]) => [e, s]));
const suffixCharacters = 'eEinumkKMGTP';
const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);
/** Go's maxInt64Factors: the decimal digits an int64 always holds. */
const int64DigitsMax = 18;
const nanoExponent = -9;

/** The parts of a quantity's text as apimachinery's scanner (parseQuantityString) cuts them. */
interface Scanned {
  readonly positive: boolean;
  /** The sign and number as written (leading zeros kept), for the inf.Dec path. */
  readonly value: string;
  /** The integer digits without leading zeros ("0" when none). */
  readonly num: string;
  /** The fraction digits. */
  readonly denom: string;
  readonly suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Cuts `text` as Go's scanner does; undefined where it answers ErrFormatWrong. */
function scan(text: string): Scanned | undefined {
  const end = text.length;
  let pos = 0;
  let positive = true;
  if (text[0] === '-' || text[0] === '+') {
    positive = text[0] === '+';
    pos++;
  }
  while (pos < end && text[pos] === '0') pos++;
  // Nothing but zeros after the sign: zero, whatever the sign.
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (isDigit(text[i])) i++;
  const num = text.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (text[pos] === '.') {
    i = ++pos;
    while (isDigit(text[i])) i++;
    denom = text.slice(pos, i);
    pos = i;
  }
  const value = text.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && suffixCharacters.includes(text[pos] as string)) pos++;
  if (text[pos] === '-' || text[pos] === '+') pos++;
  while (isDigit(text[pos])) pos++;
  return pos < end ? undefined : { positive, value, num, denom, suffix: text.slice(suffixStart) };
}

/** The base, exponent and format a suffix stands for (apimachinery's suffixer.interpret). */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: Format } | undefined {
  const decimal = decimalSuffixes[suffix];
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: 'DecimalSI' };
  const binary = binarySuffixes[suffix];
  if (binary !== undefined) return { base: 2, exponent: binary, format: 'BinarySI' };
  if (suffix.length < 2 || (suffix[0] !== 'e' && suffix[0] !== 'E') || !/^[+-]?[0-9]+$/.test(suffix.slice(1))) return undefined;
  // strconv.ParseInt(..., 64), then Go's int32 conversion of the result.
  const exponent = BigInt(suffix.slice(1));
  if (exponent > int64Max || exponent < int64Min) return undefined;
  return { base: 10, exponent: Number(BigInt.asIntN(32, exponent)), format: 'DecimalExponent' };
}

/** A quantity parsed: its text as kube-apiserver writes it back, or apimachinery's error. */
export type ParsedQuantity = { readonly canonical: string; readonly error?: undefined } | { readonly canonical?: undefined; readonly error: string };

/**
 * Parses a quantity's text (already trimmed, as Quantity.UnmarshalJSON trims it) as
 * apimachinery's ParseQuantity does, and gives the text MarshalJSON writes for it.
 */
export function parseQuantity(text: string): ParsedQuantity {
  if (text === '') return { error: errFormatWrong };
  if (text === '0') return { canonical: text };
  const scanned = scan(text);
  if (scanned === undefined) return { error: errFormatWrong };
  const unit = interpret(scanned.suffix);
  if (unit === undefined) return { error: errSuffix };
  return fastPath(text, scanned, unit) ?? slowPath(scanned, unit);
}

/**
 * Go's int64 path: taken when the digits fit an int64 at a scale of at least nano. The text is
 * kept when it is already canonical by Go's quick test (which "+1", "01" and "1e3" pass).
 */
function fastPath(text: string, s: Scanned, unit: { base: 2 | 10; exponent: number; format: Format }): ParsedQuantity | undefined {
  const binary = unit.base === 2;
  if (binary && s.denom !== '') return undefined;
  const precision = binary ? 15 - s.num.length - Math.trunc((unit.exponent * 3) / 10) - 1 : int64DigitsMax - (s.num.length + s.denom.length);
  if (precision < 0) return undefined;
  const scale = binary ? 0 : Number(BigInt.asIntN(32, BigInt(unit.exponent - s.denom.length)));
  if (scale < nanoExponent) return undefined;
  const shifted = s.num + s.denom;
  const digits = BigInt(shifted);
  const magnitude = binary ? digits << BigInt(unit.exponent) : digits;
  if (magnitude > int64Max) return undefined;
  const keep = binary ? (digits & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  if (keep) return { canonical: text };
  const amount: Decimal = { negative: !s.positive && magnitude !== 0n, digits: magnitude.toString(), exponent: scale };
  return { canonical: canonicalText(amount, unit.format) };
}

/** Go's inf.Dec path: exact, rounded up to nano (away from zero), binary values capped at 2^63-1. */
function slowPath(s: Scanned, unit: { base: 2 | 10; exponent: number; format: Format }): ParsedQuantity {
  const number = s.value.replace(/^[+-]/, '');
  // inf.Dec's scanner needs a digit.
  if (!/[0-9]/.test(number)) return { error: errNumeric };
  const [whole = '', fraction = ''] = number.split('.');
  let amount: Decimal = { negative: false, digits: (whole + fraction).replace(/^0+(?=.)/, '') || '0', exponent: -fraction.length };
  amount = unit.base === 10 ? { ...amount, exponent: amount.exponent + unit.exponent } : multiplyByPowerOfTwo(amount, unit.exponent);
  let format = unit.format;
  if (amount.digits !== '0') amount = roundUpToNano(amount);
  if (format === 'BinarySI' && compareWith(amount, int64Max) > 0) amount = { negative: false, digits: int64Max.toString(), exponent: 0 };
  if (format === 'BinarySI' && amount.digits !== '0' && compareWith(amount, 1n) < 0) format = 'DecimalSI';
  return { canonical: canonicalText({ ...amount, negative: !s.positive && amount.digits !== '0' }, format) };
}

/** `amount` rounded up (away from zero) to at most nine fraction digits. */
function roundUpToNano(amount: Decimal): Decimal {
  if (amount.exponent >= nanoExponent) return amount;
  const dropped = nanoExponent - amount.exponent;
  if (dropped >= amount.digits.length) return { ...amount, digits: '1', exponent: nanoExponent };
  const kept = amount.digits.slice(0, amount.digits.length - dropped);
  const rest = amount.digits.slice(amount.digits.length - dropped);
  return { ...amount, digits: /[1-9]/.test(rest) ? increment(kept) : kept, exponent: nanoExponent };
}

/** -1, 0 or 1 as the magnitude of `amount` is below, equal to or above `n` (n ≥ 0, below 10^20). */
function compareWith(amount: Decimal, n: bigint): number {
  if (amount.digits === '0') return n === 0n ? 0 : -1;
  const integerDigits = amount.digits.length + amount.exponent;
  if (integerDigits > 21) return 1;
  const whole = integerDigits <= 0 ? 0n : BigInt(amount.exponent >= 0 ? amount.digits + '0'.repeat(amount.exponent) : amount.digits.slice(0, integerDigits));
  if (whole !== n) return whole < n ? -1 : 1;
  return amount.exponent < 0 && /[1-9]/.test(amount.digits.slice(Math.max(0, integerDigits))) ? 1 : 0;
}

/**
 * CanonicalizeBytes: zero is "0"; a binary value below 1024 in magnitude or with a fraction is
 * written in DecimalSI; a binary value as the largest power of 1024 dividing it; a decimal one
 * without trailing zeros, its exponent lowered to a multiple of 3 and named by its suffix. A
 * DecimalSI exponent past 18 has no suffix and v1.28 writes none (1000E reads back as "1").
 */
export function canonicalText(amount: Decimal, format: Format): string {
  if (amount.digits === '0') return '0';
  const sign = amount.negative ? '-' : '';
  if (format === 'BinarySI') {
    const integral = amount.exponent >= 0 || !/[1-9]/.test(amount.digits.slice(amount.digits.length + amount.exponent));
    if (compareWith(amount, 1024n) < 0 || !integral) format = 'DecimalSI';
    else {
      let value = BigInt(amount.exponent >= 0 ? amount.digits + '0'.repeat(amount.exponent) : amount.digits.slice(0, amount.digits.length + amount.exponent));
      let power = 0;
      while (value >= 1024n && value % 1024n === 0n) {
        value /= 1024n;
        power += 10;
      }
      return `${sign}${value.toString()}${binarySuffixOf.get(power) ?? ''}`;
    }
  }
  const { digits, exponent } = decimalExponentOf(stripTrailingZeros(amount));
  const suffix = format === 'DecimalSI' ? (decimalSuffixOf.get(exponent) ?? '') : exponent === 0 ? '' : `e${exponent}`;
  return `${sign}${digits}${suffix}`;
}
