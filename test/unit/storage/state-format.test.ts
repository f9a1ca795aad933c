// The state database's format version: a newer store is refused at open and as a snapshot to
// install; a store written before versions is read as format 1 and stamped.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteStateMachine } from '../../../internal/storage/sqlite-state-machine.ts';
import { stateFormatVersion } from '../../../internal/storage/state-schema.ts';
import { FormatVersionError } from '../../../raft/formats.ts';
import { creates } from '../../support/state-entries.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-state-format-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
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

/** A store database as a newer release would write it. */
function newerStore(path: string): void {
  const db = new Database(path);
  db.exec('CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID');
  db.pragma('user_version = 2');
  db.close();
}

describe('state database format', () => {
  it('stamps a new store with the current format', (t) => {
    const path = join(tempDir(t), 'state.db');
    SqliteStateMachine.open(path).close();
    assert.equal(userVersion(path), stateFormatVersion);
  });

  it('refuses a store of a newer format at open, naming the path, the versions and what to do', (t) => {
    const path = join(tempDir(t), 'state.db');
    newerStore(path);
    assert.throws(() => SqliteStateMachine.open(path), (error: unknown) => {
      assert.ok(error instanceof FormatVersionError);
      assert.equal(error.message, `${path}: the store is in format 2; this orch reads format 1: run an orch release that reads it, or restore this replica from a snapshot (orchctl snapshot restore)`);
      return true;
    });
    assert.equal(userVersion(path), 2);
  });

  it('reads a store written before versions as format 1 and stamps it', (t) => {
    const dir = tempDir(t);
    const path = join(dir, 'state.db');
    const machine = SqliteStateMachine.open(path);
    machine.applyEntries(creates(1, 3));
    machine.close();
    const db = new Database(path);
    db.pragma('user_version = 0');
    db.close();
    const reopened = SqliteStateMachine.open(path);
    assert.equal(reopened.currentRevision(), 3);
    reopened.close();
    assert.equal(userVersion(path), 1);
  });

  it('refuses to install a snapshot of a newer format, and keeps its own store', (t) => {
    const dir = tempDir(t);
    const machine = SqliteStateMachine.open(join(dir, 'state.db'));
    t.after(() => machine.close());
    machine.applyEntries(creates(1, 2));
    const incoming = join(dir, 'incoming.db');
    newerStore(incoming);
    assert.throws(() => machine.restoreFrom(incoming), /incoming\.db: the state snapshot to install is in format 2; this orch reads format 1: upgrade this replica/);
    assert.equal(machine.currentRevision(), 2);
    assert.equal(machine.get('/k/1')?.modRevision, 1);
  });
});
