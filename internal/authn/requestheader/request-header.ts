// --requestheader-*: an authenticating proxy names the user in request headers. The headers are
// believed only from a client certificate that verifies against the request-header CA and whose
// CN is allowed (kube's requestheader authenticator behind its x509 verifier).
import type { X509Certificate } from 'node:crypto';
import { authenticated, failed, noOpinion } from '../authenticator.ts';
import type { AuthenticationRequest, RequestAuthenticator, RequestHeaders } from '../authenticator.ts';
import { headerValues } from '../headers.ts';
import type { UserInfo } from '../user-info.ts';
import { ClientChainVerifier } from '../x509/verified-chain-cache.ts';

/** The request-header flags, names as given (matched without case). */
export interface RequestHeaderNames {
  /** --requestheader-username-headers: the first with a non-empty value is the user name. */
  readonly usernameHeaders: readonly string[];
  /** --requestheader-group-headers: every non-empty value of each is a group. */
  readonly groupHeaders: readonly string[];
  /** --requestheader-extra-headers-prefix: the rest of the name, lowercased and percent-decoded, is an extra key. */
  readonly extraHeaderPrefixes: readonly string[];
}

/** What the request-header authenticator needs. */
export interface RequestHeaderAuthenticatorOptions extends RequestHeaderNames {
  /** --requestheader-client-ca-file. */
  readonly roots: readonly X509Certificate[];
  /** --requestheader-allowed-names: allowed proxy CNs; empty allows any. */
  readonly allowedNames: readonly string[];
  readonly clock: () => number;
}

function nonEmptyValues(headers: RequestHeaders, names: readonly string[]): string[] {
  return names.flatMap((name) => headerValues(headers, name)).filter((v) => v !== '');
}

function decodeExtraKey(raw: string): string {
  // Go's url.PathUnescape; on a malformed escape kube keeps the key as it came.
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function extraFromHeaders(headers: RequestHeaders, prefixes: readonly string[]): Record<string, string[]> {
  const extra: Record<string, string[]> = {};
  const lowerPrefixes = prefixes.map((p) => p.toLowerCase());
  for (const name of Object.keys(headers)) {
    const lowerName = name.toLowerCase();
    for (const prefix of lowerPrefixes) {
      if (!lowerName.startsWith(prefix)) continue;
      const key = decodeExtraKey(lowerName.slice(prefix.length));
      const value = headers[name];
      if (value !== undefined) (extra[key] ??= []).push(...(typeof value === 'string' ? [value] : value));
    }
  }
  return extra;
}

/** The user the proxy's headers name, or undefined when no username header has a value. */
export function userFromRequestHeaders(headers: RequestHeaders, names: RequestHeaderNames): UserInfo | undefined {
  const username = nonEmptyValues(headers, names.usernameHeaders)[0];
  if (username === undefined) return undefined;
  return { username, uid: '', groups: nonEmptyValues(headers, names.groupHeaders), extra: extraFromHeaders(headers, names.extraHeaderPrefixes) };
}

/**
 * No client certificate: no opinion (the headers are ignored). A certificate that does not verify
 * against the request-header CA, or whose CN is not allowed: failed, and the headers are ignored
 * (another authenticator may still accept the request). Verified but no username header: no opinion.
 */
export function requestHeaderAuthenticator(options: RequestHeaderAuthenticatorOptions): RequestAuthenticator {
  const allowed = new Set(options.allowedNames);
  const verifier = new ClientChainVerifier(options.roots);
  return {
    name: 'requestheader',
    authenticate(request: AuthenticationRequest) {
      if (request.peerCertificates.length === 0) return Promise.resolve(noOpinion);
      const verified = verifier.check(request.peerCertificates, options.clock());
      if (!verified.ok) return Promise.resolve(failed(verified.reason));
      const { commonName } = verified.subject;
      if (allowed.size > 0 && !allowed.has(commonName)) return Promise.resolve(failed('x509: subject is not in the allowed list'));
      const user = userFromRequestHeaders(request.headers, options);
      return Promise.resolve(user === undefined ? noOpinion : authenticated(user));
    },
  };
}

/**
 * Whether header `name` (any case) is one the proxy uses to name a user, and so must be removed
 * from the request before anything downstream (a handler, a proxied backend, audit) sees it,
 * whoever sent it: kube clears them after a proxy is believed; we clear them always, so a header
 * forged by a client that authenticated some other way is never read by anyone.
 */
export function isRequestHeaderIdentityHeader(name: string, names: RequestHeaderNames): boolean {
  const lower = name.toLowerCase();
  return (
    names.usernameHeaders.some((h) => h.toLowerCase() === lower) ||
    names.groupHeaders.some((h) => h.toLowerCase() === lower) ||
    names.extraHeaderPrefixes.some((p) => lower.startsWith(p.toLowerCase()))
  );
}

/** The names (lowercase) of `headers` that `isRequestHeaderIdentityHeader` says to remove. */
export function requestHeaderIdentityHeadersIn(headers: RequestHeaders, names: RequestHeaderNames): string[] {
  return Object.keys(headers).filter((name) => isRequestHeaderIdentityHeader(name, names)).map((n) => n.toLowerCase());
}
