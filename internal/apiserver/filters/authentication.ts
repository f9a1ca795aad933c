// The authentication filter (kube-apiserver's WithAuthentication): the first filter of every
// request, health and /version included. It asks the authenticator chain of internal/authn who
// the request is: an invalid credential is a bare 401 on every path; no credential is the
// anonymous user when --anonymous-auth is on (the authorizer then decides what anonymous may see)
// and a 401 otherwise. It removes the identity headers of the authenticating proxy, so nothing
// downstream mistakes a client's own header for the proxy's, and records the user for the rest
// of the chain (`authenticatedUser`).
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { authenticateRequest, peerCertificateChain } from '../../authn/index.ts';
import type { Authentication, RequestHeaders, UserInfo } from '../../authn/index.ts';

/** The part of a Node HTTP/1 or HTTP/2 compat request the filter reads and changes. */
export interface AuthenticationSource {
  readonly headers: IncomingHttpHeaders;
  /** name, value, name, value...: every value of a repeated header (Node's `headers` joins them). */
  readonly rawHeaders?: readonly string[];
  /** The TLS socket (HTTP/2: the session's): where the client certificate is. */
  readonly socket?: Pick<TLSSocket, 'getPeerCertificate'> | null;
}

/** The user each request authenticated as, by its headers object (one per request, never reused). */
const usersByRequestHeaders = new WeakMap<IncomingHttpHeaders, UserInfo>();

/** Each header's values, names lowercase, from `rawHeaders` when the request has them. */
function headersOf(req: AuthenticationSource): RequestHeaders {
  const raw = req.rawHeaders;
  if (raw === undefined) return req.headers;
  const headers: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    (headers[name] ??= []).push(raw[i + 1] ?? '');
  }
  return headers;
}

function peerCertificates(req: AuthenticationSource): Buffer[] {
  const socket = req.socket;
  if (socket === undefined || socket === null || typeof socket.getPeerCertificate !== 'function') return [];
  return peerCertificateChain(socket);
}

/**
 * Authenticates `req` with `authentication`: resolves with its user (recorded for
 * `authenticatedUser`) after deleting the proxy's identity headers; rejects with the 401
 * StatusError to send. `log` gets why a credential failed, never the credential.
 */
export async function authenticationFilter(authentication: Authentication, req: AuthenticationSource, log: (reason: string) => void = () => undefined): Promise<UserInfo> {
  const headers = headersOf(req);
  const { user } = await authenticateRequest(
    authentication.requestAuthenticator,
    { headers, peerCertificates: peerCertificates(req), audiences: authentication.apiAudiences },
    log,
  );
  for (const name of authentication.identityHeadersToStrip(headers)) delete req.headers[name];
  usersByRequestHeaders.set(req.headers, user);
  return user;
}

/** The user `authenticationFilter` found for the request with these headers; undefined when it refused the request or did not run. */
export function authenticatedUserOrUndefined(headers: IncomingHttpHeaders): UserInfo | undefined {
  return usersByRequestHeaders.get(headers);
}

/**
 * The user `authenticationFilter` found for the request with these headers. Throws (a bug) when
 * the filter did not run: no request may go on without an identity.
 */
export function authenticatedUser(headers: IncomingHttpHeaders): UserInfo {
  const user = usersByRequestHeaders.get(headers);
  if (user === undefined) throw new Error('assert: a request reached the filters after authentication without a user');
  return user;
}

