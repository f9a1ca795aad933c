// What an authenticator is given and what it answers. Authenticators are unions in kube's way:
// each answers "this is the user", "not mine" or "mine, and invalid"; the union decides.
import type { UserInfo } from './user-info.ts';

/** Request headers as node gives them (`req.headersDistinct` is best: every header an array); names lowercase. */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Everything an authenticator may look at; a unit test builds one without a server. */
export interface AuthenticationRequest {
  /** The request's headers, names lowercase. */
  readonly headers: RequestHeaders;
  /**
   * The client's TLS certificate chain, DER, leaf first, as the client presented it (see
   * `peerCertificateChain`); empty when there is no client certificate. Each authenticator
   * verifies it against its own CA bundle: the TLS layer is not trusted to have done so.
   */
  readonly peerCertificates: readonly Buffer[];
  /** The audiences this server accepts (--api-audiences); absent means each authenticator's default. */
  readonly audiences?: readonly string[];
}

/** The answer of one authenticator. */
export type AuthenticationOutcome =
  /** The credential is valid: this is the caller (audiences: those the credential was valid for). */
  | { readonly kind: 'authenticated'; readonly user: UserInfo; readonly audiences?: readonly string[] }
  /** The request carries no credential of this kind: the next authenticator is tried. */
  | { readonly kind: 'no-opinion' }
  /**
   * The request carries a credential of this kind and it is invalid. `reason` is for the server's
   * log only: it never contains the credential, and it is never sent to the client (who gets 401).
   */
  | { readonly kind: 'failed'; readonly reason: string };

/** Authenticates a whole request (certificates, headers, bearer tokens). */
export interface RequestAuthenticator {
  /** What kind of authenticator this is, for logs and metrics (`x509`, `requestheader`, ...). */
  readonly name: string;
  /** Never throws for a bad credential (that is `failed`); throws only on a bug. */
  authenticate(request: AuthenticationRequest): Promise<AuthenticationOutcome>;
}

/** Authenticates a bearer token (token file, service accounts, OIDC, webhook). */
export interface TokenAuthenticator {
  readonly name: string;
  /**
   * Answers for `token`; `audiences` are those the server accepts (absent: the authenticator's
   * default). `no-opinion` means "not a token of mine"; never throws for a bad token.
   */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthenticationOutcome>;
}

/** The one "not mine" answer. */
export const noOpinion: AuthenticationOutcome = { kind: 'no-opinion' };

/** A `failed` answer with a reason for the log. */
export function failed(reason: string): AuthenticationOutcome {
  return { kind: 'failed', reason };
}

/** An `authenticated` answer. */
export function authenticated(user: UserInfo, audiences?: readonly string[]): AuthenticationOutcome {
  return audiences === undefined ? { kind: 'authenticated', user } : { kind: 'authenticated', user, audiences };
}
