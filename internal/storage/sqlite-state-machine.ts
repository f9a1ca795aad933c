// The replicated object store's state machine: one SQLite database per replica, applied from the
// log in batches (one transaction per batch, and on a replica many batches per commit:
// commit-batch.ts), with MVCC reads and history for watches.
import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { decodeCommand, decodeResult, encodeResult, type Command, type CommandResult } from './commands.ts';
import type { ChangeEvent } from './change-event.ts';
import { CommitBatch, type CommitBatchLimits } from './commit-batch.ts';
import { requestIdWindowEntries, requestPruneEveryEntries } from './limits.ts';
import { applyCommand, toBuffer, type ApplyCounters } from './state-apply.ts';
import { copyDatabaseOffThread } from './snapshot-copy.ts';
import { ListStatements, readHistory, readKey, rowToKeyValue, scanPrefix } from './state-reads.ts';
import { checkStateFileFormat, openDatabase, prepareStatements, type Db, type Statements } from './state-schema.ts';
import { revision, StorageError, type KeyValue, type ListResult, type Revision } from './storage.ts';

/** One log entry handed to the state machine; empty `data` is a no-op (e.g. a leader's first entry). */
export interface LogEntry {
  readonly index: number;
  readonly data: Uint8Array;
}

/** One command applied in a batch, with its result (the original one when it was a retried duplicate). */
export interface AppliedCommand {
  readonly index: number;
  readonly command: Command;
  readonly result: CommandResult;
  readonly duplicate: boolean;
}

/** What a batch did: results in log order and the changes, in revision order, to publish to watchers. */
export interface ApplyOutcome {
  readonly applied: readonly AppliedCommand[];
  readonly events: readonly ChangeEvent[];
}

/** An apply's results while it runs (an ApplyOutcome once it returns). */
interface ApplyCollector {
  applied: AppliedCommand[];
  events: ChangeEvent[];
}

/** `applyAll` wrapped in a transaction: returns the last index applied. */
type ApplyTransaction = (entries: readonly LogEntry[], counters: ApplyCounters, outcome: ApplyCollector) => number;

/** Options of a prefix list on the state machine (validated; see `Storage.list`). */
export interface StateListOptions {
  readonly prefix: string;
  readonly revision?: number;
  readonly startKey?: string;
  readonly limit?: number;
  /** As ListOptions.countRemaining (default true). */
  readonly countRemaining?: boolean;
}

/** The applied index committed in the state database file at `path`, as another connection reads it. */
export function readAppliedIndex(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare<[], { value: number }>("SELECT value FROM meta WHERE name = 'applied_index'").get()?.value ?? 0;
  } finally {
    db.close();
  }
}

/** Options of `SqliteStateMachine.open`. */
export interface StateMachineOptions {
  /** Commit applies in batches (commit-batch.ts): only for a replica, whose log re-applies them; ignored for ':memory:'. */
  readonly commitBatch?: CommitBatchLimits;
}

/** The SQLite state machine. Synchronous; single connection; not safe to share across threads. */
export class SqliteStateMachine {
  private db: Db;
  private st: Statements;
  private lists: ListStatements;
  /** applyAll in one transaction (a savepoint inside the open batch), made per connection. */
  private applyTransaction: ApplyTransaction;
  private counters: ApplyCounters;
  private applied: number;
  /** Snapshot copies (snapshotTo) not finished yet. */
  private copiesInFlight = 0;
  /** The open batch of applies, when they commit in batches. */
  private readonly batch: CommitBatch | null;

  private constructor(private readonly path: string, options: StateMachineOptions) {
    this.db = openDatabase(path);
    this.batch = options.commitBatch !== undefined && path !== ':memory:' ? new CommitBatch(() => this.db, options.commitBatch) : null;
    this.st = prepareStatements(this.db);
    this.lists = new ListStatements(this.db);
    this.applyTransaction = this.makeApplyTransaction();
    this.counters = { revision: 0, compactedRevision: 0 };
    this.applied = 0;
    this.loadMeta();
  }

  /** Opens (or creates) the database at `path` (a file path or ':memory:'). */
  static open(path: string, options: StateMachineOptions = {}): SqliteStateMachine {
    return new SqliteStateMachine(path, options);
  }

  /**
   * The last log index applied (0 when none). The file holds it in the same transaction as the rows
   * it produced; with batched commits it may hold an earlier one, from which a restart re-applies.
   */
  appliedIndex(): number {
    return this.applied;
  }

  /** The revision of the last applied write (0 when none). */
  currentRevision(): Revision {
    return revision(this.counters.revision);
  }

  /** The revision history was compacted to: reads below it fail with `Compacted`. */
  compactedRevision(): Revision {
    return revision(this.counters.compactedRevision);
  }

  /**
   * Applies entries in one transaction (nested in the open batch when applies commit in batches).
   * Entries at or below the applied index are skipped (a replay after restart); indexes must
   * increase. Deterministic: same entries, same database.
   */
  applyEntries(entries: readonly LogEntry[]): ApplyOutcome {
    const outcome: ApplyCollector = { applied: [], events: [] };
    const counters = { ...this.counters };
    this.batch?.begin();
    let index: number;
    try {
      index = this.applyTransaction(entries, counters, outcome);
    } catch (err) {
      // Most errors undo only this apply's savepoint; one that ended the batch's whole transaction
      // undid earlier applies too.
      this.batch?.checkNotLost(err);
      throw err;
    }
    const count = index - this.applied;
    this.counters = counters;
    this.applied = index;
    this.batch?.add(count);
    return outcome;
  }

  /** Made once per connection: better-sqlite3 builds a transaction function's wrappers at each db.transaction() (about 6 us an apply). */
  private makeApplyTransaction(): ApplyTransaction {
    return this.db.transaction((entries: readonly LogEntry[], counters: ApplyCounters, outcome: ApplyCollector) => this.applyAll(entries, counters, outcome));
  }

  /** The body of one apply transaction: applies `entries` and records the counters; returns the last index applied. */
  private applyAll(entries: readonly LogEntry[], counters: ApplyCounters, outcome: ApplyCollector): number {
    let index = this.applied;
    for (const entry of entries) {
      if (entry.index <= index) {
        if (entry.index <= this.applied) continue;
        throw new Error(`assert: entry index ${entry.index} does not follow ${index}`);
      }
      index = entry.index;
      if (entry.data.length === 0) continue;
      const command = decodeCommand(entry.data);
      const done = this.applyOnce(counters, entry.index, command);
      outcome.applied.push(done.applied);
      if (done.event !== null) outcome.events.push(done.event);
    }
    // Only garbage collection: whether a request is a duplicate does not depend on it (applyOnce).
    if (Math.floor(index / requestPruneEveryEntries) !== Math.floor(this.applied / requestPruneEveryEntries)) {
      this.st.requestPrune.run(index - requestIdWindowEntries);
    }
    this.st.metaSet.run('applied_index', index);
    this.st.metaSet.run('revision', counters.revision);
    this.st.metaSet.run('compacted_revision', counters.compactedRevision);
    return index;
  }

  private applyOnce(counters: ApplyCounters, index: number, command: Command): { applied: AppliedCommand; event: ChangeEvent | null } {
    const seen = this.st.requestGet.get(command.requestId);
    // A retry is a duplicate only within the window, counted in entries, whether or not the batch
    // end has pruned the row yet: batches differ between replicas, and the answer must not.
    if (seen !== undefined && index - seen.entry_index <= requestIdWindowEntries) {
      return { applied: { index, command, result: decodeResult(seen.result), duplicate: true }, event: null };
    }
    const outcome = applyCommand(this.st, counters, command);
    this.st.requestPut.run(command.requestId, index, toBuffer(encodeResult(outcome.result)));
    return { applied: { index, command, result: outcome.result, duplicate: false }, event: outcome.event };
  }

  /** The remembered result of a request id, or null when unknown or pruned. */
  resultOf(requestId: string): CommandResult | null {
    const row = this.st.requestGet.get(requestId);
    return row === undefined ? null : decodeResult(row.result);
  }

  /** Reads one key, latest or as of `at`. Throws `Compacted` / `RevisionTooLarge` for an unreadable revision. */
  get(key: string, at?: number): KeyValue | null {
    if (at !== undefined) this.checkReadable(at);
    return readKey(this.st, key, this.historicRevision(at));
  }

  /** Lists a prefix, all items at one revision (latest unless `revision` is given). */
  list(options: StateListOptions): ListResult {
    if (options.revision !== undefined) this.checkReadable(options.revision);
    const at = this.historicRevision(options.revision);
    const page = scanPrefix(this.db, this.lists, {
      prefix: options.prefix,
      ...(options.startKey !== undefined ? { startKey: options.startKey } : {}),
      limit: options.limit ?? 0,
      countRemaining: options.countRemaining ?? true,
      at,
    });
    return {
      items: page.rows.map(rowToKeyValue),
      revision: revision(options.revision ?? this.counters.revision),
      nextKey: page.nextKey,
      remainingCount: page.remainingCount,
    };
  }

  /** Changes after revision `after` to keys with `prefix`, oldest first, at most `limit`. Throws `Compacted`. */
  history(after: number, prefix: string, limit: number): ChangeEvent[] {
    if (after < this.counters.compactedRevision) throw compactedError(after, this.counters.compactedRevision);
    return readHistory(this.st, { after, prefix, limit });
  }

  /** The newest revision written at or before `timestampMs` (by the proposers' clocks), at least the compacted one. */
  revisionAtOrBefore(timestampMs: number): Revision {
    const row = this.st.revisionAtOrBefore.get(this.counters.compactedRevision, timestampMs);
    return revision(row?.rev ?? this.counters.compactedRevision);
  }

  /** `at` when it is older than the current revision, else null: the latest state is cheaper to read. */
  private historicRevision(at: number | undefined): number | null {
    return at !== undefined && at < this.counters.revision ? at : null;
  }

  /** Throws unless the state at revision `at` is still readable. */
  checkReadable(at: number): void {
    if (at < this.counters.compactedRevision) throw compactedError(at, this.counters.compactedRevision);
    if (at > this.counters.revision) {
      throw new StorageError('RevisionTooLarge', `Too large resource version: ${at}, current: ${this.counters.revision}`, this.currentRevision());
    }
  }

  /**
   * Writes a consistent, durable copy of the database to `filePath` and returns the applied index
   * it holds. A file database is copied on a worker thread (snapshot-copy.ts); an in-memory one,
   * which no other connection can open, with SQLite's online backup.
   */
  async snapshotTo(filePath: string): Promise<{ appliedIndex: number }> {
    // The copy reads another connection's view: what is committed.
    this.batch?.commit();
    this.copiesInFlight++;
    try {
      if (this.path === ':memory:') await this.db.backup(filePath);
      else await copyDatabaseOffThread(this.path, filePath);
    } finally {
      this.copiesInFlight--;
    }
    // Writes go on while the copy is made, so the index is read from the copy itself.
    return { appliedIndex: readAppliedIndex(filePath) };
  }

  /**
   * Replaces the whole database with the snapshot at `filePath` (close, swap the file, reopen).
   * Not while a snapshot copy runs: its worker may be opening the files this replaces. Throws
   * FormatVersionError, leaving the database as it was, for a snapshot of a format this code does
   * not read (sent by a peer running a newer release).
   */
  restoreFrom(filePath: string): void {
    if (this.copiesInFlight > 0) throw new Error('assert: restore while a snapshot copy of the database is in flight');
    checkStateFileFormat(filePath, 'the state snapshot to install', 'upgrade this replica to the orch release its peers run');
    this.batch?.discard(); // the snapshot holds more than the batch, and is in the log's record already
    this.db.close();
    if (this.path === ':memory:') {
      const image = readFileSync(filePath);
      // An in-memory database cannot use WAL: mark the image as a rollback-journal file
      // (header bytes 18 and 19 are the write and read format versions: 1 legacy, 2 WAL).
      image[18] = 1;
      image[19] = 1;
      this.db = openDatabase(image);
    } else {
      const incoming = `${this.path}.restore`;
      copyFileSync(filePath, incoming);
      rmSync(`${this.path}-wal`, { force: true });
      rmSync(`${this.path}-shm`, { force: true });
      renameSync(incoming, this.path);
      this.db = openDatabase(this.path);
    }
    this.st = prepareStatements(this.db);
    this.lists = new ListStatements(this.db);
    this.applyTransaction = this.makeApplyTransaction();
    this.loadMeta();
  }

  /** Closes the database. */
  close(): void {
    if (!this.db.open) return;
    try {
      this.batch?.commit();
    } finally {
      this.db.close(); // after a lost batch too: the process is stopping
    }
  }

  private loadMeta(): void {
    const value = (name: string): number => this.st.metaGet.get(name)?.value ?? 0;
    this.applied = value('applied_index');
    this.counters = { revision: value('revision'), compactedRevision: value('compacted_revision') };
  }
}

function compactedError(at: number, compacted: number): StorageError {
  return new StorageError('Compacted', `revision ${at} is compacted (oldest readable is ${compacted})`);
}
