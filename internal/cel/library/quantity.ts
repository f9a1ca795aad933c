// Kubernetes' quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go, in kube 1.28's
// base environment): quantity(s), isQuantity(s), and on a quantity isInteger, asInteger,
// asApproximateFloat, sign, add, sub, isGreaterThan, isLessThan, compareTo. Parsing and its
// errors are orch's apimachinery port (internal/registry/schema/quantity.ts). A value is exact;
// beside it each value remembers how apimachinery holds it (an int64 with a decimal scale, or
// an arbitrary decimal), because isInteger/asInteger answer from that form: "1.0" and "1000m"
// are not integers there, and a value that left the int64 form never is again.
import { celFunc, celMethod, celError, CelScalar, type CelFunc } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { parseQuantity } from '../../registry/schema/quantity.ts';
import { descriptors, libraryTypes, opaqueValue, stringOf } from './types.ts';

const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);
const nanoScale = -9;

/** apimachinery's int64Amount (value × 10^scale), or 'decimal' for its inf.Dec form. */
type Held = { readonly value: bigint; readonly scale: number } | 'decimal';

/** An exact value, units × 10^exponent, and how apimachinery holds it. */
interface Amount {
  readonly units: bigint;
  readonly exponent: number;
  readonly held: Held;
}

const heldForms = new WeakMap<object, Held>();

const decimalExponents: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binaryExponents: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

function fitsInt64(n: bigint): boolean {
  return n >= int64Min && n <= int64Max;
}

/** The exact value of text that parseQuantity accepted, as ParseQuantity computes it. */
function amountOf(text: string): Amount {
  const match = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(text);
  if (match === null) throw celError(`quantity ${text} did not parse`);
  const [, signText = '', num = '', denom = '', suffix = ''] = match;
  const negative = signText === '-';
  const binary = binaryExponents[suffix];
  const exponent = binary === undefined ? (decimalExponents[suffix] ?? Number(suffix.slice(1))) : 0;
  const digits = BigInt(num + denom || '0');
  let units = binary === undefined ? digits : digits << BigInt(binary);
  let scale = binary === undefined ? exponent - denom.length : -denom.length;
  // Values finer than nano round up, away from zero, as inf.Dec's path does.
  if (scale < nanoScale) {
    const divisor = 10n ** BigInt(nanoScale - scale);
    units = units / divisor + (units % divisor === 0n ? 0n : 1n);
    scale = nanoScale;
  }
  if (binary !== undefined && units > int64Max * 10n ** BigInt(-scale)) {
    units = int64Max;
    scale = 0;
  }
  const signed = negative ? -units : units;
  return { units: signed, exponent: scale, held: heldForm(text, num, denom, binary, exponent, signed) };
}

/** ParseQuantity's int64 fast path: whether it takes the text, and the int64Amount it makes. */
function heldForm(text: string, num: string, denom: string, binary: number | undefined, exponent: number, units: bigint): Held {
  if (text === '0') return { value: 0n, scale: 0 };
  const precision =
    binary === undefined ? 18 - (num.length + denom.length) : denom === '' ? 15 - num.length - Math.trunc((binary * 3) / 10) - 1 : -1;
  if (precision < 0) return 'decimal';
  const fastScale = (binary === undefined ? exponent : 0) - denom.length;
  if (fastScale < nanoScale || !fitsInt64(units)) return 'decimal';
  return { value: units, scale: fastScale };
}

function quantityFrom(amount: Amount): ReflectMessage {
  let { units, exponent } = amount;
  while (units !== 0n && units % 10n === 0n) {
    units /= 10n;
    exponent++;
  }
  const value = opaqueValue(descriptors.quantity, { value: `${units}e${units === 0n ? 0 : exponent}` });
  heldForms.set(value.message, amount.held);
  return value;
}

function amountFrom(value: ReflectMessage): Amount {
  const [units = '0', exponent = '0'] = stringOf(value, 'value').split('e');
  const exact = { units: BigInt(units), exponent: Number(exponent) };
  return { ...exact, held: heldForms.get(value.message) ?? (fitsInt64(exact.units) ? { value: exact.units, scale: exact.exponent } : 'decimal') };
}

function aligned(a: Amount, b: Amount): [bigint, bigint, number] {
  const exponent = Math.min(a.exponent, b.exponent);
  return [a.units * 10n ** BigInt(a.exponent - exponent), b.units * 10n ** BigInt(b.exponent - exponent), exponent];
}

function compare(a: Amount, b: Amount): bigint {
  const [x, y] = aligned(a, b);
  return x < y ? -1n : x > y ? 1n : 0n;
}

/** int64Amount.Add: the int64 form survives when the sum fits at the smaller scale. */
function heldSum(a: Held, b: Held): Held {
  if (a === 'decimal' || b === 'decimal') return 'decimal';
  if (b.value === 0n) return a;
  if (a.value === 0n) return b;
  const scale = Math.min(a.scale, b.scale);
  const x = a.value * 10n ** BigInt(a.scale - scale);
  const y = b.value * 10n ** BigInt(b.scale - scale);
  return fitsInt64(x) && fitsInt64(y) && fitsInt64(x + y) ? { value: x + y, scale } : 'decimal';
}

function add(a: Amount, b: Amount): ReflectMessage {
  const [x, y, exponent] = aligned(a, b);
  return quantityFrom({ units: x + y, exponent, held: heldSum(a.held, b.held) });
}

function negate(a: Amount): Amount {
  return { units: -a.units, exponent: a.exponent, held: a.held === 'decimal' ? 'decimal' : { value: -a.held.value, scale: a.held.scale } };
}

function fromInt(n: bigint): Amount {
  return { units: n, exponent: 0, held: { value: n, scale: 0 } };
}

/** Quantity.AsInt64: only the int64 form at a non-negative scale, when it fits. */
function asInt64(amount: Amount): bigint | undefined {
  const held = amount.held;
  if (held === 'decimal' || held.scale < 0) return undefined;
  const value = held.value * 10n ** BigInt(held.scale);
  return fitsInt64(value) ? value : undefined;
}

function toQuantity(text: string): ReflectMessage {
  const parsed = parseQuantity(text);
  if (parsed.error !== undefined) throw celError(parsed.error);
  return quantityFrom(amountOf(text));
}

const quantity = libraryTypes.quantity;

function sign(this: ReflectMessage): bigint {
  const units = amountFrom(this).units;
  return units > 0n ? 1n : units < 0n ? -1n : 0n;
}

/** The quantity library's functions. */
export const quantityLibrary: readonly CelFunc[] = [
  celFunc('quantity', [CelScalar.STRING], quantity, toQuantity),
  celFunc('isQuantity', [CelScalar.STRING], CelScalar.BOOL, (text: string) => parseQuantity(text).error === undefined),
  celMethod('sign', quantity, [], CelScalar.INT, sign),
  // kube declares sign as a global overload as well as using it as a method.
  celFunc('sign', [quantity], CelScalar.INT, (value: ReflectMessage) => sign.call(value)),
  celMethod('isInteger', quantity, [], CelScalar.BOOL, function () {
    return asInt64(amountFrom(this)) !== undefined;
  }),
  celMethod('asInteger', quantity, [], CelScalar.INT, function () {
    const value = asInt64(amountFrom(this));
    if (value === undefined) throw celError('cannot convert value to integer');
    return value;
  }),
  celMethod('asApproximateFloat', quantity, [], CelScalar.DOUBLE, function () {
    const { units, exponent } = amountFrom(this);
    return Number.parseFloat(`${units}e${exponent}`);
  }),
  celMethod('add', quantity, [quantity], quantity, function (other: ReflectMessage) {
    return add(amountFrom(this), amountFrom(other));
  }),
  celMethod('add', quantity, [CelScalar.INT], quantity, function (other: bigint) {
    return add(amountFrom(this), fromInt(other));
  }),
  celMethod('sub', quantity, [quantity], quantity, function (other: ReflectMessage) {
    return add(amountFrom(this), negate(amountFrom(other)));
  }),
  celMethod('sub', quantity, [CelScalar.INT], quantity, function (other: bigint) {
    return add(amountFrom(this), negate(fromInt(other)));
  }),
  celMethod('isGreaterThan', quantity, [quantity], CelScalar.BOOL, function (other: ReflectMessage) {
    return compare(amountFrom(this), amountFrom(other)) === 1n;
  }),
  celMethod('isLessThan', quantity, [quantity], CelScalar.BOOL, function (other: ReflectMessage) {
    return compare(amountFrom(this), amountFrom(other)) === -1n;
  }),
  celMethod('compareTo', quantity, [quantity], CelScalar.INT, function (other: ReflectMessage) {
    return compare(amountFrom(this), amountFrom(other));
  }),
];
