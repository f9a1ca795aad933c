// The factory of the single-replica store (tests, and one in-process replica without Raft).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppliedState } from './applied-state.ts';
import { defaultRetentionMs } from './limits.ts';
import { LocalStorage } from './local-storage.ts';
import { SqliteStateMachine } from './sqlite-state-machine.ts';
import type { Storage } from './storage.ts';

/** Options of `openLocalStorage`; all but `dataDir` have defaults from limits.ts. */
export interface LocalStorageOptions {
  /** Directory of the database (created if missing), or ':memory:'. */
  readonly dataDir: string | ':memory:';
  /** History kept for MVCC reads and watches (default 5 minutes). */
  readonly retentionMs?: number;
  /** Period of the retention compactor (default derived from the retention). */
  readonly compactionIntervalMs?: number;
  /** Events one watcher may lag behind before it is closed with `WatcherTooSlow`. */
  readonly watchBufferEventsMax?: number;
}

/** The database file of a replica's state machine inside its data directory. */
export function stateDatabasePath(dataDir: string): string {
  return dataDir === ':memory:' ? ':memory:' : join(dataDir, 'state.db');
}

/** Opens a single-replica store; reopening the same `dataDir` resumes at the same revision. */
export async function openLocalStorage(options: LocalStorageOptions): Promise<Storage> {
  if (options.dataDir !== ':memory:') mkdirSync(options.dataDir, { recursive: true });
  const machine = SqliteStateMachine.open(stateDatabasePath(options.dataDir));
  const state = new AppliedState(machine, options.watchBufferEventsMax !== undefined ? { eventsMax: options.watchBufferEventsMax } : undefined);
  return new LocalStorage(state, {
    retentionMs: options.retentionMs ?? defaultRetentionMs,
    ...(options.compactionIntervalMs !== undefined ? { compactionIntervalMs: options.compactionIntervalMs } : {}),
  });
}
