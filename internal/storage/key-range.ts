// Key ranges for prefix scans. SQLite compares TEXT bytewise (UTF-8), which orders strings by
// code point, so "the prefix with its last code point incremented" bounds every key with the prefix.

/** The smallest string greater than every string starting with `prefix`, or null when unbounded (empty prefix). */
export function prefixEnd(prefix: string): string | null {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = points.pop() as string;
    const code = last.codePointAt(0) as number;
    let next = code + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000; // surrogates are not code points of their own
    if (next <= 0x10ffff) return points.join('') + String.fromCodePoint(next);
  }
  return null;
}

/** The scan range `[lo, hi)` of a prefix list that starts at `startKey` (inclusive) when given. */
export function scanRange(prefix: string, startKey?: string): { lo: string; hi: string | null } {
  const hi = prefixEnd(prefix);
  const lo = startKey !== undefined && startKey > prefix ? startKey : prefix;
  return { lo, hi };
}
