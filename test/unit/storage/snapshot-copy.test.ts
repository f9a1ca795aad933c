import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDatabaseOffThread } from '../../../internal/storage/snapshot-copy.ts';

function withDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-snapshot-copy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the copy holds every committed row, including those still only in the WAL, and leaves the live WAL alone', async (t) => {
  const dir = withDir(t);
  const live = new Database(join(dir, 'live.db'));
  t.after(() => live.close());
  live.pragma('journal_mode = WAL');
  live.pragma('wal_autocheckpoint = 0');
  live.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)');
  const insert = live.prepare('INSERT INTO kv VALUES (?, ?)');
  live.transaction(() => { for (let i = 0; i < 500; i++) insert.run(`k${i}`, 'v'.repeat(100)); })();
  const walBytes = statSync(join(dir, 'live.db-wal')).size;
  assert.ok(walBytes > 0, 'the rows are in the WAL, not yet in the database file');

  await copyDatabaseOffThread(join(dir, 'live.db'), join(dir, 'copy.db'));

  const copy = new Database(join(dir, 'copy.db'), { readonly: true });
  t.after(() => copy.close());
  assert.equal(copy.prepare('SELECT count(*) FROM kv').pluck().get(), 500);
  assert.equal(statSync(join(dir, 'live.db-wal')).size, walBytes, 'the copy neither checkpointed nor removed the live WAL');
  // The live database goes on taking writes.
  insert.run('after', 'x');
  assert.equal(live.prepare('SELECT count(*) FROM kv').pluck().get(), 501);
});

test('copying a missing database or onto an existing file fails with the reason and writes nothing', async (t) => {
  const dir = withDir(t);
  await assert.rejects(copyDatabaseOffThread(join(dir, 'missing.db'), join(dir, 'copy.db')), /unable to open|not exist|SQLITE_CANTOPEN/i);
  assert.equal(existsSync(join(dir, 'copy.db')), false);
  const live = new Database(join(dir, 'live.db'));
  live.exec('CREATE TABLE t (x)');
  live.close();
  const existing = new Database(join(dir, 'taken.db'));
  existing.exec('CREATE TABLE other (y)');
  existing.close();
  await assert.rejects(copyDatabaseOffThread(join(dir, 'live.db'), join(dir, 'taken.db')), /output file already exists/i);
});
