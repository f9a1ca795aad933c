// `Authorization: Bearer <token>` read as kube's bearertoken authenticator reads it, then handed
// to the token authenticators. A bearer token that no token authenticator accepts is a failure
// (401), never "no opinion": it must not fall through to anonymous.
import { failed, noOpinion } from '../authenticator.ts';
import type { AuthenticationRequest, RequestAuthenticator, TokenAuthenticator } from '../authenticator.ts';
import { firstHeaderValue } from '../headers.ts';
import { bearerTokenBytesMax } from '../limits.ts';

/** What the Authorization header holds, for the bearer-token authenticator. */
export type BearerTokenParse =
  | { readonly kind: 'none' }
  | { readonly kind: 'too-long' }
  | { readonly kind: 'token'; readonly token: string };

/**
 * Reads a bearer token from an Authorization header value. Like kube: the value is trimmed, split
 * at the first two single spaces, the scheme compared without case; any other scheme, a missing
 * token or an empty one (`Bearer  x`, two spaces) is no bearer token at all.
 */
export function parseBearerToken(authorization: string): BearerTokenParse {
  const value = authorization.trim();
  if (value === '') return { kind: 'none' };
  const parts = value.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return { kind: 'none' };
  const token = parts[1]!;
  if (token === '') return { kind: 'none' };
  if (Buffer.byteLength(token, 'utf8') > bearerTokenBytesMax) return { kind: 'too-long' };
  return { kind: 'token', token };
}

/** The request authenticator for bearer tokens, over `tokens` (usually a token union). */
export function bearerTokenAuthenticator(tokens: TokenAuthenticator): RequestAuthenticator {
  return {
    name: 'bearer-token',
    async authenticate(request: AuthenticationRequest) {
      const parsed = parseBearerToken(firstHeaderValue(request.headers, 'authorization'));
      if (parsed.kind === 'none') return noOpinion;
      if (parsed.kind === 'too-long') return failed('bearer token too long');
      const outcome = await tokens.authenticateToken(parsed.token, request.audiences);
      return outcome.kind === 'no-opinion' ? failed('invalid bearer token') : outcome;
    },
  };
}
