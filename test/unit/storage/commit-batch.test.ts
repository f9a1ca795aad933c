// When a replica's applies reach the state database file: in batches (commit-batch.ts), committed
// when full, after their interval, before a snapshot copy and at close, dropped by a restore; every
// apply at once where no log could redo them (the single-replica store); and a batch whose commit
// fails is never followed by another.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { CommitBatch } from '../../../internal/storage/commit-batch.ts';
import { readAppliedIndex, SqliteStateMachine } from '../../../internal/storage/sqlite-state-machine.ts';
import type { Db } from '../../../internal/storage/state-schema.ts';
import { creates } from '../../support/state-entries.ts';
import { eventually } from './conformance-support.ts';

const neverByTime = { intervalMs: 600_000, entriesMax: 1_000 };

describe('commits of a replica state database in batches', () => {
  let dir = '';
  let path = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-commit-batch-'));
    path = join(dir, 'state.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps applies out of the file until the batch commits, while this connection reads them', () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: neverByTime });
    machine.applyEntries(creates(1, 5));
    assert.equal(machine.appliedIndex(), 5);
    assert.equal(machine.get('/k/5')?.modRevision, 5);
    assert.equal(readAppliedIndex(path), 0);
    machine.close();
  });

  it('commits a batch at once when it holds entriesMax entries', () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax: 4 } });
    machine.applyEntries(creates(1, 3));
    assert.equal(readAppliedIndex(path), 0);
    machine.applyEntries(creates(4, 1));
    assert.equal(readAppliedIndex(path), 4);
    machine.applyEntries(creates(5, 2)); // the next batch starts empty
    assert.equal(readAppliedIndex(path), 4);
    machine.close();
  });

  it('commits a batch within its interval when no more applies come', async () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 50, entriesMax: 1_000 } });
    machine.applyEntries(creates(1, 2));
    assert.equal(readAppliedIndex(path), 0);
    await eventually(() => readAppliedIndex(path) === 2, 'the batch of entries 1-2 committed');
    machine.applyEntries(creates(3, 2));
    assert.equal(readAppliedIndex(path), 2);
    await eventually(() => readAppliedIndex(path) === 4, 'the batch of entries 3-4 committed');
    machine.close();
  });

  it('keeps the earlier applies of a batch when one apply fails, and commits them', () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax: 5 } });
    machine.applyEntries(creates(1, 3));
    assert.throws(() => machine.applyEntries([...creates(4, 1), ...creates(4, 1)]), /does not follow/);
    assert.equal(machine.appliedIndex(), 3);
    assert.equal(machine.get('/k/4'), null, 'the failed apply left nothing');
    machine.applyEntries(creates(4, 2)); // fills the batch: it commits
    assert.equal(readAppliedIndex(path), 5);
    assert.equal(machine.get('/k/3')?.modRevision, 3);
    machine.close();
  });

  it('commits the open batch before a snapshot copy, so the copy holds every apply', async () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: neverByTime });
    machine.applyEntries(creates(1, 7));
    const { appliedIndex } = await machine.snapshotTo(join(dir, 'snap.db'));
    assert.equal(appliedIndex, 7);
    assert.equal(readAppliedIndex(path), 7);
    machine.close();
  });

  it('drops the open batch on a restore, and batches on the restored database', async () => {
    const source = SqliteStateMachine.open(join(dir, 'source.db'));
    source.applyEntries(creates(1, 6));
    await source.snapshotTo(join(dir, 'snap.db'));
    source.close();
    const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax: 3 } });
    machine.applyEntries(creates(1, 2));
    machine.restoreFrom(join(dir, 'snap.db'));
    assert.equal(machine.appliedIndex(), 6);
    assert.equal(readAppliedIndex(path), 6);
    machine.applyEntries(creates(7, 2));
    assert.equal(readAppliedIndex(path), 6);
    machine.applyEntries(creates(9, 1));
    assert.equal(readAppliedIndex(path), 9);
    machine.close();
  });

  it('commits the open batch at close, so a reopen resumes after the last apply', () => {
    const machine = SqliteStateMachine.open(path, { commitBatch: neverByTime });
    machine.applyEntries(creates(1, 3));
    machine.close();
    const reopened = SqliteStateMachine.open(path, { commitBatch: neverByTime });
    assert.equal(reopened.appliedIndex(), 3);
    assert.equal(reopened.currentRevision(), 3);
    reopened.close();
  });

  it('commits every apply at once without batching, where no log could redo a lost one', () => {
    const machine = SqliteStateMachine.open(path);
    machine.applyEntries(creates(1, 1));
    assert.equal(readAppliedIndex(path), 1);
    machine.close();
  });

  it('takes a failed commit as a lost batch: reported once, thrown, and no batch opens after it', () => {
    const db = fakeDb({ failCommit: true });
    const lost: Error[] = [];
    const batch = new CommitBatch(() => db.db, { intervalMs: 600_000, entriesMax: 2 }, (error) => lost.push(error));
    batch.begin();
    assert.throws(() => batch.add(2), /lost a batch of applied entries: database or disk is full/);
    assert.equal(lost.length, 1);
    assert.throws(() => batch.begin(), /lost a batch/);
    assert.throws(() => batch.commit(), /lost a batch/, 'no later commit may make the lost range look applied');
    assert.deepEqual(db.statements, ['BEGIN', 'COMMIT']);
    assert.equal(lost.length, 1);
  });

  it('takes a transaction that ended without a commit (any statement may roll it back) as a lost batch', () => {
    for (const next of ['begin', 'commit'] as const) {
      const db = fakeDb({ failCommit: false });
      const lost: Error[] = [];
      const batch = new CommitBatch(() => db.db, { intervalMs: 600_000, entriesMax: 100 }, (error) => lost.push(error));
      batch.begin();
      batch.add(1);
      db.rollBackBehindTheBatch(); // as SQLite does on SQLITE_FULL in, say, a read spilling the batch's pages
      assert.throws(() => batch[next](), /lost a batch of applied entries: the transaction ended without a commit/, next);
      assert.deepEqual(db.statements, ['BEGIN'], `${next}: neither a new BEGIN nor a COMMIT of a batch that holds nothing`);
      assert.equal(lost.length, 1);
    }
  });

  it('rolls the open batch back when dropped, and begins the next one afresh', () => {
    const db = fakeDb({ failCommit: false });
    const batch = new CommitBatch(() => db.db, { intervalMs: 600_000, entriesMax: 100 }, () => assert.fail('not lost'));
    batch.begin();
    batch.discard();
    batch.begin();
    batch.commit();
    assert.deepEqual(db.statements, ['BEGIN', 'ROLLBACK', 'BEGIN', 'COMMIT']);
  });
});

/** A stand-in for a better-sqlite3 connection that records its statements; its COMMIT may fail as on a full disk. */
function fakeDb(options: { failCommit: boolean }): { db: Db; statements: string[]; rollBackBehindTheBatch(): void } {
  const statements: string[] = [];
  let inTransaction = false;
  const db = {
    open: true,
    get inTransaction() {
      return inTransaction;
    },
    exec(sql: string) {
      statements.push(sql);
      if (sql === 'BEGIN') inTransaction = true;
      if (sql === 'ROLLBACK') inTransaction = false;
      if (sql === 'COMMIT') {
        inTransaction = false; // SQLite rolls back a transaction whose COMMIT fails with SQLITE_FULL
        if (options.failCommit) throw new Error('database or disk is full');
      }
    },
  } as unknown as Db;
  return { db, statements, rollBackBehindTheBatch: () => (inTransaction = false) };
}
