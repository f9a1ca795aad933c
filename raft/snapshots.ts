/**
 * Snapshot files of one node: taking a state-machine snapshot and recording it in the durable
 * log (compacting the log behind it), and clearing leftovers of interrupted transfers.
 */
import { randomBytes } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { index } from './core/index.ts';
import type { ConfState, SnapshotMetadata } from './core/index.ts';
import type { StateMachineHooks } from './node-types.ts';
import { compactionStepEntries } from './limits.ts';
import type { SqliteLogStorage } from './sqlite-log-storage.ts';

/** What takeSnapshot works with. */
export interface SnapshotContext {
  readonly storage: SqliteLogStorage;
  readonly stateMachine: StateMachineHooks;
  readonly snapshotDir: string;
  readonly confState: () => ConfState;
  /** Entries kept behind the snapshot for followers that are only a little behind. */
  readonly catchUpEntries: number;
  readonly stopped: () => boolean;
}

/**
 * Asks the state machine for a snapshot, records it as the log's snapshot (deleting the file
 * it replaces) and compacts the log up to `catchUpEntries` behind it. Returns null (and
 * deletes the new file) when it is not newer than the current snapshot or the node stopped.
 */
export async function takeSnapshot(c: SnapshotContext): Promise<SnapshotMetadata | null> {
  const suggested = join(c.snapshotDir, `snapshot-${Date.now()}-${randomBytes(4).toString('hex')}.db`);
  const made = await c.stateMachine.snapshot(suggested).catch(async (err: unknown) => {
    // A failed copy (a full disk) may have left part of the file: remove it, or the disk stays full.
    await unlink(suggested).catch(() => {});
    throw err;
  });
  if (c.stopped() || made.index <= c.storage.snapshot().metadata.index) {
    await unlink(made.filePath).catch(() => {});
    return null;
  }
  const { metadata, replacedPath } = c.storage.createSnapshot(made.index, c.confState(), resolve(made.filePath));
  if (made.term !== undefined && made.term !== metadata.term) {
    throw new Error(`assert: snapshot term ${made.term} != log term ${metadata.term} at ${made.index}`);
  }
  if (replacedPath) await unlink(replacedPath).catch(() => {});
  const compactTo = made.index - c.catchUpEntries;
  await compactInSteps(c, compactTo);
  return metadata;
}

/**
 * Compacts the log up to `to` a bounded number of entries at a time, yielding to the event loop
 * between steps: one DELETE of thousands of entries would stall every request for tens of ms.
 */
async function compactInSteps(c: SnapshotContext, to: number): Promise<void> {
  for (let first = c.storage.firstIndex(); first <= to && !c.stopped(); first = c.storage.firstIndex()) {
    c.storage.compact(index(Math.min(to, first - 1 + compactionStepEntries)));
    await new Promise((r) => setImmediate(r));
  }
}

/** Deletes every file in `dir` except `keep` (the current snapshot): leftovers of interrupted transfers. */
export async function removeStaleSnapshots(dir: string, keep: string): Promise<void> {
  const kept = keep === '' ? '' : resolve(keep);
  for (const name of await readdir(dir)) {
    const path = resolve(join(dir, name));
    if (path !== kept) await unlink(path).catch(() => {});
  }
}
