import { revision, type Revision } from '../../storage/storage.ts';
import { badRequest } from '../errors/status-error.ts';

/** What a continue token carries: the list's revision and the key to start from. */
export interface ContinuePosition {
  readonly revision: Revision;
  readonly startKey: string;
}

/** Encodes a continue token (opaque to clients). */
export function encodeContinue(pos: ContinuePosition): string {
  return Buffer.from(JSON.stringify({ v: 1, rv: pos.revision, start: pos.startKey })).toString('base64url');
}

/** Decodes a continue token; a malformed one (or one for another collection) is a 400. */
export function decodeContinue(token: string, prefix: string): ContinuePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('continue key is not valid: malformed token');
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p.v !== 1 || typeof p.rv !== 'number' || !Number.isSafeInteger(p.rv) || p.rv < 0 || typeof p.start !== 'string') throw badRequest('continue key is not valid: malformed token');
  if (!p.start.startsWith(prefix)) throw badRequest('continue key is not valid: it belongs to another collection');
  return { revision: revision(p.rv), startKey: p.start };
}
