// The certificate controllers' timings (kube-controller-manager 1.28's csrsigning, csrapproving,
// csrcleaner).

/** Signing and approving: a full pass this often even without a change to a request. */
export const csrResyncMs = 60_000;

/** The wait before a request whose handling failed is tried again (kube's rate-limited queue, roughly). */
export const csrBusyResyncMs = 5_000;

/** How long request events gather before a pass. */
export const csrBatchMs = 20;

/** The cleaner's pass interval (kube's pollingInterval). */
export const csrCleanerIntervalMs = 60 * 60_000;

/** Approved (and issued) requests go this long after their approval. */
export const approvedExpirationMs = 60 * 60_000;

/** Denied requests go this long after their denial. */
export const deniedExpirationMs = 60 * 60_000;

/** Failed requests go this long after their failure (kube reuses the denied expiration). */
export const failedExpirationMs = deniedExpirationMs;

/** Requests nobody approved or denied go this long after their creation. */
export const pendingExpirationMs = 24 * 60 * 60_000;
