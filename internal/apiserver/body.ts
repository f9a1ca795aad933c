import { isScalar, LineCounter, parseDocument, visit } from 'yaml';
import type { Document, Scalar } from 'yaml';
import { badRequest, StatusError } from '../registry/errors/status-error.ts';
import { inexactJsonIntegers, numberYamlIntegers, type InexactIntegers } from './inexact-integers.ts';
import { findDuplicateKeys } from './json-duplicates.ts';
import { nestsDeeperThan, valueNestsDeeperThan } from './json-depth.ts';
import { bodyNestingDepthMax, fieldProblemsNamedMax, requestBodyBytesMax, warningCharsMax } from './limits.ts';
import { decodeProtobuf } from './protobuf/index.ts';

/** A readable request body. */
export interface BodySource extends AsyncIterable<unknown> {
  readonly headers: Record<string, string | string[] | undefined>;
}

/**
 * A body refused before it was read whole (413, 408): its exchange ends with the answer, as the rest
 * of the body would otherwise be taken for the next request (HTTP/1.1) or keep the stream open (HTTP/2).
 */
export class BodyRefusedError extends StatusError {}

/**
 * Reads the whole body; 413 as soon as it exceeds the limit (by header or by bytes read), 408 when it
 * has not arrived whole within `timeoutMs`: a client sending a body slowly, or not at all, must not
 * hold what it sent so far for ever. Both are BodyRefusedError.
 */
export async function readBody(req: BodySource, timeoutMs: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > requestBodyBytesMax) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyRefusedError(408, 'Timeout', `the request body did not arrive within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  const chunksIn = req[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([chunksIn.next(), late]);
      if (next.done === true) break;
      const chunk: unknown = next.value;
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      total += buf.length;
      if (total > requestBodyBytesMax) throw tooLarge();
      chunks.push(buf);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): StatusError {
  return new BodyRefusedError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${requestBodyBytesMax}`);
}

/** A decoded body with the duplicate keys and the inexact integers the decoder saw. */
export interface DecodedBody {
  readonly value: unknown;
  /** The first duplicate keys (at most fieldProblemsNamedMax), named. */
  readonly duplicates: readonly string[];
  /** Every duplicate key, named or not. */
  readonly duplicateCount: number;
  /** Integer literals a double changed, refused where they land in an object (checkObject); none when absent. */
  readonly inexactIntegers?: InexactIntegers;
}

/**
 * Decodes JSON, noting duplicate keys and integers a double changed (inexact-integers.ts);
 * malformed JSON, or JSON nested past bodyNestingDepthMax, is a 400.
 */
export function decodeJson(bytes: Buffer): DecodedBody {
  const text = bytes.toString('utf8');
  if (nestsDeeperThan(text, bodyNestingDepthMax)) throw badRequest(`error decoding request body: invalid JSON: exceeded max depth (objects and arrays nested more than ${bodyNestingDepthMax} deep)`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest(`error decoding request body: invalid JSON: ${(err as Error).message}`);
  }
  const { paths, count } = findDuplicateKeys(text, fieldProblemsNamedMax, warningCharsMax);
  return { value, duplicates: paths, duplicateCount: count, inexactIntegers: inexactJsonIntegers(text) };
}

/**
 * Decodes a Protobuf body (`k8s\0` + runtime.Unknown) to its JSON form, apiVersion and kind from
 * its typeMeta: 400 when malformed, 415 when its kind has no message (decodeProtobuf). The wire
 * cannot repeat a field the way JSON repeats a key (the last one wins, as in Go), and its integers
 * are exact: nothing to report of either.
 */
export function decodeProtobufBody(bytes: Buffer): DecodedBody {
  return { value: decodeProtobuf(bytes), duplicates: [], duplicateCount: 0 };
}

/**
 * The duplicate keys of every mapping, in document order, the first ones named `key (line N)`: a
 * scalar key repeats when its value does (as the yaml library's own uniqueKeys check decides), found
 * with one set per mapping. The library's check compares each key with every earlier one: quadratic
 * in a mapping's size.
 */
function findYamlDuplicates(doc: Document, lines: LineCounter): { duplicates: string[]; count: number } {
  const repeated: Scalar[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        // Keys equal by ===, as the library compares them (a Set alone would also match NaN with NaN).
        if (!isScalar(key) || Number.isNaN(key.value)) continue;
        if (seen.has(key.value)) repeated.push(key);
        else seen.add(key.value);
      }
    },
  });
  const offset = (key: Scalar): number => key.range?.[0] ?? 0;
  const named = repeated.sort((a, b) => offset(a) - offset(b)).slice(0, fieldProblemsNamedMax);
  // Named as written: in YAML 1.1 the key `n` is the boolean false.
  return { duplicates: named.map((key) => `${key.source ?? String(key.value)} (line ${lines.linePos(offset(key)).line})`), count: repeated.length };
}

/** Decodes YAML 1.1 (as kubectl writes it), noting duplicate keys and integers a double changed; malformed or too deeply nested YAML is a 400. */
export function decodeYaml(bytes: Buffer): DecodedBody {
  try {
    const decoded = decodeYamlText(bytes.toString('utf8'));
    if (valueNestsDeeperThan(decoded.value, bodyNestingDepthMax)) throw yamlTooDeep();
    return decoded;
  } catch (err) {
    // The yaml library's walks recurse: a document nested thousands deep overflows them before any check of ours.
    if (err instanceof RangeError) throw yamlTooDeep();
    throw err;
  }
}

function yamlTooDeep(): StatusError {
  return badRequest(`error decoding request body: invalid YAML: exceeded max depth (mappings and sequences nested more than ${bodyNestingDepthMax} deep)`);
}

function decodeYamlText(text: string): DecodedBody {
  const lines = new LineCounter();
  // Integers as BigInt, so that one a double changes is seen before it is rounded.
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false, lineCounter: lines, intAsBigInt: true });
  const error = doc.errors[0];
  // The parser's own recursion ran out of stack: the document nests too deep (RESOURCE_EXHAUSTION).
  if (error?.code === 'RESOURCE_EXHAUSTION') throw yamlTooDeep();
  if (error !== undefined) throw badRequest(`error decoding request body: invalid YAML: ${error.message.split('\n')[0] ?? ''}`);
  const inexactIntegers = numberYamlIntegers(doc);
  const { duplicates, count } = findYamlDuplicates(doc, lines);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    if (err instanceof RangeError) throw err;
    throw badRequest(`error decoding request body: invalid YAML: ${(err as Error).message}`);
  }
  return { value, duplicates, duplicateCount: count, inexactIntegers };
}
