// Unions of authenticators with kube's semantics (k8s.io/apiserver pkg/authentication/request/union
// and token/union): members are tried in order; the first `authenticated` wins; a member's failure
// does not stop the others (a proxy certificate from the wrong CA must not hide a valid bearer
// token), but when nobody authenticated, any failure makes the whole answer a failure.
import { failed, noOpinion } from './authenticator.ts';
import type { AuthenticationOutcome, AuthenticationRequest, RequestAuthenticator, TokenAuthenticator } from './authenticator.ts';

async function firstAuthenticated(
  members: readonly { readonly name: string }[],
  attempt: (index: number) => Promise<AuthenticationOutcome>,
): Promise<AuthenticationOutcome> {
  const reasons: string[] = [];
  for (let i = 0; i < members.length; i++) {
    const outcome = await attempt(i);
    if (outcome.kind === 'authenticated') return outcome;
    if (outcome.kind === 'failed') reasons.push(`${members[i]?.name ?? '?'}: ${outcome.reason}`);
  }
  return reasons.length === 0 ? noOpinion : failed(reasons.join('; '));
}

/** Request authenticators tried in order (kube's union.New). */
export function requestAuthenticatorUnion(members: readonly RequestAuthenticator[]): RequestAuthenticator {
  return {
    name: 'union',
    authenticate: (request: AuthenticationRequest) => firstAuthenticated(members, (i) => members[i]!.authenticate(request)),
  };
}

/** Token authenticators tried in order (kube's tokenunion.New). */
export function tokenAuthenticatorUnion(members: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    name: 'token-union',
    authenticateToken: (token, audiences) => firstAuthenticated(members, (i) => members[i]!.authenticateToken(token, audiences)),
  };
}

/**
 * `primary`, and only when it has no opinion, `fallback` (kube's union.NewFailOnError used for
 * anonymous): a request with an invalid credential is never let through as anonymous.
 */
export function withFallback(primary: RequestAuthenticator, fallback: RequestAuthenticator): RequestAuthenticator {
  return {
    name: primary.name,
    async authenticate(request) {
      const outcome = await primary.authenticate(request);
      return outcome.kind === 'no-opinion' ? fallback.authenticate(request) : outcome;
    },
  };
}
