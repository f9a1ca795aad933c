// What the registry needs from the authentication floor to serve serviceaccounts/token
// (TokenRequest) and TokenReview. The shapes are those of internal/authn's built `Authentication`
// object, so the wiring hands that object over as it is; tests hand a fake or the real one.
import type { AuthenticationOutcome } from '../../../authn/authenticator.ts';
import type { BoundTokenRequest, IssuedToken } from '../../../authn/serviceaccount/token-issuer.ts';

/** Mints bound service-account tokens (authn's TokenIssuer). */
export interface BoundTokenMinter {
  /** Signs a token for an already resolved request; throws only on a bug or a 422 StatusError. */
  issueBoundToken(request: BoundTokenRequest): IssuedToken;
}

/** Authenticates a bearer token (authn's token chain, users with system:authenticated). */
export interface BearerTokenReviewer {
  /** Never throws for a bad token: that is `failed` (or `no-opinion` for a token nobody knows). */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthenticationOutcome>;
}

/**
 * The token side of the server's authentication. Every field is optional in the way kube-apiserver
 * makes it so: without --service-account-signing-key-file there is no issuer (TokenRequest is not
 * served), without any token authenticator TokenReview answers an empty status.
 */
export interface ServiceAccountTokens {
  /** `authn.tokenIssuer`. */
  readonly tokenIssuer?: BoundTokenMinter;
  /** `authn.tokenAuthenticator`. */
  readonly tokenAuthenticator?: BearerTokenReviewer;
  /** `authn.apiAudiences`: the audiences of a TokenRequest or TokenReview that names none. */
  readonly apiAudiences: readonly string[];
}
