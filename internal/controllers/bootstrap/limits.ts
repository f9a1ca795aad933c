// Bounds of the bootstrap-token controllers (TIGER_STYLE: put a limit on everything).

/** tokencleaner and bootstrapsigner: full resync period (every token Secret looked at again without events). */
export const bootstrapTokenResyncMs = 60_000;

/** How long token Secret and cluster-info events gather before a pass. */
export const bootstrapTokenBatchMs = 50;

/** The longest a token-expiry timer is set for (node's setTimeout limit is about 24.8 days); a later expiry is re-armed by a resync. */
export const expiryTimerMsMax = 24 * 60 * 60_000;

/** cluster-info publisher: the first wait before retrying objects it could not create (a namespace not there yet, a store unavailable). */
export const clusterInfoRetryMsMin = 200;

/** cluster-info publisher: the longest wait between retries. */
export const clusterInfoRetryMsMax = 10_000;
