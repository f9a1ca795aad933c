// Kubernetes' regex library (k8s.io/apiserver/pkg/cel/library/regex.go): `s.find(re)` gives
// the first match or '', `s.findAll(re)` and `s.findAll(re, n)` the matches as Go's
// Regexp.FindAllString returns them (after an empty match the search moves one character on,
// and an empty match right after a match is skipped; n < 0 means all, n == 0 none). A bad
// pattern is the error "Illegal regex: error parsing regexp: ...".
import { celMethod, celError, CelScalar, listType, type CelFunc } from '@bufbuild/cel';
import { translateRe2 } from './regex-syntax.ts';
import { regexCacheEntriesMax } from './limits.ts';

const compiled = new Map<string, RegExp>();

/** The pattern compiled for V8, from a bounded cache (patterns are usually literals). */
export function compileRe2(pattern: string): RegExp {
  const cached = compiled.get(pattern);
  if (cached !== undefined) return cached;
  let regex: RegExp;
  try {
    const translated = translateRe2(pattern);
    regex = new RegExp(translated.source, translated.flags);
  } catch (error) {
    throw celError(`Illegal regex: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (compiled.size >= regexCacheEntriesMax) compiled.delete(compiled.keys().next().value as string);
  compiled.set(pattern, regex);
  return regex;
}

function splitsSurrogatePair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** Up to limit matches (all when limit < 0), as Go's FindAllString finds them. */
export function findAllMatches(text: string, pattern: string, limit: number): string[] {
  const regex = compileRe2(pattern);
  const found: string[] = [];
  let position = 0;
  let previousEnd = -1;
  while ((limit < 0 || found.length < limit) && position <= text.length) {
    regex.lastIndex = position;
    const match = regex.exec(text);
    if (match === null) break;
    if (splitsSurrogatePair(text, match.index)) {
      // V8 may try an empty-width match between a surrogate pair's halves; RE2 never does.
      position = match.index + 1;
      continue;
    }
    const start = match.index;
    const end = start + match[0].length;
    let accept = true;
    if (end === start) {
      if (start === previousEnd) accept = false;
      const codePoint = text.codePointAt(start);
      position = start + (codePoint === undefined ? 1 : codePoint > 0xffff ? 2 : 1);
    } else {
      position = end;
    }
    previousEnd = end;
    if (accept) found.push(match[0]);
  }
  return found;
}

function find(this: string, pattern: string): string {
  return findAllMatches(this, pattern, 1)[0] ?? '';
}

function findAll(this: string, pattern: string, limit?: bigint): string[] {
  const n = limit === undefined ? -1 : limit > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(limit);
  return findAllMatches(this, pattern, n < 0 ? -1 : n);
}

const stringList = listType(CelScalar.STRING);

/** The regex library's functions. */
export const regexLibrary: readonly CelFunc[] = [
  celMethod('find', CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, find),
  celMethod('findAll', CelScalar.STRING, [CelScalar.STRING], stringList, function (this: string, pattern: string) {
    return findAll.call(this, pattern);
  }),
  celMethod('findAll', CelScalar.STRING, [CelScalar.STRING, CelScalar.INT], stringList, findAll),
];
