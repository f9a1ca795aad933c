/** Limits of the Raft core, in one place (TIGER_STYLE: put a limit on everything). */

/** The most read requests a leader queues while it has not yet committed an entry of its term. */
export const pendingReadIndexMessagesMax = 4096;
/** The most read requests waiting for a heartbeat quorum at once; later ones are dropped. */
export const pendingReadRequestsMax = 65536;
/** The default cap on committed-entry bytes handed out in one Ready. */
export const defaultCommittedSizePerReadyBytes = 64 * 1024 * 1024;
/** The most follower log indexes scanned backwards when searching for a conflict term. */
export const conflictScanMax = 1_000_000;
