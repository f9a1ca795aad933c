/**
 * How deep JSON text nests its objects and arrays, found in one pass over the text (strings
 * skipped): the registry's walks over a decoded object recurse, and a body nested thousands deep
 * must be refused before them, not overflow their stack.
 */

/** Whether `text` nests objects and arrays more than `depthMax` deep. */
export function nestsDeeperThan(text: string, depthMax: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string, escapes included.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > depthMax) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Whether a decoded value nests objects and arrays more than `depthMax` deep (iterative: no stack to overflow). */
export function valueNestsDeeperThan(value: unknown, depthMax: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > depthMax) return true;
    for (const child of Object.values(next.value)) if (typeof child === 'object' && child !== null) pending.push({ value: child, depth });
  }
  return false;
}
