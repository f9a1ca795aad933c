/** Limits of the Raft driver and transport, in one place (TIGER_STYLE: put a limit on everything). */

/** Default milliseconds per Raft tick. */
export const tickMsDefault = 100;
/** Default election timeout in ticks (randomized in [n, 2n) by the core). */
export const electionTicksDefault = 10;
/** Default heartbeat interval in ticks. */
export const heartbeatTicksDefault = 1;
/** Cap on entry data bytes in one append message. */
export const appendMessageBytesMax = 1024 * 1024;
/** Cap on append messages in flight per follower. */
export const inflightMessagesMax = 256;
/** Cap on committed entry bytes handed to the state machine in one Ready. */
export const committedBytesPerReadyMax = 16 * 1024 * 1024;
/**
 * Leader: cap on the data bytes of entries appended and not yet committed (etcd's
 * MaxUncommittedEntriesSize). Past it a proposal is refused with ProposalDropped (its proposer
 * retries: the store after a backoff, a follower's relay when it times out), so a flood of writes
 * cannot grow the leader's log in memory while its followers fall behind. Four of the largest
 * proposals (proposalBytesMax) fit, and any one proposal passes while nothing is pending.
 */
export const uncommittedEntriesBytesMax = 64 * 1024 * 1024;

/** Most recent log entries kept in memory by the durable log. */
export const entryCacheEntriesMax = 8192;
/** Bytes of entry data kept in memory by the durable log. */
export const entryCacheBytesMax = 64 * 1024 * 1024;
/** How long opening raft.db waits for another process holding it (one that is still stopping) before giving up. */
export const logLockWaitMs = 2_000;

/** Messages queued per peer before further ones are dropped (and the peer reported unreachable). */
export const peerQueueMessagesMax = 4096;
/** Messages in one batch on the peer stream. */
export const peerBatchMessagesMax = 128;
/** Entry bytes in one batch on the peer stream (a batch holds at least one message). */
export const peerBatchBytesMax = 8 * 1024 * 1024;
/** Largest gRPC message either side accepts. */
export const grpcMessageBytesMax = 64 * 1024 * 1024;
/** Size of one chunk of a snapshot stream. */
export const snapshotChunkBytes = 1024 * 1024;
/** First and last delay between reconnect attempts to a peer. */
export const reconnectBackoffMsMin = 50;
export const reconnectBackoffMsMax = 2000;
/** How long a forwarded command may take before the caller gives up. */
export const forwardTimeoutMsDefault = 30_000;
/** Commands in one ForwardBatch call (a call holds at least one). */
export const forwardBatchItemsMax = 256;
/** Command bytes in one ForwardBatch call (a call holds at least one command, however large). */
export const forwardBatchBytesMax = 4 * 1024 * 1024;
/** ForwardBatch calls in flight per peer; further commands wait and coalesce into the next call. */
export const forwardBatchesInFlightMax = 4;
/** Commands waiting to be forwarded per peer; more are refused with QueueFull. */
export const forwardQueueItemsMax = 65_536;
/** How long a snapshot transfer may take. */
export const snapshotTransferTimeoutMs = 10 * 60_000;

/** Readies handled in one turn of the event loop before yielding to I/O and timers. */
export const readiesPerTurnMax = 64;
/** Largest proposal accepted (well below grpcMessageBytesMax, so one entry always fits a message). */
export const proposalBytesMax = 16 * 1024 * 1024;
/** Commands relayed to the leader (proposeViaLeader) and not settled at once; more are refused with QueueFull. */
export const relayedProposalsMax = 65_536;
/** Proposals awaiting commit at once; more are refused with QueueFull. */
export const pendingProposalsMax = 65_536;
/** Reads waiting for a read index at once; more are refused with QueueFull. */
export const pendingReadsMax = 65_536;
/** Read-index rounds in flight at once. */
export const readIndexRoundsMax = 8;
/** Ticks a read-index round may wait before its readers are rejected with Timeout. */
export const readIndexTimeoutTicks = 30;
/**
 * Take a snapshot after this many entries were applied since the last one. A snapshot copies the
 * whole state database (and all replicas take theirs at about the same index), so it is rare, as
 * etcd 3.4's snapshot-count; snapshotEveryBytesDefault bounds the log kept meanwhile.
 */
export const snapshotEveryEntriesDefault = 100_000;
/** Take a snapshot sooner once this many bytes of entries were applied since the last one (a restart counts those in the log). */
export const snapshotEveryBytesDefault = 256 * 1024 * 1024;
/** Snapshot attempts per snapshot interval after a failure (the retry waits interval / this many entries). */
export const snapshotRetriesPerInterval = 10;
/** Entries deleted from the log in one step of a compaction (each step a few ms of the event loop). */
export const compactionStepEntries = 500;
/** Entries kept behind a snapshot so slightly slow followers catch up without one. */
export const snapshotCatchUpEntriesDefault = 1_000;

/**
 * A learner is promoted to voter only once its match index is at most this many entries behind the
 * leader's last index (etcd refuses below 90% of the leader's; in entries, the bound does not grow
 * with the log): a voter that is far behind would slow every commit while it catches up, and with
 * a small group could even cost the quorum.
 */
export const learnerPromotionLagEntriesMax = 1_000;
/** How long one Join or Promote call to a peer may take. */
export const membershipCallTimeoutMs = 10_000;
/** First and last delay between the attempts of a joining node to be added, then promoted. */
export const joinRetryMsMin = 200;
export const joinRetryMsMax = 5_000;
