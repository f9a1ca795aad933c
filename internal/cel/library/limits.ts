// Bounds of the CEL library layer, in one place.

/** Compiled regular expressions kept for reuse (oldest evicted first). */
export const regexCacheEntriesMax = 256;

/** Authorization decisions one evaluation may ask for; more is an error (kube's cost allows two). */
export const authorizationChecksMax = 64;
