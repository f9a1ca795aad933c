// The authentication floor: who a request is. How the wiring uses it:
//   1. At start: `const authn = await buildAuthenticator(options, { serviceAccountGetter, warn })`
//      (throws on a bad flag or file), then `void authn.start()` (OIDC discovery; never throws).
//      The TLS server gets `ca: authn.clientCertificateAuthorities, requestCert: true,
//      rejectUnauthorized: false`: the authenticators verify certificates, not TLS.
//   2. Per request: `authenticateRequest(authn.requestAuthenticator, { headers: req.headersDistinct,
//      peerCertificates: peerCertificateChain(req.socket), audiences: authn.apiAudiences })` gives
//      the user or throws the 401 StatusError to send. Then delete `authn.identityHeadersToStrip(...)`
//      and, before proxying anywhere, `authorization` (and rewrite Sec-WebSocket-Protocol with
//      `webSocketProtocolsWithoutToken`).
//   3. TokenReview uses `authn.tokenAuthenticator`; TokenRequest uses `authn.tokenIssuer`.
export type { AuthenticationOutcome, AuthenticationRequest, RequestAuthenticator, RequestHeaders, TokenAuthenticator } from './authenticator.ts';
export { authenticateRequest } from './authenticate-request.ts';
export { buildAuthenticator } from './build/build-authenticator.ts';
export type { Authentication, AuthenticationDependencies } from './build/build-authenticator.ts';
export { defaultAuthenticationOptions, effectiveApiAudiences } from './options.ts';
export type { AuthenticationOptions, StaticToken, OidcOptions, RequestHeaderOptions, ServiceAccountOptions, TokenWebhookOptions } from './options.ts';
export type { TokenReviewVersion } from './webhook/token-review.ts';
export { anonymousUser } from './anonymous.ts';
export { unauthorized } from './unauthorized.ts';
export { peerCertificateChain } from './x509/peer-certificates.ts';
export { webSocketProtocolsWithoutToken } from './bearertoken/websocket-protocol.ts';
export type { ObjectIdentity, SecretIdentity, ServiceAccountObjectGetter } from './serviceaccount/object-getter.ts';
export { TokenIssuer } from './serviceaccount/token-issuer.ts';
export type { BoundObject, BoundTokenRequest, IssuedToken } from './serviceaccount/token-issuer.ts';
export { serviceAccountUsername, splitServiceAccountUsername } from './serviceaccount/names.ts';
export * from './user-info.ts';
