// Every bound of the storage layer in one place (TIGER_STYLE: put a limit on everything).

/** Largest stored value (the object's JSON bytes); larger writes fail with `ValueTooLarge` before proposing. */
export const valueBytesMax = 1.5 * 1024 * 1024;
/** How many applied log entries a request id (and its result) is remembered for de-duplication. */
export const requestIdWindowEntries = 50_000;
/**
 * Request ids older than the window are deleted when the applied index crosses a multiple of this:
 * at once, rather than one at a time, their scattered index pages are written once per period.
 */
export const requestPruneEveryEntries = 1024;
/** A replica's batch of applies commits this long after its first apply (commit-batch.ts; etcd: 100 ms). */
export const applyCommitIntervalMs = 100;
/** Applied entries after which a batch commits at once (etcd: 10,000): bounds what a restart re-applies. */
export const applyCommitEntriesMax = 10_000;
/** Events queued for one watcher before it is closed with `WatcherTooSlow`. */
export const watchBufferEventsMax = 10_000;
/** Value bytes queued for one watcher before it is closed with `WatcherTooSlow`. */
export const watchBufferBytesMax = 64 * 1024 * 1024;
/** History rows read from SQLite per replay page of a watch. */
export const watchReplayPageRows = 500;
/** Default history kept for MVCC reads and watches (SPEC: about 5 minutes). */
export const defaultRetentionMs = 5 * 60 * 1000;
/** Upper bound of the period between two retention compactions. */
export const compactionIntervalMsMax = 60_000;
/** Attempts of one write across leader changes (same request id each time). */
export const writeAttemptsMax = 8;
/** First delay between write attempts; doubles per attempt up to `writeRetryBackoffMaxMs`. */
export const writeRetryBackoffBaseMs = 20;
/** Upper bound of one delay between write attempts. */
export const writeRetryBackoffMaxMs = 1_000;
/**
 * How long a follower waits to apply a write it relayed to the leader before relaying it again
 * (a relay lost on a broken stream has no answer to time out); a new leader gets it at once.
 */
export const relayAttemptTimeoutMsDefault = 3_000;
/** Waiters of `waitForRevision` at once; more fail with `Unavailable`. */
export const revisionWaitersMax = 100_000;
/** ReadIndex rounds one linearizable read tries (a restarted replica may not know the leader yet). */
export const readIndexAttemptsMax = 5;
