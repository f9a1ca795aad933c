// The Storage of one replica of the Raft-replicated store. Writes go through the log (proposed
// here on the leader, forwarded to it from a follower); reads are served from the local state
// machine, after a ReadIndex round when they must be linearizable.
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppliedState, ReplicaStateMachine } from './applied-state.ts';
import { decodeCommand, encodeCommand, encodeResult, type Command, type CommandResult } from './commands.ts';
import {
  readIndexAttemptsMax, relayAttemptTimeoutMsDefault, writeAttemptsMax, writeRetryBackoffBaseMs, writeRetryBackoffMaxMs,
} from './limits.ts';
import { NotAppendedError, type ReplicationLog } from './replication-log.ts';
import { startRetentionCompactor } from './retention-compactor.ts';
import { StateMachineStorage } from './state-machine-storage.ts';
import { StorageError } from './storage.ts';
import { inChildSpan } from '../tracing/spans.ts';
import type { Span } from '@opentelemetry/api';

/** Options of a replicated storage. */
export interface ReplicatedStorageOptions {
  /** This replica's name, used in request ids. */
  readonly replicaName: string;
  /** History the leader keeps when compacting (default 5 minutes). */
  readonly retentionMs: number;
  readonly compactionIntervalMs?: number;
  /** How long a follower waits to apply a write it relayed to the leader before relaying it again. */
  readonly relayAttemptTimeoutMs?: number;
  /**
   * TEST ONLY (a planted bug for the chaos checkers): serve linearizable reads from the local state
   * machine without a ReadIndex round, so a lagging replica answers stale data. Never set in production.
   */
  readonly testingServeConsistentReadsLocally?: boolean;
}

/** A replica's Storage over Raft. `attach()` the log before use; give `stateMachine` to the Raft driver. */
export class ReplicatedStorage extends StateMachineStorage {
  private log: ReplicationLog | null = null;
  private readonly relayAttemptTimeoutMs: number;
  /** TEST ONLY: see ReplicatedStorageOptions.testingServeConsistentReadsLocally. */
  private readonly testingServeConsistentReadsLocally: boolean;

  constructor(state: AppliedState, options: ReplicatedStorageOptions) {
    super(state, options.replicaName);
    this.testingServeConsistentReadsLocally = options.testingServeConsistentReadsLocally === true;
    this.relayAttemptTimeoutMs = options.relayAttemptTimeoutMs ?? relayAttemptTimeoutMsDefault;
    this.compactor = startRetentionCompactor({
      retentionMs: options.retentionMs,
      ...(options.compactionIntervalMs !== undefined ? { intervalMs: options.compactionIntervalMs } : {}),
      shouldRun: () => !state.isClosed() && this.log !== null && this.log.isLeader(),
      revisionAtOrBefore: (ts) => state.machine.revisionAtOrBefore(ts),
      compactedRevision: () => state.machine.compactedRevision(),
      compact: (rev) => this.compact(rev),
    });
  }

  /** The state machine the Raft driver applies committed entries to (and snapshots/restores). */
  get stateMachine(): ReplicaStateMachine {
    return this.state;
  }

  /** Connects the Raft node; until then writes and linearizable reads fail with `Unavailable`. */
  attach(log: ReplicationLog): void {
    if (this.log !== null) throw new Error('assert: replication log attached twice');
    this.log = log;
  }

  /**
   * The leader's side of a write forwarded by a follower of an earlier version (ForwardBatch;
   * followers now relay on the Raft stream): proposes the command and answers with its encoded
   * result. Throws (so the follower retries) when this replica is not the leader. It proposes
   * before its first await: the commands of one forwarded batch then share one Raft Ready.
   */
  async handleForwarded(data: Uint8Array): Promise<Uint8Array> {
    const log = this.requireLog();
    if (!log.isLeader()) throw new StorageError('Unavailable', 'not the leader');
    const command = decodeCommand(data);
    await log.propose(data);
    return encodeResult(this.appliedResult(command));
  }

  /**
   * Runs a write through the log. Every attempt carries the same request id, so the state
   * machine applies it at most once however often it is retried. When every attempt failed, the
   * error says whether the write may still apply: `Unavailable` only when no attempt could have
   * reached the log (clients may then retry freely), `Indeterminate` otherwise.
   */
  protected submit(command: Command): Promise<CommandResult> {
    // The Raft commit span: from the proposal (or the relay to the leader) until this replica applied it.
    return inChildSpan('Raft commit', () => ({ 'raft.request_id': command.requestId, 'raft.command': command.op }), (span) => this.submitAttempts(command, span));
  }

  private async submitAttempts(command: Command, span: Span | undefined): Promise<CommandResult> {
    const data = encodeCommand(command);
    let lastError: unknown = null;
    let mayHaveApplied = false;
    for (let attempt = 0; attempt < writeAttemptsMax; attempt += 1) {
      if (attempt > 0) await sleep(backoffMs(attempt));
      this.checkOpen();
      const log = this.requireLog();
      try {
        const leading = log.isLeader();
        span?.addEvent(leading ? 'proposed' : 'relayed to the leader', { attempt, 'entry.bytes': data.byteLength });
        if (leading) await log.propose(data);
        else await this.relay(log, command.requestId, data);
        return this.appliedResult(command);
      } catch (error) {
        if (error instanceof StorageError && error.code !== 'Unavailable') throw error;
        // A relay not applied in time, or a proposal lost with its leader, may still apply.
        if (!(error instanceof NotAppendedError)) mayHaveApplied = true;
        lastError = error;
      }
    }
    const known = this.state.machine.resultOf(command.requestId);
    if (known !== null) return known;
    const why = `write not acknowledged after ${writeAttemptsMax} attempts: ${String(lastError)}`;
    throw new StorageError(mayHaveApplied ? 'Indeterminate' : 'Unavailable', why);
  }

  /**
   * A follower's write: the command goes to the leader on the Raft stream, and this replica's own
   * apply of it is the answer (read-your-writes: its watchers have the event too). Rejects with
   * `Unavailable` when it is not applied here in time; it may still apply later.
   */
  private async relay(log: ReplicationLog, requestId: string, data: Uint8Array): Promise<void> {
    const relayed = log.proposeViaLeader(data);
    try {
      await this.state.waitForRequest(requestId, this.relayAttemptTimeoutMs);
    } finally {
      relayed.settle();
    }
  }

  protected async confirmRead(): Promise<void> {
    // TEST ONLY planted bug: skip ReadIndex, so the read may be stale.
    if (this.testingServeConsistentReadsLocally) return;
    let lastError: unknown = null;
    for (let attempt = 0; attempt < readIndexAttemptsMax; attempt += 1) {
      if (attempt > 0) await sleep(backoffMs(attempt));
      this.checkOpen();
      try {
        await this.requireLog().readIndex();
        return;
      } catch (error) {
        if (error instanceof StorageError) throw error;
        lastError = error;
      }
    }
    throw new StorageError('Unavailable', `linearizable read not confirmed after ${readIndexAttemptsMax} attempts: ${String(lastError)}`);
  }

  private appliedResult(command: Command): CommandResult {
    const result = this.state.machine.resultOf(command.requestId);
    if (result === null) throw new StorageError('Unavailable', `result of request ${command.requestId} is no longer known`);
    return result;
  }

  private requireLog(): ReplicationLog {
    if (this.log === null) throw new StorageError('Unavailable', 'replication log not attached yet');
    return this.log;
  }
}

/** The pause before retry `attempt` (1-based): doubling from the base, capped. */
function backoffMs(attempt: number): number {
  return Math.min(writeRetryBackoffMaxMs, writeRetryBackoffBaseMs * 2 ** (attempt - 1));
}
