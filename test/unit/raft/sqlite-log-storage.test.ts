import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { SqliteLogStorage, snapshotDataFor, snapshotPathOf } from '../../../raft/sqlite-log-storage.ts';
import { RaftError, index, term } from '../../../raft/core/types.ts';
import { repoRoot } from '../../../internal/cluster/build-layout.ts';
import { moduleInBuild } from '../../support/fork-entry-point.ts';
import type { ConfState, Entry } from '../../../raft/core/types.ts';

const execFileAsync = promisify(execFile);

const conf: ConfState = { voters: ['a', 'b', 'c'], learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false };

function ent(i: number, t: number, text = `e${i}`): Entry {
  return { index: index(i), term: term(t), type: 'normal', data: new TextEncoder().encode(text) };
}

async function withDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-raftlog-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function texts(es: readonly Entry[]): string[] {
  return es.map((e) => new TextDecoder().decode(e.data));
}

test('persist appends entries and hard state, and a restart reads them back', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  assert.equal(s.isEmpty(), true);
  s.setConfState(conf);
  s.persist({ hardState: { term: term(2), vote: 'a', commit: index(2) }, entries: [ent(1, 1), ent(2, 2), ent(3, 2)], snapshot: null, mustSync: true });
  assert.equal(s.firstIndex(), 1);
  assert.equal(s.lastIndex(), 3);
  assert.equal(s.term(index(0)), 0);
  assert.equal(s.term(index(2)), 2);
  assert.deepEqual(texts(s.entries(index(1), index(4), Infinity)), ['e1', 'e2', 'e3']);
  s.close();
  const r = new SqliteLogStorage(dir);
  t.after(() => r.close());
  assert.equal(r.isEmpty(), false);
  assert.deepEqual(r.initialState(), { hardState: { term: 2, vote: 'a', commit: 2 }, confState: conf });
  assert.equal(r.lastIndex(), 3);
  assert.deepEqual(texts(r.entries(index(2), index(4), Infinity)), ['e2', 'e3']);
  assert.equal(r.entries(index(1), index(2), Infinity)[0]?.type, 'normal');
});

test('persist drops a conflicting suffix before appending', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  s.persist({ hardState: null, entries: [ent(1, 1), ent(2, 1), ent(3, 1), ent(4, 1)], snapshot: null, mustSync: true });
  s.persist({ hardState: null, entries: [ent(3, 2, 'x3')], snapshot: null, mustSync: true });
  assert.equal(s.lastIndex(), 3);
  assert.equal(s.term(index(3)), 2);
  assert.throws(() => s.term(index(4)), (e: unknown) => e instanceof RaftError && e.code === 'Unavailable');
  s.close();
  const r = new SqliteLogStorage(dir);
  t.after(() => r.close());
  assert.deepEqual(texts(r.entries(index(1), index(4), Infinity)), ['e1', 'e2', 'x3']);
});

test('entries respects maxBytes but always returns at least one entry, from cache and from disk', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  t.after(() => s.close());
  s.persist({ hardState: null, entries: [ent(1, 1, 'aaaa'), ent(2, 1, 'bbbb'), ent(3, 1, 'cccc')], snapshot: null, mustSync: true });
  assert.deepEqual(texts(s.entries(index(1), index(4), 0)), ['aaaa']);
  assert.deepEqual(texts(s.entries(index(1), index(4), 8)), ['aaaa', 'bbbb']);
  assert.throws(() => s.entries(index(1), index(5), 100), (e: unknown) => e instanceof RaftError && e.code === 'Unavailable');
});

test('compact deletes entries up to the index, keeps its term, and survives a restart', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  s.persist({ hardState: null, entries: [1, 2, 3, 4, 5].map((i) => ent(i, i < 3 ? 1 : 2)), snapshot: null, mustSync: true });
  const { metadata, replacedPath } = s.createSnapshot(index(4), conf, '/snap/4.db');
  assert.equal(replacedPath, '');
  assert.deepEqual(metadata, { index: 4, term: 2, confState: conf });
  s.compact(index(3));
  assert.equal(s.firstIndex(), 4);
  assert.equal(s.term(index(3)), 2);
  assert.throws(() => s.term(index(2)), (e: unknown) => e instanceof RaftError && e.code === 'Compacted');
  assert.throws(() => s.entries(index(3), index(5), 100), (e: unknown) => e instanceof RaftError && e.code === 'Compacted');
  assert.throws(() => s.compact(index(5)), /assert/);
  s.close();
  const r = new SqliteLogStorage(dir);
  t.after(() => r.close());
  assert.equal(r.firstIndex(), 4);
  assert.equal(r.lastIndex(), 5);
  assert.equal(r.term(index(3)), 2);
  assert.deepEqual(texts(r.entries(index(4), index(6), Infinity)), ['e4', 'e5']);
  assert.equal(snapshotPathOf(r.snapshot()), '/snap/4.db');
  assert.equal(r.snapshot().metadata.index, 4);
});

test('a persisted snapshot replaces the whole log and its membership', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  s.persist({ hardState: null, entries: [ent(1, 1), ent(2, 1)], snapshot: null, mustSync: true });
  const newConf: ConfState = { ...conf, voters: ['a', 'b'] };
  const replaced = s.persist({
    hardState: { term: term(3), vote: '', commit: index(10) },
    entries: [ent(10, 3), ent(11, 3)],
    snapshot: { metadata: { index: index(10), term: term(3), confState: newConf }, data: snapshotDataFor('/snap/10.db') },
    mustSync: true,
  });
  assert.equal(replaced, '');
  assert.equal(s.firstIndex(), 11);
  assert.equal(s.lastIndex(), 11);
  assert.equal(s.term(index(10)), 3);
  s.close();
  const r = new SqliteLogStorage(dir);
  t.after(() => r.close());
  assert.deepEqual(r.initialState().confState, newConf);
  assert.equal(r.firstIndex(), 11);
  assert.deepEqual(texts(r.entries(index(11), index(12), Infinity)), ['e11']);
  assert.equal(snapshotPathOf(r.snapshot()), '/snap/10.db');
});

test('many entries beyond the cache are read back from disk in order', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  t.after(() => s.close());
  const all = Array.from({ length: 10_000 }, (_, i) => ent(i + 1, 1));
  for (let i = 0; i < all.length; i += 1000) s.persist({ hardState: null, entries: all.slice(i, i + 1000), snapshot: null, mustSync: true });
  assert.deepEqual(texts(s.entries(index(1), index(4), Infinity)), ['e1', 'e2', 'e3']);
  assert.equal(s.term(index(5)), 1);
  assert.equal(s.entries(index(1), index(10_001), Infinity).length, 10_000);
});

test('bootstrap writes the founding entries, hard state and membership at once, and refuses a non-empty log', async (t) => {
  const dir = await withDir(t);
  const s = new SqliteLogStorage(dir);
  const founding = [{ ...ent(1, 1), type: 'confChange' as const }, { ...ent(2, 1), type: 'confChange' as const }];
  s.bootstrap(founding, { term: term(1), vote: '', commit: index(2) }, conf);
  assert.throws(() => s.bootstrap(founding, { term: term(1), vote: '', commit: index(2) }, conf), /assert/);
  s.setPeerAddress('d', '127.0.0.1:9');
  s.setPeerAddress('e', '127.0.0.1:10');
  s.setPeerAddress('e', null);
  s.close();
  const r = new SqliteLogStorage(dir);
  t.after(() => r.close());
  assert.equal(r.isEmpty(), false);
  assert.deepEqual(r.initialState(), { hardState: { term: 1, vote: '', commit: 2 }, confState: conf });
  assert.equal(r.lastIndex(), 2);
  assert.equal(r.entries(index(1), index(2), Infinity)[0]?.type, 'confChange');
  assert.deepEqual(r.peerAddresses(), { d: '127.0.0.1:9' });
});

test('a second process cannot open a log that a running node holds, and says why; once closed it can', async (t) => {
  const dir = await withDir(t);
  const held = new SqliteLogStorage(dir);
  let heldOpen = true;
  t.after(() => {
    if (heldOpen) held.close();
  });
  held.persist({ entries: [ent(1, 1)], hardState: { term: term(1), vote: 'a', commit: index(0) }, snapshot: null, mustSync: true });
  // A separate process, as a second replica started on the same data directory would be.
  const storage = moduleInBuild('raft/sqlite-log-storage.ts');
  const storageModule = pathToFileURL(storage.path).href;
  const script = `const { SqliteLogStorage } = await import(${JSON.stringify(storageModule)});
    try { new SqliteLogStorage(${JSON.stringify(dir)}).close(); console.log('opened'); } catch (e) { console.log(e.message); }`;
  // From the repository root, where --import resolves tsx (when the test runs through it).
  const second = await execFileAsync(process.execPath, [...storage.execArgv, '--input-type=module', '-e', script], { cwd: repoRoot });
  assert.match(second.stdout, /raft\.db is in use by another process/);
  held.close();
  heldOpen = false;
  const reopened = new SqliteLogStorage(dir);
  t.after(() => reopened.close());
  assert.deepEqual(texts(reopened.entries(index(1), index(2), Infinity)), ['e1']);
});
