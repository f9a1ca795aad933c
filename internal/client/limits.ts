// Every bound of the client library in one place (TIGER_STYLE: put a limit on everything).

/** Attempts of one request across endpoints, including the first. */
export const requestAttemptsMax = 5;
/** First retry delay; each further retry doubles it (full jitter), up to `retryBackoffMaxMs`. */
export const retryBackoffBaseMs = 25;
/** Upper bound of one retry delay. */
export const retryBackoffMaxMs = 2_000;
/** First ejection period of an endpoint after a failure; doubles per consecutive failure. */
export const ejectionBackoffBaseMs = 500;
/** Upper bound of one ejection period. */
export const ejectionBackoffMaxMs = 30_000;
/** Time allowed for one /readyz probe of an ejected endpoint. */
export const probeTimeoutMs = 2_000;
/** Time allowed for response headers of an ordinary (non-watch) request. */
export const requestTimeoutMs = 30_000;
/** Largest response body of an ordinary request the client buffers. */
export const responseBodyBytesMax = 64 * 1024 * 1024;
/** Largest single JSON document in a watch stream. */
export const watchDocumentBytesMax = 16 * 1024 * 1024;
/** Consecutive watch (re)connection failures without an event in between before the watch gives up. */
export const watchReconnectAttemptsMax = 30;
/** Pages of one chunked list before the client assumes a server bug (endless continue tokens). */
export const listPagesMax = 100_000;
/** Restarts of a chunked list after its continue token expired (410) before giving up. */
export const listRestartsMax = 3;
/** A watch asks the server to end each stream after a random time in [min, max] seconds (as client-go does), so no stream lives forever. */
export const watchTimeoutSecondsMin = 300;
/** Upper end of the random stream lifetime a watch asks for. */
export const watchTimeoutSecondsMax = 600;
/**
 * A stream silent for longer than its requested lifetime plus this margin is dead (a paused or
 * partitioned replica can neither send nor end it); the watch then resumes elsewhere.
 */
export const watchSilenceMarginMs = 30_000;
/** A stream that ends cleanly after this long (or half its lifetime, if shorter) was healthy even without events. */
export const watchStreamHealthyMs = 10_000;
/** Time one run of an exec credential plugin may take before it is killed and the request fails. */
export const execPluginTimeoutMs = 60_000;
/** Largest answer (stdout) of an exec credential plugin. */
export const execPluginOutputBytesMax = 1024 * 1024;
/** How much of the end of a failed plugin's stderr goes into the error message. */
export const execPluginStderrTailBytes = 2048;
