// Bounds of the CEL library layer, in one place.

/** Compiled regular expressions kept for reuse (oldest evicted first). */
export const regexCacheEntriesMax = 256;

/** Authorization decisions one evaluation may ask for; more is an error (kube's cost allows two). */
export const authorizationChecksMax = 64;

/**
 * Code points RE2's parser may case-fold one by one for one pattern (the ranges of its (?i)
 * classes within Unicode's fold range); beyond it a pattern is refused, as compiling it would
 * block for seconds. Two (?i)[\x{80}-\x{10FFFF}]-style ranges fit.
 */
export const regexCaseFoldWorkMax = 300_000;
