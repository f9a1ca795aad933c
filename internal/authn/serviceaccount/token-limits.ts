// TokenRequest's expiration rules (kube's TokenRequest validation and the token REST storage).

/** Shortest expirationSeconds a TokenRequest may ask for (10 minutes). */
export const tokenExpirationSecondsMin = 600;
/** Longest expirationSeconds a TokenRequest may ask for (2^32 s). */
export const tokenExpirationSecondsMax = 2 ** 32;
/** expirationSeconds when the request names none (one hour). */
export const tokenExpirationSecondsDefault = 3600;
/**
 * The lifetime the ServiceAccount admission plugin asks for in projected volumes; with
 * --service-account-extend-token-expiration such tokens live a year and warn after this.
 */
export const warnOnlyBoundTokenExpirationSeconds = 3607;
/** The extended lifetime (one year). */
export const extendedTokenExpirationSeconds = 365 * 24 * 60 * 60;
