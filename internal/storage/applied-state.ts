// The state machine of one replica together with what must happen in the same synchronous step
// as each apply: publishing the changes to watchers and waking `waitForRevision` callers.
import { revisionWaitersMax } from './limits.ts';
import type { ApplyOutcome, LogEntry, SqliteStateMachine } from './sqlite-state-machine.ts';
import { StorageError, type Revision } from './storage.ts';
import { RevisionWaiters } from './revision-waiters.ts';
import { WatchHub, type WatchBufferLimits } from './watch-hub.ts';

/** What the Raft driver needs from a replica's state machine. */
export interface ReplicaStateMachine {
  /** The last log index applied; the driver restarts Raft with it (`RaftConfig.applied`). */
  appliedIndex(): number;
  /** Applies committed entries in log order (confChange entries may be passed with empty data so the index advances). */
  applyEntries(entries: readonly LogEntry[]): ApplyOutcome;
  /** Writes a snapshot file of the applied state; returns the log index it covers. */
  snapshotTo(filePath: string): Promise<{ appliedIndex: number }>;
  /** Replaces the applied state with a snapshot file written by `snapshotTo` (on any replica). */
  restoreFrom(filePath: string): void;
}

interface RequestWaiter {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** A replica's state machine, watch hub and revision waiters, kept in step. */
export class AppliedState implements ReplicaStateMachine {
  /** The replica's watch hub, fed by every apply. */
  readonly hub: WatchHub;
  private readonly waiters: RevisionWaiters;
  private requestWaiters = new Map<string, RequestWaiter>();
  private closed = false;

  constructor(
    /** The SQLite state machine; read it directly, but apply only through this object. */
    readonly machine: SqliteStateMachine,
    watchLimits?: Partial<WatchBufferLimits>,
  ) {
    this.hub = new WatchHub(machine, watchLimits);
    this.waiters = new RevisionWaiters(machine.currentRevision());
  }

  appliedIndex(): number {
    return this.machine.appliedIndex();
  }

  applyEntries(entries: readonly LogEntry[]): ApplyOutcome {
    const outcome = this.machine.applyEntries(entries);
    this.hub.publish(outcome.events);
    this.wakeWaiters();
    if (this.requestWaiters.size > 0) {
      for (const applied of outcome.applied) this.wakeRequest(applied.command.requestId);
    }
    return outcome;
  }

  snapshotTo(filePath: string): Promise<{ appliedIndex: number }> {
    return this.machine.snapshotTo(filePath);
  }

  restoreFrom(filePath: string): void {
    this.machine.restoreFrom(filePath);
    this.hub.resync();
    this.wakeWaiters();
    for (const requestId of [...this.requestWaiters.keys()]) {
      if (this.machine.resultOf(requestId) !== null) this.wakeRequest(requestId);
    }
  }

  /**
   * Resolves once this replica applied the command with `requestId` (read-your-writes on a
   * follower, for every kind of command); rejects with `Unavailable` after `timeoutMs`.
   */
  waitForRequest(requestId: string, timeoutMs: number): Promise<void> {
    if (this.closed) return Promise.reject(new StorageError('Unavailable', 'storage is closed'));
    if (this.machine.resultOf(requestId) !== null) return Promise.resolve();
    if (this.requestWaiters.size >= revisionWaitersMax || this.requestWaiters.has(requestId)) {
      return Promise.reject(new StorageError('Unavailable', `cannot wait for request ${requestId}`));
    }
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.requestWaiters.delete(requestId);
        reject(new StorageError('Unavailable', `request ${requestId} not applied here within ${timeoutMs} ms`));
      }, timeoutMs);
      this.requestWaiters.set(requestId, { resolve, reject, timer });
    });
  }

  /** Resolves once this replica applied `rev`; rejects with `RevisionTooLarge` after `timeoutMs`. */
  waitForRevision(rev: Revision, timeoutMs: number): Promise<void> {
    if (this.closed) return Promise.reject(new StorageError('Unavailable', 'storage is closed'));
    if (this.machine.currentRevision() >= rev) return Promise.resolve();
    if (this.waiters.size >= revisionWaitersMax) {
      return Promise.reject(new StorageError('Unavailable', `too many waiters for revisions (${revisionWaitersMax})`));
    }
    // Applies wake the waiters as they go, so those up to the current revision were woken already.
    this.waiters.wake(this.machine.currentRevision());
    return new Promise<void>((resolve, reject) => {
      this.waiters.add(rev, timeoutMs, { resolve, reject }, () => {
        const current = this.machine.currentRevision();
        return new StorageError('RevisionTooLarge', `Too large resource version: ${rev}, current: ${current}`, current);
      });
    });
  }

  /** Ends every watcher and waiter with `Unavailable` and closes the database. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const error = new StorageError('Unavailable', 'storage is closed');
    this.hub.closeAll(error);
    this.waiters.rejectAll(error);
    for (const waiter of this.requestWaiters.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.requestWaiters.clear();
    this.machine.close();
  }

  /** Whether `close()` was called. */
  isClosed(): boolean {
    return this.closed;
  }

  private wakeRequest(requestId: string): void {
    const waiter = this.requestWaiters.get(requestId);
    if (waiter === undefined) return;
    this.requestWaiters.delete(requestId);
    clearTimeout(waiter.timer);
    waiter.resolve();
  }

  private wakeWaiters(): void {
    this.waiters.wake(this.machine.currentRevision());
  }
}
