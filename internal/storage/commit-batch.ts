// Commits of the state database in batches, as etcd's backend commits its write transaction every
// 100 ms or 10,000 writes: one transaction stays open across many applies, so each apply only
// changes pages in SQLite's cache, a page changed by many applies reaches the WAL once, and the
// checkpoints (whose fsyncs stall the event loop for milliseconds) come that much less often.
// Only for a replica's state: an apply not committed yet is lost with the process, and the Raft log
// (fsynced before the entry committed) gives it back, since the replica re-applies from the applied
// index committed with the rows (a power loss could already drop the last WAL transactions).
import type { Db } from './state-schema.ts';

/** When an open batch commits. */
export interface CommitBatchLimits {
  /** Longest time an applied entry stays uncommitted, in ms. */
  readonly intervalMs: number;
  /** Most entries a batch holds before it commits at once. */
  readonly entriesMax: number;
}

/** The open write transaction of one connection; `db()` is read at every use (a restore swaps it). */
export class CommitBatch {
  private entries = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: () => Db, private readonly limits: CommitBatchLimits) {}

  /** Opens the batch's transaction unless one is open (apply transactions then nest in it); it commits within `intervalMs`. */
  begin(): void {
    if (!this.db().inTransaction) this.db().exec('BEGIN');
    // Unref'd: a batch left open does not keep the process alive, and close() commits it.
    this.timer ??= setTimeout(() => this.commitOrCrash(), this.limits.intervalMs).unref();
  }

  /** Counts entries applied in the open batch; a full batch commits now. */
  applied(entries: number): void {
    this.entries += entries;
    if (this.entries >= this.limits.entriesMax) this.commit();
  }

  /** Commits the open batch, if any (before a snapshot copy, a restore, a close). */
  commit(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.entries = 0;
    const db = this.db();
    if (db.open && db.inTransaction) db.exec('COMMIT');
  }

  // From a timer, where nobody can take the error: the process stops, as on a failed log fsync. Its
  // applies in memory are ahead of the file, and a restart re-applies them from the log.
  private commitOrCrash(): void {
    try {
      this.commit();
    } catch (err) {
      throw new Error(`the state database could not commit its applied entries: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }
}
