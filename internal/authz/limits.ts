/** Limits and defaults of the authorization layer, in one place. */

/** `--authorization-webhook-cache-authorized-ttl` default: how long an allowed answer is reused. */
export const webhookAuthorizedTtlMsDefault = 5 * 60_000;

/** `--authorization-webhook-cache-unauthorized-ttl` default: how long a denied or no-opinion answer is reused. */
export const webhookUnauthorizedTtlMsDefault = 30_000;

/** Answers the webhook cache holds at most; the oldest goes first (kube's LRU holds 8192). */
export const webhookCacheEntriesMax = 8192;

/**
 * Requests whose namespace, name, path and other caller-controlled strings exceed this many bytes
 * are never cached, so one caller cannot fill the cache with huge keys (kube's maxControlledAttrCacheSize).
 */
export const webhookCachedAttributeBytesMax = 10_000;

/** One call to the webhook fails after this long (kube's webhook client timeout). */
export const webhookRequestTimeoutMs = 30_000;

/** Attempts per authorization at the webhook, the first included (kube's DefaultAuthWebhookRetryBackoff steps). */
export const webhookAttemptsMax = 5;

/** Wait before the second attempt; each further wait is 1.5 times longer (kube's backoff: 500 ms, factor 1.5). */
export const webhookRetryDelayMsInitial = 500;

/** A webhook answer body larger than this is an error, not parsed. */
export const webhookResponseBytesMax = 1024 * 1024;

/** Sub-rules one escalation check may break a role into: a role beyond it is refused, not computed. */
export const escalationSubrulesMax = 100_000;

/**
 * RBAC decisions remembered between two changes of the RBAC objects (rbac-authorizer.ts); the
 * memory is dropped whole past this.
 */
export const rbacDecisionsCachedMax = 8192;

/** Requests whose attributes (user, groups, names, path) are longer than this are decided without the RBAC decision cache. */
export const rbacCachedAttributeCharsMax = 4096;
