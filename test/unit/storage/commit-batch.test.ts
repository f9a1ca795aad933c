// When a replica's applies reach the state database file: in batches (commit-batch.ts), committed
// when full, after their interval, before a snapshot copy and at close; every apply at once where
// no log could redo them (the single-replica store).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteStateMachine } from '../../../internal/storage/sqlite-state-machine.ts';
import { creates } from '../../support/state-entries.ts';

/** The applied index another connection sees in the file: what is committed. */
function committedIndex(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare<[], { value: number }>("SELECT value FROM meta WHERE name = 'applied_index'").get()?.value ?? 0;
  } finally {
    db.close();
  }
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`not within 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('commits of a replica state database in batches', () => {
  let dir = '';
  let path = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-commit-batch-'));
    path = join(dir, 'state.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps applies out of the file until the batch commits, while this connection reads them', () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax: 1_000 } });
    machine.applyEntries(creates(1, 5));
    assert.equal(machine.appliedIndex(), 5);
    assert.equal(machine.get('/k/5')?.modRevision, 5);
    assert.equal(committedIndex(path), 0);
    machine.close();
  });

  it('commits a batch at once when it holds entriesMax entries', () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax: 4 } });
    machine.applyEntries(creates(1, 3));
    assert.equal(committedIndex(path), 0);
    machine.applyEntries(creates(4, 1));
    assert.equal(committedIndex(path), 4);
    machine.applyEntries(creates(5, 2)); // the next batch starts empty
    assert.equal(committedIndex(path), 4);
    machine.close();
  });

  it('commits a batch within its interval when no more applies come', async () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 20, entriesMax: 1_000 } });
    machine.applyEntries(creates(1, 2));
    await eventually(() => committedIndex(path) === 2, 'the batch of entries 1-2 committed');
    machine.applyEntries(creates(3, 2));
    await eventually(() => committedIndex(path) === 4, 'the batch of entries 3-4 committed');
    machine.close();
  });

  it('commits the open batch before a snapshot copy, so the copy holds every apply', async () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax: 1_000 } });
    machine.applyEntries(creates(1, 7));
    const { appliedIndex } = await machine.snapshotTo(join(dir, 'snap.db'));
    assert.equal(appliedIndex, 7);
    assert.equal(committedIndex(path), 7);
    machine.close();
  });

  it('commits the open batch at close, so a reopen resumes after the last apply', () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax: 1_000 } });
    machine.applyEntries(creates(1, 3));
    machine.close();
    const reopened = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax: 1_000 } });
    assert.equal(reopened.appliedIndex(), 3);
    assert.equal(reopened.currentRevision(), 3);
    reopened.close();
  });

  it('commits every apply at once without batching, where no log could redo a lost one', () => {
    const machine = SqliteStateMachine.open(path);
    machine.applyEntries(creates(1, 1));
    assert.equal(committedIndex(path), 1);
    machine.close();
  });
});
