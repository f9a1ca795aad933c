// Corrections to @bufbuild/cel's strings extension where it departs from cel-go's (which kube
// runs): replace(old, new, n) with n < 0 replaces all, split(sep, n) keeps the unsplit rest in
// its last element (Go's strings.Replace and strings.SplitN), and charAt, indexOf, lastIndexOf
// and substring count code points (Go runes), not UTF-16 units, with cel-go's error texts.
// Registered after the extension, these overloads replace its own (same ids).
import { celMethod, celError, CelScalar, listType, type CelFunc } from '@bufbuild/cel';

/** Go's strings.Replace: the first n matches (all when n < 0); '' matches around every code point. */
export function goReplace(text: string, old: string, replacement: string, n: number): string {
  if (old === replacement || n === 0) return text;
  const codePoints = [...text];
  let matches = 0;
  if (old === '') matches = codePoints.length + 1;
  else for (let i = text.indexOf(old); i >= 0; i = text.indexOf(old, i + old.length)) matches++;
  if (matches === 0) return text;
  const count = n < 0 || matches < n ? matches : n;
  let out = '';
  let start = 0;
  for (let i = 0; i < count; i++) {
    let next = start;
    if (old === '') {
      if (i > 0) next += (codePoints[i - 1] ?? '').length;
    } else {
      next = text.indexOf(old, start);
    }
    out += text.slice(start, next) + replacement;
    start = next + old.length;
  }
  return out + text.slice(start);
}

/** Go's strings.SplitN: at most n parts (all when n < 0, none when n == 0), the rest unsplit in the last. */
export function goSplit(text: string, separator: string, n: number): string[] {
  if (n === 0) return [];
  const limit = n < 0 ? Number.POSITIVE_INFINITY : n;
  if (separator === '') {
    const codePoints = [...text];
    if (codePoints.length <= limit) return codePoints;
    return [...codePoints.slice(0, limit - 1), codePoints.slice(limit - 1).join('')];
  }
  const parts: string[] = [];
  let start = 0;
  while (parts.length < limit - 1) {
    const at = text.indexOf(separator, start);
    if (at < 0) break;
    parts.push(text.slice(start, at));
    start = at + separator.length;
  }
  parts.push(text.slice(start));
  return parts;
}

function outOfRange(index: bigint | number): Error {
  return celError(`index out of range: ${index}`);
}

/** Index of `sub` in `runes` at or after `from` (code points), or -1. */
function runeIndexOf(runes: readonly string[], sub: readonly string[], from: number): number {
  for (let i = from; i + sub.length <= runes.length; i++) {
    if (sub.every((r, j) => runes[i + j] === r)) return i;
  }
  return -1;
}

/** Index of `sub` in `runes` at or before `from` (code points), or -1. */
function runeLastIndexOf(runes: readonly string[], sub: readonly string[], from: number): number {
  for (let i = Math.min(from, runes.length - sub.length); i >= 0; i--) {
    if (sub.every((r, j) => runes[i + j] === r)) return i;
  }
  return -1;
}

function charAt(this: string, index: bigint): string {
  const runes = [...this];
  if (index < 0n || index > BigInt(runes.length)) throw outOfRange(index);
  return runes[Number(index)] ?? '';
}

function indexOf(this: string, sub: string, offset?: bigint): bigint {
  if (sub === '') return offset ?? 0n;
  const runes = [...this];
  if (offset !== undefined && (offset < 0n || offset >= BigInt(runes.length))) throw outOfRange(offset);
  return BigInt(runeIndexOf(runes, [...sub], Number(offset ?? 0n)));
}

function lastIndexOf(this: string, sub: string, offset?: bigint): bigint {
  const runes = [...this];
  if (sub === '') return offset ?? BigInt(runes.length);
  if (offset !== undefined && (offset < 0n || offset >= BigInt(runes.length))) throw outOfRange(offset);
  return BigInt(runeLastIndexOf(runes, [...sub], offset === undefined ? runes.length - 1 : Number(offset)));
}

function substring(this: string, start: bigint, end?: bigint): string {
  const runes = [...this];
  const length = BigInt(runes.length);
  if (end !== undefined && start > end) throw celError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > length) throw outOfRange(start);
  if (end !== undefined && (end < 0n || end > length)) throw outOfRange(end);
  return runes.slice(Number(start), end === undefined ? undefined : Number(end)).join('');
}

function count(n: bigint): number {
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : n < 0n ? -1 : Number(n);
}

const strings = listType(CelScalar.STRING);

const { STRING, INT } = CelScalar;

/** Overloads that take the place of the extension's replace, split and index-based functions. */
export const stringsFixes: readonly CelFunc[] = [
  celMethod('charAt', STRING, [INT], STRING, charAt),
  celMethod('indexOf', STRING, [STRING], INT, function (sub: string) {
    return indexOf.call(this, sub);
  }),
  celMethod('indexOf', STRING, [STRING, INT], INT, indexOf),
  celMethod('lastIndexOf', STRING, [STRING], INT, function (sub: string) {
    return lastIndexOf.call(this, sub);
  }),
  celMethod('lastIndexOf', STRING, [STRING, INT], INT, lastIndexOf),
  celMethod('substring', STRING, [INT], STRING, function (start: bigint) {
    return substring.call(this, start);
  }),
  celMethod('substring', STRING, [INT, INT], STRING, substring),
  celMethod('replace', CelScalar.STRING, [CelScalar.STRING, CelScalar.STRING], CelScalar.STRING, function (old: string, replacement: string) {
    return goReplace(this, old, replacement, -1);
  }),
  celMethod('replace', CelScalar.STRING, [CelScalar.STRING, CelScalar.STRING, CelScalar.INT], CelScalar.STRING, function (old: string, replacement: string, n: bigint) {
    return goReplace(this, old, replacement, count(n));
  }),
  celMethod('split', CelScalar.STRING, [CelScalar.STRING], strings, function (separator: string) {
    return goSplit(this, separator, -1);
  }),
  celMethod('split', CelScalar.STRING, [CelScalar.STRING, CelScalar.INT], strings, function (separator: string, n: bigint) {
    return goSplit(this, separator, count(n));
  }),
];
