// The factory of one replica's replicated store; the Raft driver is attached afterwards.
import { mkdirSync } from 'node:fs';
import { AppliedState } from './applied-state.ts';
import { applyCommitEntriesMax, applyCommitIntervalMs, defaultRetentionMs } from './limits.ts';
import { stateDatabasePath } from './open-local-storage.ts';
import { ReplicatedStorage } from './replicated-storage.ts';
import { SqliteStateMachine } from './sqlite-state-machine.ts';

/** Options of `openReplicatedStorage`. */
export interface ReplicatedStorageOpenOptions {
  /** Directory of the state database (created if missing), or ':memory:'. */
  readonly dataDir: string;
  readonly replicaName: string;
  readonly retentionMs?: number;
  readonly compactionIntervalMs?: number;
  readonly watchBufferEventsMax?: number;
  /** See ReplicatedStorageOptions.relayAttemptTimeoutMs. */
  readonly relayAttemptTimeoutMs?: number;
  /** TEST ONLY planted bug: see ReplicatedStorageOptions.testingServeConsistentReadsLocally. */
  readonly testingServeConsistentReadsLocally?: boolean;
}

/**
 * Opens a replica's store. Then: build the Raft node with `applied = storage.stateMachine.appliedIndex()`
 * and let it apply to `storage.stateMachine`; `storage.attach(log)`; route writes forwarded by
 * followers of an earlier version to `storage.handleForwarded`.
 */
export async function openReplicatedStorage(options: ReplicatedStorageOpenOptions): Promise<ReplicatedStorage> {
  if (options.dataDir !== ':memory:') mkdirSync(options.dataDir, { recursive: true });
  const machine = SqliteStateMachine.open(stateDatabasePath(options.dataDir), { commitBatch: { intervalMs: applyCommitIntervalMs, entriesMax: applyCommitEntriesMax } });
  const state = new AppliedState(machine, options.watchBufferEventsMax !== undefined ? { eventsMax: options.watchBufferEventsMax } : undefined);
  return new ReplicatedStorage(state, {
    replicaName: options.replicaName,
    retentionMs: options.retentionMs ?? defaultRetentionMs,
    ...(options.compactionIntervalMs !== undefined ? { compactionIntervalMs: options.compactionIntervalMs } : {}),
    ...(options.relayAttemptTimeoutMs !== undefined ? { relayAttemptTimeoutMs: options.relayAttemptTimeoutMs } : {}),
    ...(options.testingServeConsistentReadsLocally === true ? { testingServeConsistentReadsLocally: true } : {}),
  });
}
