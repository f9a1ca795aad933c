// Authenticators whose credentials carry no audience (token file, OIDC, the proxy) are valid for
// whatever the server accepts; kube's WrapAudienceAgnostic* says so in the answer.
import type { TokenAuthenticator } from './authenticator.ts';

/** `inner`, answering with the requested audiences (or `apiAudiences`) on success. */
export function audienceAgnosticToken(inner: TokenAuthenticator, apiAudiences: readonly string[]): TokenAuthenticator {
  if (apiAudiences.length === 0) return inner;
  return {
    name: inner.name,
    async authenticateToken(token, audiences) {
      const outcome = await inner.authenticateToken(token, audiences);
      return outcome.kind === 'authenticated' ? { ...outcome, audiences: [...(audiences ?? apiAudiences)] } : outcome;
    },
  };
}
