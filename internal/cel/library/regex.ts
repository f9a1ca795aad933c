// Kubernetes' regex library (k8s.io/apiserver/pkg/cel/library/regex.go): `s.find(re)` gives
// the first match or '', `s.findAll(re)` and `s.findAll(re, n)` the matches as Go's
// Regexp.FindAllString returns them (after an empty match the search moves one character on,
// and an empty match right after a match is skipped; n < 0 means all, n == 0 none). A bad
// pattern is the error "Illegal regex: error parsing regexp: ...".
import { celMethod, celError, CelScalar, listType, type CelFunc } from '@bufbuild/cel';
import { caseFoldWork, Re2Searcher } from './re2-search.ts';
import { regexCacheEntriesMax, regexCaseFoldWorkMax } from './limits.ts';

const compiled = new Map<string, Re2Searcher>();

/** The pattern compiled with RE2, from a bounded cache (patterns are usually literals). */
export function compileRe2(pattern: string): Re2Searcher {
  const cached = compiled.get(pattern);
  if (cached !== undefined) return cached;
  let searcher: Re2Searcher;
  // Not a kube limit: RE2's parser folds each case-insensitive class range code point by code
  // point, which takes @bufbuild/re2 seconds for a pattern of many wide ranges (Go about 10x less).
  if (caseFoldWork(pattern) > regexCaseFoldWorkMax) throw celError('Illegal regex: error parsing regexp: expression too large');
  try {
    searcher = new Re2Searcher(pattern);
  } catch (error) {
    throw celError(`Illegal regex: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (compiled.size >= regexCacheEntriesMax) compiled.delete(compiled.keys().next().value as string);
  compiled.set(pattern, searcher);
  return searcher;
}

/** Up to limit matches (all when limit < 0), as Go's FindAllString finds them; linear in the text per match. */
export function findAllMatches(text: string, pattern: string, limit: number): string[] {
  const searcher = compileRe2(pattern);
  const found: string[] = [];
  if (limit === 0 || !searcher.matchesSomewhere(text)) return found;
  let position = 0;
  let previousEnd = -1;
  while ((limit < 0 || found.length < limit) && position <= text.length) {
    const match = searcher.search(text, position);
    if (match === undefined) break;
    const [start, end] = match;
    let accept = true;
    if (end === start) {
      // An empty match right after the previous match is skipped; the search moves one code point on.
      if (start === previousEnd) accept = false;
      const codePoint = text.codePointAt(start);
      position = start + (codePoint === undefined ? 1 : codePoint > 0xffff ? 2 : 1);
    } else {
      position = end;
    }
    previousEnd = end;
    if (accept) found.push(text.slice(start, end));
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
