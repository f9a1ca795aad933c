/** Limits of the garbage collector, in one place. */

/** How often the collector drops its graph and rebuilds it from a fresh list (catches anything missed). */
export const resyncIntervalMs = 5 * 60_000;

/** Pause before rebuilding after the graph's watch failed (compaction, a slow watcher, storage trouble). */
export const restartDelayMs = 1000;

/** Objects one list page reads while building the graph. */
export const listPageItemsMax = 500;

/** Items processed at once; each does a few consistent reads and at most one write. */
export const workersMax = 4;

/** First delay before an item that failed is retried; doubled on each further failure. */
export const retryDelayMsMin = 100;

/** Longest delay between retries of an item that keeps failing. */
export const retryDelayMsMax = 30_000;

/** Distinct unresolvable owner references remembered to log each only once (then forgotten). */
export const reportedReferencesMax = 10_000;
