// Every bound of the audit layer, in one place (TIGER_STYLE: put a limit on everything).

/** A User-Agent longer than this is cut and marked `...TRUNCATED`, as kube-apiserver's audit cuts it. */
export const userAgentCharsMax = 1024;
/** Largest audit policy file read (kube reads any size; a policy is a few KiB). */
export const policyFileBytesMax = 4 * 1024 * 1024;
/** Webhook batches being sent at once; a batch ready while this many are in flight waits for one to end. */
export const webhookSendsInFlightMax = 16;
/** Attempts of one webhook batch (kube's webhook backoff: 5 steps, factor 1.5, 20% jitter). */
export const webhookAttemptsMax = 5;
/** Time allowed for one POST of a batch to the audit webhook. */
export const webhookRequestTimeoutMs = 30_000;
/** How long a stopping replica waits for its buffered webhook events to be sent before dropping them. */
export const webhookShutdownWaitMs = 5_000;
