import { parseDocument } from 'yaml';
import { badRequest, StatusError } from '../registry/errors/status-error.ts';
import { findDuplicateKeys } from './json-duplicates.ts';
import { requestBodyBytesMax } from './limits.ts';

/** A readable request body. */
export interface BodySource extends AsyncIterable<unknown> {
  readonly headers: Record<string, string | string[] | undefined>;
}

/** Reads the whole body; 413 as soon as it exceeds the limit (by header or by bytes read). */
export async function readBody(req: BodySource): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > requestBodyBytesMax) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    total += buf.length;
    if (total > requestBodyBytesMax) throw tooLarge();
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${requestBodyBytesMax}`);
}

/** A decoded body with the duplicate keys the decoder saw. */
export interface DecodedBody {
  readonly value: unknown;
  readonly duplicates: readonly string[];
}

/** Decodes JSON, noting duplicate keys; malformed JSON is a 400. */
export function decodeJson(bytes: Buffer): DecodedBody {
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest(`error decoding request body: invalid JSON: ${(err as Error).message}`);
  }
  return { value, duplicates: findDuplicateKeys(text) };
}

function duplicateKeyName(text: string, line: number): string {
  const source = text.split('\n')[line - 1] ?? '';
  return source.trim().replace(/^-\s*/, '').split(':')[0] ?? '';
}

/** Decodes YAML 1.1 (as kubectl writes it), noting duplicate keys; malformed YAML is a 400. */
export function decodeYaml(bytes: Buffer): DecodedBody {
  const text = bytes.toString('utf8');
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: true });
  const duplicates: string[] = [];
  for (const e of doc.errors) {
    if (e.code !== 'DUPLICATE_KEY') throw badRequest(`error decoding request body: invalid YAML: ${e.message.split('\n')[0] ?? ''}`);
    const line = e.linePos?.[0]?.line ?? 0;
    duplicates.push(`${duplicateKeyName(text, line)} (line ${line})`);
  }
  try {
    return { value: doc.toJS({ maxAliasCount: 100 }), duplicates };
  } catch (err) {
    throw badRequest(`error decoding request body: invalid YAML: ${(err as Error).message}`);
  }
}
