// Continue tokens of chunked lists, shaped like Kubernetes' ({"v":"meta.k8s.io/v1","rv":N,"start":"..."},
// base64). The start key is stored relative to the list's prefix, so a crafted token can never
// reach keys outside the prefix it is used with.
import { revision, type Revision } from './storage.ts';

const tokenVersion = 'meta.k8s.io/v1';

/** What a continue token carries: the list's revision and the first key of the next page. */
export interface ContinuePosition {
  readonly revision: Revision;
  readonly nextKey: string;
}

/** Encodes the position of the next page of a list over `prefix` (`nextKey` must start with it). */
export function encodeContinueToken(position: ContinuePosition, prefix: string): string {
  if (!position.nextKey.startsWith(prefix)) throw new Error(`assert: next key ${position.nextKey} is outside ${prefix}`);
  const body = { v: tokenVersion, rv: position.revision, start: position.nextKey.slice(prefix.length) };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64');
}

/** Decodes a token for a list over `prefix`; null when it is malformed (the API answers 400). */
export function decodeContinueToken(token: string, prefix: string): ContinuePosition | null {
  if (token === '' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(token)) return null;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const { v, rv, start } = body as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== tokenVersion || typeof start !== 'string' || typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv <= 0) return null;
  return { revision: revision(rv), nextKey: prefix + start };
}
