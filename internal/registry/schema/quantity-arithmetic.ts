// Quantities as numbers, for the admission plugins and controllers that add and compare them
// (LimitRanger, ResourceQuota): a quantity's exact value as a BigInt scaled by a power of ten,
// with its format, and the text kube-apiserver writes for a sum (Quantity.Add keeps the first
// operand's format; String() canonicalizes). Values are those ParseQuantity keeps: rounded up
// to nano, binary ones capped at 2^63-1.
import { canonicalText, parseQuantity, type QuantityFormat } from './quantity.ts';

/** value = units × 10^exponent. */
export interface QuantityValue {
  readonly units: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

export const zeroQuantity: QuantityValue = { units: 0n, exponent: 0, format: 'DecimalSI' };

/** The value of a quantity's text, or undefined when it does not parse. */
export function quantityValue(text: unknown): QuantityValue | undefined {
  if (typeof text === 'number' && Number.isFinite(text)) text = String(text);
  if (typeof text !== 'string') return undefined;
  const parsed = parseQuantity(text.trim());
  if (parsed.canonical === undefined) return undefined;
  // The canonical text is a sign, digits and one suffix (or `e<exponent>`).
  const match = /^(-?)([0-9]+)(.*)$/.exec(parsed.canonical);
  if (match === null) return undefined;
  const [, sign = '', digits = '0', suffix = ''] = match;
  const units = sign === '-' ? -BigInt(digits) : BigInt(digits);
  const binary = binarySuffixes[suffix];
  if (binary !== undefined) return { units: units << BigInt(binary), exponent: 0, format: 'BinarySI' };
  const decimal = decimalSuffixes[suffix];
  if (decimal !== undefined) return { units, exponent: decimal, format: 'DecimalSI' };
  if (/^[eE][+-]?[0-9]+$/.test(suffix)) return { units, exponent: Number(suffix.slice(1)), format: 'DecimalExponent' };
  return undefined;
}

/** Both values at the lower of their exponents. */
function aligned(a: QuantityValue, b: QuantityValue): [bigint, bigint, number] {
  const exponent = Math.min(a.exponent, b.exponent);
  return [a.units * 10n ** BigInt(a.exponent - exponent), b.units * 10n ** BigInt(b.exponent - exponent), exponent];
}

/** -1, 0 or 1 as a is below, equal to or above b (Quantity.Cmp). */
export function compareQuantities(a: QuantityValue, b: QuantityValue): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** a + b in a's format (Quantity.Add); zero takes b's format. */
export function addQuantities(a: QuantityValue, b: QuantityValue): QuantityValue {
  const [x, y, exponent] = aligned(a, b);
  return { units: x + y, exponent, format: a.units === 0n && a.format === 'DecimalSI' ? b.format : a.format };
}

/** a - b in a's format (Quantity.Sub). */
export function subtractQuantities(a: QuantityValue, b: QuantityValue): QuantityValue {
  return addQuantities(a, { ...b, units: -b.units });
}

/** The text kube-apiserver writes for a value (Quantity.String). */
export function formatQuantity(value: QuantityValue): string {
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  return canonicalText({ negative, digits: magnitude.toString(), exponent: value.exponent }, value.format);
}

/** The value in thousandths, rounded up (Quantity.MilliValue). */
export function milliValue(value: QuantityValue): bigint {
  return scaledValue(value, -3);
}

/** The value rounded up to an integer (Quantity.Value). */
export function integerValue(value: QuantityValue): bigint {
  return scaledValue(value, 0);
}

/** The value in units of 10^scale, rounded up away from zero (Quantity.ScaledValue). */
export function scaledValue(value: QuantityValue, scale: number): bigint {
  const shift = value.exponent - scale;
  if (shift >= 0) return value.units * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  const quotient = value.units / divisor;
  if (value.units % divisor === 0n) return quotient;
  return value.units > 0n ? quotient + 1n : quotient - 1n;
}

/** A value from thousandths, in the given format (resource.NewMilliQuantity). */
export function milliQuantity(milli: bigint, format: QuantityFormat = 'DecimalSI'): QuantityValue {
  return { units: milli, exponent: -3, format };
}
