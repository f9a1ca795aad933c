import type { ConfState, Entry, HardState, Index, Snapshot, Term } from './types.ts';

/**
 * The durable log as the core sees it: read-only. The driver writes to it (append, hard
 * state, snapshot) when it handles a Ready; the core only reads.
 *
 * Ranges are half-open. Errors are `RaftError`s:
 * - `Compacted` when an index at or below the snapshot index is asked for (except `term` of
 *   the snapshot index itself, which is known);
 * - `Unavailable` when an index above `lastIndex()` is asked for.
 */
export interface LogStorage {
  /** The hard state and membership as last persisted (used once, when a node starts). */
  initialState(): { hardState: HardState; confState: ConfState };
  /**
   * Entries in [lo, hi). Returns at least one entry when lo < hi, and stops before the total
   * `data` bytes would exceed `maxBytes`. Throws `Compacted` if lo <= snapshot index,
   * `Unavailable` if hi > lastIndex() + 1.
   */
  entries(lo: Index, hi: Index, maxBytes: number): Entry[];
  /** The term of the entry at i, for i in [firstIndex() - 1, lastIndex()]. */
  term(i: Index): Term;
  /** The index of the first entry still in the log (snapshot index + 1). */
  firstIndex(): Index;
  /** The index of the last entry (the snapshot index when the log is empty). */
  lastIndex(): Index;
  /** The most recent snapshot. May throw `SnapshotTemporarilyUnavailable`. */
  snapshot(): Snapshot;
}
