// Leftmost-first regular-expression search in linear time, as Go's regexp does it. @bufbuild/re2
// parses a pattern with RE2's syntax and meaning (Go's error texts, (?i) case folding, Unicode
// classes) and compiles it to RE2's instruction program, but its own engine only answers "does it
// match". Here the program runs on a Pike VM (Thompson NFA simulation whose threads are kept in
// priority order): each input position is visited once with at most one thread per instruction,
// so a search costs O(text × program) whatever the pattern, where V8's backtracking is exponential.
import { RE2JS } from '@bufbuild/re2';

type Program = ReturnType<RE2JS['re2']>['prog'];
type Instruction = Program['inst'][number];

// The program's instruction codes (RE2's Inst ops, as @bufbuild/re2 numbers them).
const opAlt = 1;
const opAltMatch = 2;
const opCapture = 3;
const opEmptyWidth = 4;
const opMatch = 6;
const opNop = 7;
const opRuneFirst = 8;
const opRuneLast = 11;

// Empty-width assertions (RE2's EmptyOp bits).
const emptyBeginLine = 0x01;
const emptyEndLine = 0x02;
const emptyBeginText = 0x04;
const emptyEndText = 0x08;
const emptyWordBoundary = 0x10;
const emptyNoWordBoundary = 0x20;

function isWordRune(r: number): boolean {
  return (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || (r >= 0x30 && r <= 0x39) || r === 0x5f;
}

/** The assertions that hold between rune `before` and rune `after` (-1 at either end of the text). */
function emptyContext(before: number, after: number): number {
  let flags = 0;
  if (before < 0) flags |= emptyBeginText | emptyBeginLine;
  if (before === 0x0a) flags |= emptyBeginLine;
  if (after < 0) flags |= emptyEndText | emptyEndLine;
  if (after === 0x0a) flags |= emptyEndLine;
  flags |= isWordRune(before) === isWordRune(after) ? emptyNoWordBoundary : emptyWordBoundary;
  return flags;
}

/** The code point at UTF-16 index `at` (-1 at the end); a lone surrogate stands for itself. */
function runeAt(text: string, at: number): number {
  if (at >= text.length) return -1;
  const c = text.charCodeAt(at);
  if (c >= 0xd800 && c <= 0xdbff && at + 1 < text.length) {
    const d = text.charCodeAt(at + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** The code point that ends just before UTF-16 index `at` (-1 at the start). */
function runeBefore(text: string, at: number): number {
  if (at <= 0) return -1;
  const d = text.charCodeAt(at - 1);
  if (d >= 0xdc00 && d <= 0xdfff && at >= 2) {
    const c = text.charCodeAt(at - 2);
    if (c >= 0xd800 && c <= 0xdbff) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return d;
}

/** A thread list: instruction and match start of each thread, highest priority first. */
interface Threads {
  readonly pcs: Int32Array;
  readonly starts: Int32Array;
  length: number;
}

/** One compiled pattern with its (reused) search state; searches are synchronous, so sharing is safe. */
export class Re2Searcher {
  private readonly instructions: readonly Instruction[];
  private readonly startPc: number;
  private readonly anchoredAtStart: boolean;
  private readonly prefix: string;
  private readonly marks: Uint32Array;
  private generation = 0;
  private readonly stack: Int32Array;
  private current: Threads;
  private next: Threads;

  /** Compiles `pattern` with RE2 syntax; throws @bufbuild/re2's error (Go's "error parsing regexp: ..." text). */
  private readonly matcher: RE2JS;

  constructor(pattern: string) {
    this.matcher = RE2JS.compile(pattern);
    const re2 = this.matcher.re2();
    const program = re2.prog;
    this.instructions = program.inst;
    this.startPc = program.start;
    const size = program.inst.length;
    const startCondition = program.startCond();
    this.anchoredAtStart = startCondition !== -1 && (startCondition & emptyBeginText) !== 0;
    const [, prefix] = program.prefix();
    this.prefix = startCondition === 0 ? prefix : '';
    this.marks = new Uint32Array(size);
    this.stack = new Int32Array(2 * size + 2);
    this.current = { pcs: new Int32Array(size), starts: new Int32Array(size), length: 0 };
    this.next = { pcs: new Int32Array(size), starts: new Int32Array(size), length: 0 };
  }

  /** Whether the text holds a match anywhere (@bufbuild/re2's DFA: much faster than search when there is none). */
  matchesSomewhere(text: string): boolean {
    return this.matcher.test(text);
  }

  /** Starts a new (empty) thread list generation: instructions not yet seen in it. */
  private newGeneration(): void {
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.marks.fill(0);
      this.generation = 1;
    }
  }

  /**
   * Adds the thread at `pc` (started at `start`) to `list`, following empty transitions under
   * `context` in priority order (an alternative's first branch before its second).
   */
  private addThread(list: Threads, pc: number, start: number, context: number): void {
    const stack = this.stack;
    const marks = this.marks;
    const generation = this.generation;
    let top = 0;
    stack[top++] = pc;
    while (top > 0) {
      const at = stack[--top] as number;
      if (at === 0 || marks[at] === generation) continue; // pc 0 is the program's fail instruction
      marks[at] = generation;
      const inst = this.instructions[at] as Instruction;
      switch (inst.op) {
        case opAlt:
        case opAltMatch:
          stack[top++] = inst.arg;
          stack[top++] = inst.out;
          break;
        case opNop:
        case opCapture:
          stack[top++] = inst.out;
          break;
        case opEmptyWidth:
          if ((inst.arg & ~context) === 0) stack[top++] = inst.out;
          break;
        case opMatch:
          list.pcs[list.length] = at;
          list.starts[list.length] = start;
          list.length++;
          break;
        default:
          if (inst.op >= opRuneFirst && inst.op <= opRuneLast) {
            list.pcs[list.length] = at;
            list.starts[list.length] = start;
            list.length++;
          }
      }
    }
  }

  /** The leftmost-first match at or after UTF-16 index `from`, as [start, end), or undefined. */
  search(text: string, from: number): readonly [number, number] | undefined {
    let matchStart = -1;
    let matchEnd = -1;
    let current = this.current;
    let next = this.next;
    current.length = 0;
    this.newGeneration();
    let position = from;
    let before = runeBefore(text, position);
    for (;;) {
      if (current.length === 0) {
        if (matchStart >= 0) break;
        if (this.anchoredAtStart && position > 0) break;
        if (this.prefix !== '') {
          // No thread alive: a match can only start where the literal prefix occurs.
          const at = text.indexOf(this.prefix, position);
          if (at < 0) break;
          if (at > position) {
            position = at;
            before = runeBefore(text, position);
          }
        }
      }
      const rune = runeAt(text, position);
      const width = rune < 0 ? 0 : rune > 0xffff ? 2 : 1;
      // A new thread starting here has the lowest priority; none once a match is found.
      if (matchStart < 0) this.addThread(current, this.startPc, position, emptyContext(before, rune));
      this.newGeneration();
      next.length = 0;
      const afterContext = rune < 0 ? 0 : emptyContext(rune, runeAt(text, position + width));
      for (let i = 0; i < current.length; i++) {
        const inst = this.instructions[current.pcs[i] as number] as Instruction;
        if (inst.op === opMatch) {
          // Leftmost-first: this match beats every lower-priority thread, which are dropped.
          matchStart = current.starts[i] as number;
          matchEnd = position;
          break;
        }
        if (rune >= 0 && inst.matchRune(rune)) this.addThread(next, inst.out, current.starts[i] as number, afterContext);
      }
      [current, next] = [next, current];
      if (rune < 0) break;
      before = rune;
      position += width;
    }
    this.current = current;
    this.next = next;
    return matchStart < 0 ? undefined : [matchStart, matchEnd];
  }
}

// The fold range RE2 checks code point by code point (unicode.MinFold..MaxFold).
const minFold = 0x41;
const maxFold = 0x1e943;

/**
 * An upper bound of the code points RE2's parser case-folds one by one for `pattern`: under (?i)
 * each explicit class range within the fold range is folded member by member (Go's
 * appendFoldedRange), which @bufbuild/re2 does at ~0.4 µs a code point, so a pattern of many
 * wide ranges takes seconds to compile. 0 when no (?i) flag is set anywhere.
 */
export function caseFoldWork(pattern: string): number {
  if (!/\(\?[imsU]*i/.test(pattern)) return 0;
  const chars = [...pattern];
  let i = 0;
  let work = 0;
  /** The code point of the class atom at i (advancing past it), or -1 for a class escape such as \d or \pL. */
  const atom = (): number => {
    const c = chars[i++] as string;
    if (c !== '\\') return c.codePointAt(0) ?? -1;
    const e = chars[i++] ?? '';
    if (e === 'x') {
      if (chars[i] === '{') {
        const end = chars.indexOf('}', i);
        if (end < 0) return -1;
        const value = parseInt(chars.slice(i + 1, end).join(''), 16);
        i = end + 1;
        return Number.isNaN(value) ? -1 : value;
      }
      const value = parseInt(chars.slice(i, i + 2).join(''), 16);
      i += 2;
      return Number.isNaN(value) ? -1 : value;
    }
    if (/[0-7]/.test(e)) {
      let digits = e;
      while (digits.length < 3 && /[0-7]/.test(chars[i] ?? '')) digits += chars[i++];
      return parseInt(digits, 8);
    }
    if (e === 'p' || e === 'P') {
      if (chars[i] === '{') {
        const end = chars.indexOf('}', i);
        i = end < 0 ? chars.length : end + 1;
      } else {
        i++;
      }
      return -1;
    }
    if (/[dDwWsS]/.test(e)) return -1;
    const escapes: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
    return escapes[e] ?? e.codePointAt(0) ?? -1;
  };
  while (i < chars.length) {
    const c = chars[i];
    if (c === '\\') {
      if (chars[i + 1] === 'Q') {
        let end = i + 2;
        while (end < chars.length && !(chars[end] === '\\' && chars[end + 1] === 'E')) end++;
        i = end + 2;
      } else {
        i += 2;
      }
      continue;
    }
    if (c !== '[') {
      i++;
      continue;
    }
    i++;
    if (chars[i] === '^') i++;
    // A `]` right after `[` or `[^` is a member, not the end.
    for (let first = true; i < chars.length && (first || chars[i] !== ']'); first = false) {
      if (chars[i] === '[' && chars[i + 1] === ':') {
        const end = chars.indexOf(']', i + 2);
        i = end < 0 ? chars.length : end + 1;
        continue;
      }
      const lo = atom();
      if (chars[i] === '-' && chars[i + 1] !== ']' && chars[i + 1] !== undefined) {
        i++;
        const hi = atom();
        if (lo >= 0 && hi >= lo && !(lo <= minFold && hi >= maxFold) && hi >= minFold && lo <= maxFold) {
          work += Math.min(hi, maxFold) - Math.max(lo, minFold) + 1;
        }
      }
    }
    i++;
  }
  return work;
}
