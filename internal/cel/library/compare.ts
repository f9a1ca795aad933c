// Ordering and arithmetic of CEL values for the list library, as cel-go's Comparer and Adder
// traits define them: numbers compare across int, uint and double; strings by code point
// (Go compares UTF-8 bytes, which orders the same); bytes bytewise; durations and timestamps by
// time. A pair with no ordering is an error, like cel-go's "no such overload".
import { celError, isCelUint, celUint, type CelValue } from '@bufbuild/cel';
import { isReflectMessage, reflect, type ReflectMessage } from '@bufbuild/protobuf/reflect';
import { create } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';

const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);
const uint64Max = 2n ** 64n - 1n;
const nanosPerSecond = 1_000_000_000n;
/** Go's time.Duration limits, in nanoseconds. */
const durationNanosMax = int64Max;
const durationNanosMin = int64Min;

function sign(difference: number | bigint): number {
  return difference > 0 ? 1 : difference < 0 ? -1 : 0;
}

/** Nanoseconds of a google.protobuf.Duration or Timestamp message. */
function nanosOf(value: ReflectMessage): bigint {
  const message = value.message as unknown as { seconds: bigint; nanos: number };
  return message.seconds * nanosPerSecond + BigInt(message.nanos);
}

function timeKind(value: unknown): 'duration' | 'timestamp' | undefined {
  if (isReflectMessage(value, DurationSchema)) return 'duration';
  if (isReflectMessage(value, TimestampSchema)) return 'timestamp';
  return undefined;
}

function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return sign(a - b);
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return 0;
  // Exact comparison when a double meets a 64-bit integer beyond 2^53.
  if (typeof a === 'bigint' && Number.isInteger(y) && Number.isFinite(y)) return sign(a - BigInt(y));
  if (typeof b === 'bigint' && Number.isInteger(x) && Number.isFinite(x)) return sign(BigInt(x) - b);
  return sign(x - y);
}

function compareCodePoints(a: string, b: string): number {
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done === true || q.done === true) return p.done === true ? (q.done === true ? 0 : -1) : 1;
    const d = (p.value.codePointAt(0) ?? 0) - (q.value.codePointAt(0) ?? 0);
    if (d !== 0) return sign(d);
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return sign(d);
  }
  return sign(a.length - b.length);
}

function numeric(value: CelValue): bigint | number | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  if (isCelUint(value)) return value.value;
  return undefined;
}

/** -1, 0 or 1 as a orders before, with or after b; throws when the pair has no ordering. */
export function compareValues(a: CelValue, b: CelValue): number {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined && y !== undefined) return compareNumbers(x, y);
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return sign(Number(a) - Number(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  const kind = timeKind(a);
  if (kind !== undefined && kind === timeKind(b)) return sign(nanosOf(a as ReflectMessage) - nanosOf(b as ReflectMessage));
  throw celError('no such overload');
}

/** Whether a value has an ordering (cel-go's Comparer trait). */
export function isComparable(value: CelValue): boolean {
  return (
    numeric(value) !== undefined ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    value instanceof Uint8Array ||
    timeKind(value) !== undefined
  );
}

/** A duration message from nanoseconds. */
export function durationValue(nanos: bigint): ReflectMessage {
  const seconds = nanos / nanosPerSecond;
  return reflect(DurationSchema, create(DurationSchema, { seconds, nanos: Number(nanos - seconds * nanosPerSecond) }));
}

/** a + b with cel-go's overflow errors; int and uint and double do not mix (lists are typed). */
export function addValues(a: CelValue, b: CelValue): CelValue {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    const sum = a + b;
    if (sum > int64Max || sum < int64Min) throw celError('integer overflow');
    return sum;
  }
  if (isCelUint(a) && isCelUint(b)) {
    const sum = a.value + b.value;
    if (sum > uint64Max) throw celError('unsigned integer overflow');
    return celUint(sum);
  }
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (timeKind(a) === 'duration' && timeKind(b) === 'duration') {
    const sum = nanosOf(a as ReflectMessage) + nanosOf(b as ReflectMessage);
    if (sum > durationNanosMax || sum < durationNanosMin) throw celError('integer overflow');
    return durationValue(sum);
  }
  throw celError('no such overload');
}

/** Whether a value can be summed (int, uint, double, duration). */
export function isSummable(value: CelValue): boolean {
  return numeric(value) !== undefined || timeKind(value) === 'duration';
}
