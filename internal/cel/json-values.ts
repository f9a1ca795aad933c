// JSON values to expression values without a schema (admission variables, preserved unknown
// fields), and expression values back to JSON-like JavaScript.
import { celList, celMap, isCelList, isCelMap, isCelUint, type CelInput, type CelValue } from '@bufbuild/cel';

/** The expression value of a schemaless JSON value: integral numbers are int, other numbers double, objects maps. */
export function dynamicValue(value: unknown): CelValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean':
    case 'string':
    case 'bigint':
      return value;
    case 'number':
      return Number.isInteger(value) && Number.isSafeInteger(value) ? BigInt(value) : value;
    case 'object':
      break;
    default:
      return null;
  }
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return celList(value.map((v: unknown) => dynamicValue(v)));
  if (isCelList(value) || isCelMap(value)) return value;
  const entries = new Map<string, CelInput>();
  for (const [k, v] of Object.entries(value)) if (v !== undefined) entries.set(k, dynamicValue(v));
  return celMap(entries);
}

/**
 * A JavaScript value of an expression result: int becomes a number when it is a safe integer
 * (a bigint otherwise), lists arrays, maps plain objects, bytes a Uint8Array; other values
 * (timestamps, durations, types, opaque library values) are returned as they are.
 */
export function toJs(value: CelValue): unknown {
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (isCelUint(value)) return toJs(value.value);
  if (isCelList(value)) return Array.from(value, (v) => toJs(v));
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(isCelUint(k) ? k.value : k)] = toJs(v);
    return out;
  }
  return value;
}
