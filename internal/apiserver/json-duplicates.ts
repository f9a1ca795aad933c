/**
 * Finds duplicate keys in JSON text (which JSON.parse silently resolves to the last one).
 * Assumes the text is valid JSON: call it after JSON.parse succeeded. Paths look like
 * `metadata.name` and `spec.ports[0].port`.
 */

type Frame = { kind: 'object'; keys: Set<string>; key: string | null; expectingKey: boolean } | { kind: 'array'; index: number };

/** The path of the innermost frame's parent, built from the root and cut once longer than `charsMax` (a body may nest its whole size deep). */
function pathOf(stack: readonly Frame[], charsMax: number): string {
  let path = '';
  for (let i = 0; i < stack.length - 1; i++) {
    if (path.length > charsMax) return `${path}...`;
    const f = stack[i] as Frame;
    if (f.kind === 'object') path = path === '' ? (f.key ?? '') : `${path}.${f.key ?? ''}`;
    else path = `${path}[${f.index}]`;
  }
  return path;
}

function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let b = quote - 1; text.charCodeAt(b) === 92; b--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}

/** Duplicated keys of a document: how many, and the paths of the first ones. */
export interface DuplicateKeys {
  /** Paths of the first `namedMax` duplicates, in order of appearance. */
  readonly paths: readonly string[];
  /** Every duplicate, named or not. */
  readonly count: number;
}

/**
 * The duplicated keys of JSON text; only the first `namedMax` get their path built, each cut after
 * `pathCharsMax` characters.
 */
export function findDuplicateKeys(text: string, namedMax: number, pathCharsMax = Number.POSITIVE_INFINITY): DuplicateKeys {
  const duplicates: string[] = [];
  let count = 0;
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '{') stack.push({ kind: 'object', keys: new Set(), key: null, expectingKey: true });
    else if (c === '[') stack.push({ kind: 'array', index: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top) {
      if (top.kind === 'object') top.expectingKey = true;
      else top.index++;
    } else if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectingKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? JSON.parse(`"${raw}"`) as string : raw;
        if (top.keys.has(key) && count++ < namedMax) {
          const parent = pathOf(stack, pathCharsMax);
          duplicates.push(parent === '' ? key : `${parent}.${key}`);
        }
        top.keys.add(key);
        top.key = key;
        top.expectingKey = false;
      }
      i = end;
    }
  }
  return { paths: duplicates, count };
}
