// CEL equality (the `==` of the language definition) for library functions that search lists:
// numbers equal across int, uint and double; lists and maps element by element; messages
// field by field; values of different types are unequal. @bufbuild/cel does not export its own.
import { isCelList, isCelMap, isCelType, isCelUint, type CelValue } from '@bufbuild/cel';
import { equals as equalMessages } from '@bufbuild/protobuf';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';

function numeric(value: CelValue): bigint | number | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  if (isCelUint(value)) return value.value;
  return undefined;
}

function equalNumbers(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  const double = typeof a === 'number' ? a : (b as number);
  const integer = typeof a === 'bigint' ? a : (b as bigint);
  return Number.isInteger(double) && BigInt(double) === integer;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Whether two CEL values are equal under CEL's `==`. */
export function equalValues(a: CelValue, b: CelValue): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) return x !== undefined && y !== undefined && equalNumbers(x, y);
  if (a instanceof Uint8Array || b instanceof Uint8Array) return a instanceof Uint8Array && b instanceof Uint8Array && equalBytes(a, b);
  if (isCelList(a) || isCelList(b)) {
    if (!isCelList(a) || !isCelList(b) || a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!equalValues(a.get(i) as CelValue, b.get(i) as CelValue)) return false;
    return true;
  }
  if (isCelMap(a) || isCelMap(b)) {
    if (!isCelMap(a) || !isCelMap(b) || a.size !== b.size) return false;
    for (const [key, value] of a) {
      const other = b.get(key);
      if (other === undefined || !equalValues(value, other)) return false;
    }
    return true;
  }
  if (isCelType(a) || isCelType(b)) return isCelType(a) && isCelType(b) && a.kind === b.kind && a.name === b.name;
  if (isReflectMessage(a) && isReflectMessage(b)) {
    return a.desc.typeName === b.desc.typeName && equalMessages(a.desc, a.message, b.message);
  }
  return false;
}
