// Commits of a replica's state database in batches, as etcd's backend commits its write transaction
// every 100 ms or 10,000 writes: one transaction stays open across many applies, so each apply only
// changes pages in SQLite's cache, a page changed by many applies reaches the WAL once, and the
// checkpoints (whose fsyncs stall the event loop for milliseconds) come that much less often.
//
// Why it is safe only for a replica: an apply not committed yet is lost with the process, and the
// Raft log (fsynced before the entry committed) gives it back, because the applied index is
// committed with the rows and the replica re-applies from it at restart. The log is cut only behind
// a snapshot copy, taken after a commit. A batch whose transaction ends without committing while
// the process goes on (a failed COMMIT: SQLite then rolls the whole batch back) would let a later
// commit record an applied index past rows it no longer holds, which no restart re-applies: such a
// loss stops the process instead (`lose`), and the restart re-applies from the last commit.
import type { Db } from './state-schema.ts';

/** When an open batch commits. */
export interface CommitBatchLimits {
  /** Longest time an applied entry stays uncommitted, in ms (while the event loop runs timers). */
  readonly intervalMs: number;
  /** Most entries a batch holds before it commits at once. */
  readonly entriesMax: number;
}

/** Stops the process on the next tick: nothing may go on from a state the file cannot give back. */
function crash(error: Error): void {
  process.nextTick(() => {
    throw error;
  });
}

/** The open write transaction of one connection; `db()` is read at every use (a restore swaps it). */
export class CommitBatch {
  private entries = 0;
  /** The commit due for the open batch: set while this batch holds a transaction, and only then. */
  private timer: NodeJS.Timeout | null = null;
  private lost: Error | null = null;

  constructor(
    private readonly db: () => Db,
    private readonly limits: CommitBatchLimits,
    /** What a lost batch does; tests record it instead of crashing. */
    private readonly onLost: (error: Error) => void = crash,
  ) {}

  /** Opens the batch's transaction unless one is open (applies then nest in it); it commits within `intervalMs`. */
  begin(): void {
    this.checkNotLost();
    if (!this.db().inTransaction) this.db().exec('BEGIN');
    // Unref'd: a batch left open does not keep the process alive, and close() commits it.
    this.timer ??= setTimeout(() => this.commitFromTimer(), this.limits.intervalMs).unref();
  }

  /** Counts entries just applied in the open batch; a full batch commits now. */
  add(entries: number): void {
    this.entries += entries;
    if (this.entries >= this.limits.entriesMax) this.commit();
  }

  /** Commits the open batch, if any (before a snapshot copy, at close); a failed commit loses the batch and throws. */
  commit(): void {
    this.checkNotLost();
    this.end();
    const db = this.db();
    if (!db.open || !db.inTransaction) return;
    try {
      db.exec('COMMIT');
    } catch (err) {
      throw this.lose(err);
    }
  }

  /** Drops the open batch (a restore replaces everything it held). */
  discard(): void {
    this.end();
    const db = this.db();
    if (db.open && db.inTransaction) db.exec('ROLLBACK');
  }

  /**
   * The batch's transaction is gone with applies it held (SQLite rolled it back on an error): no
   * commit may follow, and the process stops. Returns the error to throw to the caller.
   */
  lose(cause: unknown): Error {
    if (this.lost !== null) return this.lost;
    this.end();
    this.lost = new Error(`the state database lost a batch of applied entries: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.onLost(this.lost);
    return this.lost;
  }

  /**
   * Throws (losing the batch) when its transaction is gone: SQLite may roll the whole transaction
   * back on an error in any statement of this connection, a read's included (SQLITE_FULL or IOERR
   * while its cache spills the batch's pages). `cause`: the error that may have done it.
   */
  checkNotLost(cause?: unknown): void {
    if (this.lost !== null) throw this.lost;
    const db = this.db();
    // The error is made only for a loss: this runs at every apply, and an Error captures a stack.
    if (this.timer !== null && db.open && !db.inTransaction) throw this.lose(cause ?? new Error('the transaction ended without a commit'));
  }

  /** The batch ends: committed, dropped or lost. */
  private end(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.entries = 0;
  }

  private commitFromTimer(): void {
    try {
      this.commit();
    } catch {
      // Lost: onLost stops the process.
    }
  }
}
