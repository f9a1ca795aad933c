// Every bound of the admission webhook layer, in one place (TIGER_STYLE: put a limit on everything).

/** Largest AdmissionReview response body read from a webhook; a larger one fails the call. */
export const webhookResponseBytesMax = 10 * 1024 * 1024;
/** Largest kubeconfig file read for webhook client credentials. */
export const credentialsFileBytesMax = 4 * 1024 * 1024;
/** Longest part of a non-JSON error body quoted in a call failure's message. */
export const errorBodyQuotedBytesMax = 1024;
/** Most webhooks one source holds across its configurations; more is refused when replaced. */
export const webhooksPerSourceMax = 10_000;

/** Connections kept open to one webhook address (calls past it wait for one). */
export const webhookSocketsPerHostMax = 64;

/** How long an idle connection to a webhook stays open for the next call. */
export const webhookIdleSocketMs = 30_000;
