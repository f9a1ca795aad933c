// RE2 patterns as JavaScript regular expressions. @bufbuild/re2 checks RE2 syntax (and gives
// Go's error texts) but only answers "does it match"; find and findAll need match positions,
// so a pattern RE2 accepts is rewritten for V8 (flag `u`), keeping RE2's meaning: `.` stops only
// at \n, `\s` is [\t\n\f\r ], (?s) (?m) (?U) and scoped (?i) apply where RE2 applies them,
// `\A` `\z` `\Q..\E` `(?P<n>..)` `[[:alpha:]]` `\p{Greek}` are spelled V8's way. Both engines
// choose the leftmost match and then the first alternative (Perl order), so matches agree.
import { RE2JS } from '@bufbuild/re2';

interface Flags {
  readonly caseInsensitive: boolean;
  readonly multiLine: boolean;
  readonly dotAll: boolean;
  readonly ungreedy: boolean;
}

/** A pattern rewritten for V8, with the flags to compile it with. */
export interface TranslatedPattern {
  readonly source: string;
  readonly flags: string;
}

const posixClasses: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const generalCategories = new Set(['C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs']);

const spaceClass = '\\t\\n\\f\\r ';
const notSpaceRanges = '\\x00-\\x08\\x0B\\x0E-\\x1F\\x21-\\u{10FFFF}';

function hexEscape(codePoint: number): string {
  return `\\u{${codePoint.toString(16)}}`;
}

function unsupported(what: string): Error {
  return new Error(`error parsing regexp: ${what} is not supported by this server`);
}

/** \p{Name} for V8: general categories as they are, scripts as Script=Name. */
function unicodeClass(name: string, negated: boolean): string {
  const property = generalCategories.has(name) || name === 'Any' ? name : `Script=${name}`;
  return `\\${negated ? 'P' : 'p'}{${property}}`;
}

/** Case orbits that toLowerCase/toUpperCase do not close (Kelvin sign, long s, Greek symbols...). */
const extraOrbits: readonly string[] = ['kK\u212A', 'sS\u017F', '\u00E5\u00C5\u212B', '\u00B5\u03BC\u039C', '\u03C2\u03C3\u03A3', '\u03B8\u0398\u03D1\u03F4', '\u03B9\u0399\u0345\u1FBE', '\u03B2\u0392\u03D0', '\u03B5\u0395\u03F5', '\u03BA\u039A\u03F0', '\u03C0\u03A0\u03D6', '\u03C1\u03A1\u03F1', '\u03C6\u03A6\u03D5', '\u03C9\u03A9\u2126', '\u00DF\u1E9E'];
const orbitOf = new Map<string, readonly string[]>();
for (const orbit of extraOrbits) for (const member of orbit) orbitOf.set(member, [...orbit]);

/** The code points equal to `char` under simple case folding (RE2's (?i)), `char` included. */
function caseVariants(char: string): string[] {
  const found = new Set([char]);
  for (const candidate of [char.toLowerCase(), char.toUpperCase(), char.toLowerCase().toUpperCase(), char.toUpperCase().toLowerCase()]) {
    if ([...candidate].length === 1) found.add(candidate);
  }
  for (const member of [...found]) for (const other of orbitOf.get(member) ?? []) found.add(other);
  return [...found];
}

/** Ranges (as V8 class text) of the other-case variants of lo..hi that lie outside it. */
function foldedRanges(lo: number, hi: number): string {
  const extra = new Set<number>();
  const span = hi - lo <= 5000 ? [lo, hi] : [lo, Math.min(hi, lo + 5000)];
  for (let cp = span[0] as number; cp <= (span[1] as number); cp++) {
    for (const variant of caseVariants(String.fromCodePoint(cp))) {
      const v = variant.codePointAt(0) ?? 0;
      if (v < lo || v > hi) extra.add(v);
    }
  }
  const sorted = [...extra].sort((a, b) => a - b);
  let text = '';
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    text += i === j ? hexEscape(sorted[i] as number) : `${hexEscape(sorted[i] as number)}-${hexEscape(sorted[j] as number)}`;
    i = j + 1;
  }
  return text;
}

/** The character an escaped class atom stands for (`\\u{7a}` or a letter or digit). */
function decodeClassAtom(atom: string): string {
  const hex = /^\\u\{([0-9a-f]+)\}$/.exec(atom);
  if (hex !== null) return String.fromCodePoint(parseInt(hex[1] ?? '0', 16));
  if ([...atom].length === 1) return atom;
  throw unsupported('this range end');
}

class Translator {
  private position = 0;
  private output = '';
  private readonly chars: string[];

  constructor(pattern: string, private flags: Flags) {
    this.chars = [...pattern];
  }

  translate(): string {
    this.sequence(false);
    return this.output;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.position + offset];
  }

  /** Translates until end of input, or the `)` closing a group when inGroup. */
  private sequence(inGroup: boolean): void {
    const saved = this.flags;
    for (;;) {
      const c = this.peek();
      if (c === undefined) break;
      if (c === ')' && inGroup) break;
      this.atom();
    }
    this.flags = saved;
  }

  private atom(): void {
    const c = this.peek() as string;
    this.position++;
    switch (c) {
      case '\\':
        this.output += this.escape(false);
        return;
      case '[':
        this.output += this.characterClass();
        return;
      case '(':
        this.group();
        return;
      case '.':
        this.output += this.flags.dotAll ? '[\\s\\S]' : '[^\\n]';
        return;
      case '^':
        this.output += this.flags.multiLine ? '(?:(?<![^\\n]))' : '(?:(?<![\\s\\S]))';
        return;
      case '$':
        this.output += this.flags.multiLine ? '(?:(?![^\\n]))' : '(?:(?![\\s\\S]))';
        return;
      case '*':
      case '+':
      case '?':
        this.output += c;
        this.laziness();
        return;
      case '{':
        this.repeatOrLiteral();
        return;
      case ')':
      case ']':
      case '}':
      case '|':
        this.output += c === '|' ? '|' : `\\${c}`;
        return;
      default:
        this.output += this.literal(c);
    }
  }

  private literal(c: string): string {
    if (this.flags.caseInsensitive) {
      const variants = caseVariants(c);
      if (variants.length > 1) return `[${variants.map((v) => hexEscape(v.codePointAt(0) ?? 0)).join('')}]`;
    }
    return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
  }

  /** After a quantifier: RE2's `?` makes it lazy, and (?U) swaps greedy and lazy. */
  private laziness(): void {
    const lazy = this.peek() === '?';
    if (lazy) this.position++;
    if (lazy !== this.flags.ungreedy) this.output += '?';
  }

  private repeatOrLiteral(): void {
    const rest = this.chars.slice(this.position).join('');
    const match = /^(\d+)(,\d*)?\}/.exec(rest);
    if (match === null) {
      this.output += '\\{';
      return;
    }
    this.output += `{${match[0]}`;
    this.position += [...match[0]].length;
    this.laziness();
  }

  private group(): void {
    if (this.peek() !== '?') {
      this.output += '(';
      this.sequence(true);
      this.output += ')';
      this.position++;
      return;
    }
    this.position++;
    const rest = this.chars.slice(this.position).join('');
    const named = /^P?<([A-Za-z0-9_]+)>/.exec(rest);
    if (named !== null) {
      this.position += named[0].length;
      this.output += `(?<${named[1]}>`;
      this.sequence(true);
      this.output += ')';
      this.position++;
      return;
    }
    const flagged = /^([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest);
    if (flagged === null) throw unsupported('this group syntax');
    this.position += flagged[0].length;
    const flags = this.withFlags(flagged[1] ?? '', flagged[2] ?? '');
    if (flagged[3] === ')') {
      this.flags = flags; // applies to the rest of the enclosing group
      return;
    }
    const outer = this.flags;
    this.flags = flags;
    this.output += '(?:';
    this.sequence(true);
    this.output += ')';
    this.position++;
    this.flags = outer;
  }

  private withFlags(set: string, clear: string): Flags {
    const value = (letter: string, current: boolean) => (set.includes(letter) ? true : clear.includes(letter) ? false : current);
    return {
      caseInsensitive: value('i', this.flags.caseInsensitive),
      multiLine: value('m', this.flags.multiLine),
      dotAll: value('s', this.flags.dotAll),
      ungreedy: value('U', this.flags.ungreedy),
    };
  }

  /** An escape after `\`; inClass gives the form that fits inside [...]. */
  private escape(inClass: boolean): string {
    const c = this.peek() as string;
    this.position++;
    switch (c) {
      case 'd': case 'D':
        return `\\${c}`;
      case 'w': case 'W':
        return this.wordClass(c === 'W', inClass);
      case 'b': case 'B':
        if (inClass) throw unsupported('\\b in a class');
        return `(?:\\${c})`;
      case 's':
        return inClass ? spaceClass : `[${spaceClass}]`;
      case 'S':
        return inClass ? notSpaceRanges : `[${notSpaceRanges}]`;
      case 'A':
        return '(?:(?<![\\s\\S]))';
      case 'z':
        return '(?:(?![\\s\\S]))';
      case 'a':
        return '\\x07';
      case 'f': case 'n': case 'r': case 't': case 'v':
        return `\\${c}`;
      case 'Q':
        return this.quoted(inClass);
      case 'x':
        return this.hex(inClass);
      case 'p': case 'P':
        return this.unicode(c === 'P');
      default:
        if (/[0-7]/.test(c)) return this.octal(c, inClass);
        return this.literalIn(c, inClass);
    }
  }

  private literalIn(c: string, inClass: boolean): string {
    if (!inClass) return this.literal(c);
    const variants = this.flags.caseInsensitive ? caseVariants(c) : [c];
    return variants.map((v) => (/[A-Za-z0-9]/.test(v) ? v : hexEscape(v.codePointAt(0) ?? 0))).join('');
  }

  private quoted(inClass: boolean): string {
    let text = '';
    while (this.peek() !== undefined && !(this.peek() === '\\' && this.peek(1) === 'E')) {
      text += this.literalIn(this.peek() as string, inClass);
      this.position++;
    }
    if (this.peek() !== undefined) this.position += 2;
    return text;
  }

  private hex(inClass: boolean): string {
    const rest = this.chars.slice(this.position).join('');
    const match = /^\{([0-9A-Fa-f]+)\}|^([0-9A-Fa-f]{2})/.exec(rest);
    if (match === null) throw unsupported('this \\x escape');
    this.position += match[0].length;
    const codePoint = parseInt(match[1] ?? match[2] ?? '0', 16);
    return this.literalIn(String.fromCodePoint(codePoint), inClass);
  }

  private octal(first: string, inClass: boolean): string {
    let digits = first;
    while (digits.length < 3 && /[0-7]/.test(this.peek() ?? '')) {
      digits += this.peek();
      this.position++;
    }
    return this.literalIn(String.fromCodePoint(parseInt(digits, 8)), inClass);
  }

  private unicode(negated: boolean): string {
    if (this.peek() !== '{') {
      const name = this.peek() as string;
      this.position++;
      return unicodeClass(name, negated);
    }
    const end = this.chars.indexOf('}', this.position);
    let name = this.chars.slice(this.position + 1, end).join('');
    this.position = end + 1;
    if (name.startsWith('^')) {
      name = name.slice(1);
      negated = !negated;
    }
    return unicodeClass(name, negated);
  }

  private characterClass(): string {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.position++;
    }
    let body = '';
    let first = true;
    while (this.peek() !== ']' || first) {
      const c = this.peek() as string;
      this.position++;
      first = false;
      if (c === '[' && this.peek() === ':') {
        body += this.posixClass();
      } else if (c === '\\') {
        body += this.escape(true);
      } else if (c === '-' && body !== '' && this.peek() !== ']') {
        body += '-';
      } else {
        body += this.classChar(c);
      }
    }
    this.position++;
    return `[${negated ? '^' : ''}${body}]`;
  }

  private classChar(c: string): string {
    if (this.flags.caseInsensitive && this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) return this.foldedRange(c);
    return this.literalIn(c, true);
  }

  /** A range under (?i): the range itself and the other-case variants of its members. */
  private foldedRange(low: string): string {
    this.position++;
    let high = this.peek() as string;
    this.position++;
    if (high === '\\') high = decodeClassAtom(this.escapeWithoutFolding());
    const lo = low.codePointAt(0) ?? 0;
    const hi = high.codePointAt(0) ?? 0;
    return `${hexEscape(lo)}-${hexEscape(hi)}${foldedRanges(lo, hi)}`;
  }

  private escapeWithoutFolding(): string {
    const saved = this.flags;
    this.flags = { ...saved, caseInsensitive: false };
    try {
      return this.escape(true);
    } finally {
      this.flags = saved;
    }
  }

  /** \\w and \\W; under (?i) RE2 folds \\w to take in the long s and the Kelvin sign. */
  private wordClass(negated: boolean, inClass: boolean): string {
    if (!this.flags.caseInsensitive || (inClass && negated)) return negated ? '\\W' : '\\w';
    const members = '0-9A-Za-z_\\u{17f}\\u{212a}';
    if (inClass) return members;
    return negated ? `[^${members}]` : `[${members}]`;
  }

  private posixClass(): string {
    const rest = this.chars.slice(this.position).join('');
    const match = /^:(\^?)([a-z]+):\]/.exec(rest);
    if (match === null) return '\\[';
    this.position += match[0].length;
    if (match[1] === '^') throw unsupported('a negated POSIX class');
    const members = posixClasses[match[2] ?? ''] ?? '';
    if (!this.flags.caseInsensitive) return members;
    // Under (?i) a class's letters take in their other case and its folding partners.
    let folded = members;
    for (const [, lo, hi] of members.matchAll(/([A-Za-z])-([A-Za-z])/g)) {
      folded += foldedRanges(lo?.codePointAt(0) ?? 0, hi?.codePointAt(0) ?? 0);
    }
    return folded;
  }
}

/**
 * Checks a pattern with RE2 (throwing Go's "error parsing regexp: ..." text) and rewrites it
 * for V8. Throws for the few RE2 forms V8 cannot express (a negated POSIX class, \b in a class).
 */
export function translateRe2(pattern: string): TranslatedPattern {
  RE2JS.compile(pattern);
  const flags: Flags = { caseInsensitive: false, multiLine: false, dotAll: false, ungreedy: false };
  return { source: new Translator(pattern, flags).translate(), flags: 'gu' };
}
