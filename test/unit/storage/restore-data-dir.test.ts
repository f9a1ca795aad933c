// Making a replica data directory from a snapshot file: the layout openRaftStorage finds, the
// cluster id every member derives alike, and the refusals (before anything is left behind).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { restoreDataDir, RestoreDataDirError } from '../../../internal/storage/restore-data-dir.ts';
import { snapshotHeaderFor, SnapshotFileError, writeSnapshotFile } from '../../../internal/storage/snapshot-file.ts';
import { SqliteStateMachine } from '../../../internal/storage/sqlite-state-machine.ts';
import { restoredClusterId } from '../../../raft/cluster-id.ts';
import { SqliteLogStorage } from '../../../raft/sqlite-log-storage.ts';
import { creates } from '../../support/state-entries.ts';

const peers = { b: 'hb:1', a: 'ha:1' };

/** A snapshot file of a store of 4 objects at index 4, with `raftTerm`. */
async function snapshotFile(t: { after: (fn: () => void) => void }, raftTerm = 0): Promise<{ dir: string; file: string; sha256: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-restore-dir-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const machine = SqliteStateMachine.open(join(dir, 'state.db'));
  machine.applyEntries(creates(1, 4));
  await machine.snapshotTo(join(dir, 'copy.db'));
  machine.close();
  const header = await snapshotHeaderFor(join(dir, 'copy.db'), { raftTerm, clusterId: 'old', replica: 'x' });
  const file = join(dir, 'orch.snapshot');
  await writeSnapshotFile(file, header, join(dir, 'copy.db'));
  return { dir, file, sha256: header.sha256 };
}

describe('restoreDataDir', () => {
  it('lays out the store and a Raft log starting at the snapshot, with the peers as voters and the restored cluster id', async (t) => {
    const s = await snapshotFile(t);
    const dataDir = join(s.dir, 'data');
    const result = await restoreDataDir({ snapshotFile: s.file, dataDir, name: 'a', peers });
    assert.deepEqual(result, { revision: 4, raftIndex: 4, clusterId: restoredClusterId(s.sha256, ['a', 'b']) });
    const machine = SqliteStateMachine.open(join(dataDir, 'state', 'state.db'));
    assert.equal(machine.appliedIndex(), 4);
    assert.equal(machine.get('/k/3')?.modRevision, 3);
    machine.close();
    const log = new SqliteLogStorage(join(dataDir, 'raft'));
    t.after(() => log.close());
    assert.equal(log.clusterId(), result.clusterId);
    assert.deepEqual(log.snapshot().metadata, { index: 4, term: 1, confState: { voters: ['a', 'b'], learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false } });
    assert.deepEqual(log.initialState().hardState, { term: 1, vote: '', commit: 4 });
    assert.deepEqual(log.peerAddresses(), peers);
    // The snapshot the log records is a file of its own, beside the log: the database of the snapshot file.
    assert.ok(log.snapshotFilePath().startsWith(join(dataDir, 'raft', 'snapshots')));
    assert.deepEqual(readFileSync(log.snapshotFilePath()), readFileSync(join(s.dir, 'copy.db')));
  });

  it('keeps the term the snapshot file gives', async (t) => {
    const s = await snapshotFile(t, 7);
    const dataDir = join(s.dir, 'data');
    await restoreDataDir({ snapshotFile: s.file, dataDir, name: 'b', peers });
    const log = new SqliteLogStorage(join(dataDir, 'raft'));
    t.after(() => log.close());
    assert.equal(log.snapshot().metadata.term, 7);
  });

  it('refuses a data directory that is not empty', async (t) => {
    const s = await snapshotFile(t);
    const dataDir = join(s.dir, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'something'), 'x');
    await assert.rejects(restoreDataDir({ snapshotFile: s.file, dataDir, name: 'a', peers }), (e: unknown) =>
      e instanceof RestoreDataDirError && e.message === `${dataDir}: the data directory is not empty: restore into a new or empty directory`);
  });

  it('refuses a name that is not one of the peers', async (t) => {
    const s = await snapshotFile(t);
    await assert.rejects(restoreDataDir({ snapshotFile: s.file, dataDir: join(s.dir, 'data'), name: 'c', peers }), (e: unknown) =>
      e instanceof RestoreDataDirError && e.message === 'the name c is not one of the peers (a, b)');
    assert.equal(existsSync(join(s.dir, 'data')), false);
  });

  it('refuses two peers at one address, before writing anything', async (t) => {
    const s = await snapshotFile(t);
    await assert.rejects(restoreDataDir({ snapshotFile: s.file, dataDir: join(s.dir, 'data'), name: 'a', peers: { a: '127.0.0.1:1', b: '127.0.0.1:1' } }), (e: unknown) =>
      e instanceof RestoreDataDirError && e.message === 'the peers a and b have the same address 127.0.0.1:1: give each member its own peer address');
    assert.equal(existsSync(join(s.dir, 'data')), false);
  });

  it('refuses a corrupt file and leaves the data directory empty for a retry', async (t) => {
    const s = await snapshotFile(t);
    const bytes = readFileSync(s.file);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    writeFileSync(s.file, bytes);
    const dataDir = join(s.dir, 'data');
    await assert.rejects(restoreDataDir({ snapshotFile: s.file, dataDir, name: 'a', peers }), (e: unknown) => e instanceof SnapshotFileError && e.code === 'ChecksumMismatch');
    assert.deepEqual(readdirSync(dataDir), []);
  });
});
