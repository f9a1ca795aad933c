// The Raft log's format version (refusing a newer log, stamping a legacy one), its cluster id,
// and its bootstrap from a snapshot.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteLogStorage } from '../../../raft/sqlite-log-storage.ts';
import { bootstrapLog } from '../../../raft/bootstrap.ts';
import { foundingClusterId, restoredClusterId } from '../../../raft/cluster-id.ts';
import { FormatVersionError, logFormatVersion } from '../../../raft/formats.ts';
import { index, term, type ConfState } from '../../../raft/core/types.ts';

async function withDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-raftlog-format-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function userVersion(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

const conf = (voters: string[]): ConfState => ({ voters, learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false });

test('a new log is stamped with the current format and has no cluster id until bootstrap', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  assert.equal(s.clusterId(), '');
  s.close();
  assert.equal(userVersion(join(dir, 'raft.db')), logFormatVersion);
});

test('a log of a newer format is refused at open, naming the path, the versions and what to do, and left unchanged', async (t) => {
  const dir = await withDir(t);
  const path = join(dir, 'raft.db');
  const db = new Database(path);
  db.exec('CREATE TABLE entries (idx INTEGER PRIMARY KEY)');
  db.pragma('user_version = 3');
  db.close();
  assert.throws(() => new SqliteLogStorage(dir), (error: unknown) => {
    assert.ok(error instanceof FormatVersionError);
    assert.equal(error.message, `${path}: the Raft log is in format 3; this orch reads format 1: run an orch release that reads it, or restore this replica from a snapshot (orchctl snapshot restore)`);
    assert.equal(error.found, 3);
    return true;
  });
  assert.equal(userVersion(path), 3);
  // The refusal released the lock: the file can be opened again.
  assert.throws(() => new SqliteLogStorage(dir), FormatVersionError);
});

test('a log written before format versions is read as format 1, stamped, and given the cluster id of its voters', async (t) => {
  const dir = await withDir(t);
  const path = join(dir, 'raft.db');
  // The schema as it was before versions and cluster ids.
  const db = new Database(path);
  db.exec(`CREATE TABLE entries (idx INTEGER PRIMARY KEY, term INTEGER NOT NULL, type INTEGER NOT NULL, data BLOB NOT NULL);
    CREATE TABLE hard_state (id INTEGER PRIMARY KEY CHECK (id = 1), term INTEGER NOT NULL, vote TEXT NOT NULL, commit_index INTEGER NOT NULL);
    CREATE TABLE conf_state (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);`);
  db.prepare('INSERT INTO hard_state VALUES (1, 4, ?, 0)').run('b');
  db.prepare('INSERT INTO conf_state VALUES (1, ?)').run(JSON.stringify(conf(['c', 'a', 'b'])));
  db.close();
  const s = new SqliteLogStorage(dir);
  assert.equal(s.clusterId(), foundingClusterId(['a', 'b', 'c']));
  assert.equal(s.initialState().hardState.term, 4);
  s.close();
  assert.equal(userVersion(path), 1);
  const again = new SqliteLogStorage(dir);
  t.after(() => again.close());
  assert.equal(again.clusterId(), foundingClusterId(['a', 'b', 'c']));
});

test('founding members derive the same cluster id from the names alone, whatever addresses each one has for the others', async (t) => {
  const [d1, d2] = [await withDir(t), await withDir(t)];
  const s1 = new SqliteLogStorage(d1);
  const s2 = new SqliteLogStorage(d2);
  bootstrapLog(s1, { n1: '10.0.0.1:1', n2: '10.0.0.2:1', n3: '10.0.0.3:1' }, 'n1');
  bootstrapLog(s2, { n1: '127.0.0.1:4001', n2: '127.0.0.1:4002', n3: 'proxy:9' }, 'n2');
  assert.equal(s1.clusterId(), s2.clusterId());
  assert.match(s1.clusterId(), /^[0-9a-f]{16}$/);
  assert.notEqual(s1.clusterId(), foundingClusterId(['n1', 'n2']));
  s1.close();
  s2.close();
  const reopened = new SqliteLogStorage(d1);
  t.after(() => reopened.close());
  assert.equal(reopened.clusterId(), foundingClusterId(['n3', 'n2', 'n1']));
});

test('setClusterId is durable across a reopen', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  s.setClusterId('0123456789abcdef');
  s.close();
  const r = new SqliteLogStorage(dir);
  t.after(() => r.close());
  assert.equal(r.clusterId(), '0123456789abcdef');
});

test('a restored cluster id depends on the snapshot and the names, and differs from a founding id', () => {
  const sha = 'a'.repeat(64);
  assert.equal(restoredClusterId(sha, ['y', 'x']), restoredClusterId(sha, ['x', 'y']));
  assert.notEqual(restoredClusterId(sha, ['x', 'y']), restoredClusterId('b'.repeat(64), ['x', 'y']));
  assert.notEqual(restoredClusterId(sha, ['x', 'y']), foundingClusterId(['x', 'y']));
});

test('bootstrapFromSnapshot starts the log at the snapshot, committed, with the membership, addresses and cluster id', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  const metadata = { index: index(42), term: term(3), confState: conf(['r1', 'r2']) };
  s.bootstrapFromSnapshot({ metadata, filePath: '/x/snap.db', peerAddresses: { r1: 'h1:1', r2: 'h2:2' }, clusterId: 'feedfacefeedface' });
  assert.throws(() => s.bootstrapFromSnapshot({ metadata, filePath: '/x/snap.db', peerAddresses: {}, clusterId: 'x' }), /assert/);
  s.close();
  const r = new SqliteLogStorage(dir);
  t.after(() => r.close());
  assert.equal(r.isEmpty(), false);
  assert.deepEqual(r.snapshot().metadata, metadata);
  assert.equal(r.snapshotFilePath(), '/x/snap.db');
  assert.deepEqual(r.initialState(), { hardState: { term: 3, vote: '', commit: 42 }, confState: conf(['r1', 'r2']) });
  assert.equal(r.firstIndex(), 43);
  assert.equal(r.lastIndex(), 42);
  assert.equal(r.term(index(42)), 3);
  assert.deepEqual(r.peerAddresses(), { r1: 'h1:1', r2: 'h2:2' });
  assert.equal(r.clusterId(), 'feedfacefeedface');
});
