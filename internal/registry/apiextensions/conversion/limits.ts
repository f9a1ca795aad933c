// Every bound of custom resource conversion, in one place (TIGER_STYLE: put a limit on everything).

/** How long one ConversionReview exchange may take (kube's webhook client timeout: 30 s). */
export const conversionWebhookTimeoutMs = 30_000;

/** Largest ConversionReview response body read from a webhook; a larger one fails the conversion. */
export const conversionResponseBytesMax = 64 * 1024 * 1024;

/** Connections kept open to one conversion webhook address (calls past it wait for one). */
export const conversionSocketsPerHostMax = 64;

/** How long an idle connection to a conversion webhook stays open for the next call. */
export const conversionIdleSocketMs = 30_000;

/** A call slower than this plus the per-object allowance is logged (kube traces past 50 ms + 8 ms per object). */
export const conversionSlowCallBaseMs = 50;
/** The per-object part of the slow-call threshold. */
export const conversionSlowCallPerObjectMs = 8;

/** Longest part of a non-JSON error body quoted in a failure's message. */
export const errorBodyQuotedBytesMax = 1024;
