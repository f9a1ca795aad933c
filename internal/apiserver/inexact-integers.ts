/**
 * Integer literals of a request body that orch would not keep as written. A Go client decodes an
 * int64 exactly; orch holds every number as a double, exact only to ±(2^53 - 1), and writes it
 * back in JavaScript's shortest form: 9007199254740993 would be stored and served as
 * 9007199254740992, 2^60 (1152921504606846976) as 1152921504606847000. Rather than store a value
 * other than the one sent, an object holding one is refused (400). The decoders note such literals
 * (by the double each became); the object check looks for those doubles in the object it is about
 * to write, which is also how a patch's literals are followed to where the patch put them. A
 * literal past int64 is left to the schema check, which refuses it in an integer field as
 * kube-apiserver does.
 *
 * Why refuse rather than keep them exact: that would take a lossless number through the decoders,
 * every patch, the strategies, storage and every encoder. Node 20's JSON.parse gives a reviver no
 * source text (only behind --harmony-json-parse-with-source), and a reviver alone took a 2.5 KB Pod's
 * parse from 33 to 96 µs; the check here costs one regular-expression test (about 4 µs for it).
 * A number already stored that happens to equal a patch literal's double is taken for it: a 400
 * for a patch that held an inexact integer anyway.
 */
import { visit, type Document } from 'yaml';
import { badRequest, type StatusError } from '../registry/errors/status-error.ts';
import { warningCharsMax } from './limits.ts';
import { elide } from './respond.ts';

/**
 * The integer literals of one body whose text a double changed: the double each became, to the
 * literal as sent (the first of them). Those past int64 are kept for Go's own error's words.
 */
export type InexactIntegers = ReadonlyMap<number, string>;

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
/** Every integer of 15 digits or fewer is safe: a literal a double changes has 16 or more. */
const longDigitRun = /[0-9]{16}/;

/** Whether a double holds `value` as written: its shortest text (what orch writes back) is the integer's own. */
function doubleKeeps(value: bigint): boolean {
  return String(Number(value)) === value.toString();
}

/**
 * Whether orch must refuse `value`: an integer a Go client decodes exactly (it fits an int64) that
 * a double changes. One past int64 is the schema check's: Go refuses it in an integer field too.
 */
export function changedByDouble(value: bigint): boolean {
  return value >= int64Min && value <= int64Max && !doubleKeeps(value);
}

function isNumberChar(c: number): boolean {
  // Digits, '.', 'e', 'E', '+', '-'.
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/**
 * The integer literals of JSON text whose text a double changes (doubleKeeps), strings skipped.
 * Assumes valid JSON. Most bodies cost one native regular-expression test: the scan runs only
 * where 16 digits follow one another.
 */
export function inexactJsonIntegers(text: string): InexactIntegers {
  const found = new Map<number, string>();
  if (!longDigitRun.test(text)) return found;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string, escapes included.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (isNumberChar(c)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      const literal = text.slice(i, end);
      if (/^-?[0-9]{16,}$/.test(literal) && !doubleKeeps(BigInt(literal)) && !found.has(Number(literal))) found.set(Number(literal), literal);
      i = end - 1;
    }
  }
  return found;
}

/**
 * Turns the integers of a YAML document parsed with `intAsBigInt` into numbers, and returns those
 * whose text a double changed. A mapping key is only a name: one a double would change
 * keeps its exact digits, as text, as Go's YAML-to-JSON conversion writes it.
 */
export function numberYamlIntegers(doc: Document): InexactIntegers {
  const found = new Map<number, string>();
  visit(doc, {
    Scalar(key, node) {
      const value = node.value;
      if (typeof value !== 'bigint') return;
      node.value = key === 'key' && !doubleKeeps(value) ? value.toString() : Number(value);
      if (key !== 'key' && !doubleKeeps(value) && !found.has(Number(value))) found.set(Number(value), value.toString());
    },
  });
  return found;
}

/** Where an object holds a number that one of its body's integer literals became. */
export interface InexactInteger {
  /** The data path (`spec.activeDeadlineSeconds`). */
  readonly path: string;
  /** The literal as the client sent it. */
  readonly literal: string;
}

/**
 * Where `value` first holds a number of `inexact`, or undefined. Recursion as deep as the body,
 * which the decoders bound. Call it before anything turns numbers into text (quantities).
 */
export function findInexactInteger(value: unknown, inexact: InexactIntegers | undefined, path = ''): InexactInteger | undefined {
  if (inexact === undefined || inexact.size === 0) return undefined;
  if (typeof value === 'number') {
    const literal = inexact.get(value);
    // One past int64 is left to the schema check (Go refuses it in an integer field too).
    return literal === undefined || !changedByDouble(BigInt(literal)) ? undefined : { path, literal };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value).map(([k, v]) => [path === '' ? k : `.${k}`, v] as const);
  for (const [step, child] of entries) {
    const hit = findInexactInteger(child, inexact, `${path}${step}`);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/**
 * The 400 for an object holding an integer a double changed, in the form kube-apiserver gives a
 * value its decoder cannot take (`<Kind> in version "<v>" cannot be handled as a <Kind>: ...`),
 * saying why: Go would have kept it.
 */
export function inexactIntegerError(hit: InexactInteger, kind: string, version: string): StatusError {
  const field = elide(hit.path, warningCharsMax);
  const stored = String(Number(BigInt(hit.literal)));
  return badRequest(
    `${kind} in version "${version}" cannot be handled as a ${kind}: the integer ${hit.literal} at ${field} cannot be represented exactly: orch holds numbers as 64-bit floats, exact to ±9007199254740991 (2^53 - 1), and would store it as ${stored}`,
    [{ reason: 'FieldValueInvalid', message: 'integer cannot be represented exactly', field }],
  );
}

/**
 * Go's decode error as the schema check words it, told with the literal the client sent instead
 * of the text of the double it became; undefined when it is an int64 overflow of an integer Go
 * holds exactly (2^63 - 1 reads as the double 2^63), which is no Go error but an inexact integer.
 */
export function withLiteral(decodeError: string, inexact: InexactIntegers | undefined): string | undefined {
  const match = / number (-?[0-9]{16,}) into /.exec(decodeError);
  const literal = match === null || inexact === undefined ? undefined : inexact.get(Number(match[1]));
  if (match === null || literal === undefined) return decodeError;
  if (decodeError.endsWith(' of type int64') && changedByDouble(BigInt(literal))) return undefined;
  return decodeError.replace(match[0], ` number ${literal} into `);
}
