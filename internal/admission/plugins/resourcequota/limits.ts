// The bounds of the ResourceQuota plugin, in one place.

/**
 * How many times a batch re-reads and re-checks the quotas whose status write lost a
 * compare-and-swap race (kube retries three times; three replicas race here, so more).
 */
export const quotaWriteRetriesMax = 10;

/** The most admissions of one namespace checked and charged together in one batch. */
export const quotaBatchSizeMax = 64;

/** How long a request waits for its batch before failing with 500 (kube's 10 seconds). */
export const quotaEvaluationTimeoutMs = 10_000;

/** How long a namespace confirmed (at the leader) to hold no quota is trusted to hold none (kube's live lookup TTL, 30 s). */
export const liveLookupTtlMs = 30_000;

/** Namespaces remembered as holding no quota (the memory is dropped whole past this). */
export const liveLookupEntriesMax = 10_000;

/** The wait before the quota index lists again after its watch ended (quota-namespaces.ts). */
export const quotaIndexRelistDelayMs = 1000;
