// Every bound of the authentication layer, in one place (TIGER_STYLE: put a limit on everything).

/** Longest bearer token read from a request; a longer one is refused (401) before any parsing. */
export const bearerTokenBytesMax = 64 * 1024;
/** Most certificates read from a client's TLS chain (leaf included); a longer chain is refused. */
export const peerCertificateChainMax = 10;
/** Deepest certificate path built from a leaf to a trusted root. */
export const certificatePathDepthMax = 8;
/** Largest file read for flags (--token-auth-file, key files, CA bundles, kubeconfig). */
export const configurationFileBytesMax = 16 * 1024 * 1024;
/** Largest HTTPS response body read from an identity provider or a token webhook. */
export const remoteResponseBytesMax = 1024 * 1024;
/** Time allowed for one HTTPS request to an identity provider or a token webhook. */
export const remoteRequestTimeoutMs = 30_000;
/** Entries of the token webhook's result cache; the oldest entry goes first. */
export const tokenCacheEntriesMax = 10_000;
/** Slack for clock skew on service-account `nbf`/`iat`/`exp` (go-jose's default leeway). */
export const serviceAccountClockLeewaySeconds = 60;
/** Slack for clock skew on an OIDC `nbf` (go-oidc's). `exp` gets none, as in go-oidc. */
export const oidcNotBeforeLeewaySeconds = 60;
/** A deleted object's tokens stay valid this long after its deletionTimestamp (kube's grace). */
export const deletedObjectGraceSeconds = 60;
/** Least time between two JWKS fetches caused by tokens naming an unknown `kid` (a token cannot make us hammer the IdP). */
export const jwksRefreshIntervalMsMin = 10_000;
/** Time between two OIDC discovery attempts while the provider cannot be reached (kube polls every 10 s). */
export const oidcDiscoveryRetryMs = 10_000;
/** Keys accepted from one JWKS document. */
export const jwksKeysMax = 100;
/** Client certificate chains remembered as verified, per CA bundle; the oldest goes first. */
export const verifiedChainCacheEntriesMax = 1_000;
