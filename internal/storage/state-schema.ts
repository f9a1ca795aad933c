// The SQLite schema of the state machine (a kine-style revision log) and its prepared statements.
import Database from 'better-sqlite3';
import { checkAndStampFormat, refuseUnreadableFormat, replicaRemedy, sqliteFormatOf } from '../../raft/formats.ts';

/** The format of the state-machine database (and of the store in a snapshot) this code writes and reads. */
export const stateFormatVersion = 1;

/** Bytes of WAL file kept after a checkpoint resets it. */
const walBytesKeptMax = 64 * 1024 * 1024;

/** An open state-machine database. */
export type Db = Database.Database;

const schema = `
  CREATE TABLE IF NOT EXISTS kv (
    rev INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    create_rev INTEGER NOT NULL,
    prev_rev INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    value BLOB NOT NULL,
    ts INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS kv_key_rev ON kv (key, rev);
  CREATE TABLE IF NOT EXISTS latest (key TEXT PRIMARY KEY, rev INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS requests (
    request_id TEXT PRIMARY KEY,
    entry_index INTEGER NOT NULL,
    result BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS requests_entry_index ON requests (entry_index);
`;

/**
 * Opens (creating if needed) a state-machine database at `path` (a file, `:memory:`, or the bytes
 * of a serialized database). Files use WAL with synchronous=NORMAL: a power loss may drop the last
 * few committed transactions (and any crash a replica's open batch: commit-batch.ts), but never
 * corrupts the file, and the Raft log (fsynced per Ready) still holds those entries; since the
 * applied index is written in the same transaction as the rows it produced, the node re-applies
 * exactly from its durable applied index on restart.
 */
export function openDatabase(path: string | Buffer): Db {
  const db = new Database(path);
  try {
    // Before any write: a newer database is left as it is.
    checkAndStampFormat(db, { path: typeof path === 'string' ? path : 'the restored store', what: 'the store', newest: stateFormatVersion, remedy: replicaRemedy });
  } catch (error) {
    db.close();
    throw error;
  }
  if (typeof path === 'string' && path !== ':memory:') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // A snapshot copy holds a read transaction for its whole run, so the WAL grows meanwhile;
    // once checkpointed it is cut back to this size instead of keeping its peak on disk.
    db.pragma(`journal_size_limit = ${walBytesKeptMax}`);
  }
  db.exec(schema);
  return db;
}

/**
 * Throws FormatVersionError unless the state database file at `path` is of a format this code
 * reads (a file without a version but with tables reads as 1). Opens it read-only: it is not stamped.
 * `what` and `remedy` complete the message ('the state snapshot from the leader', 'upgrade ...').
 */
export function checkStateFileFormat(path: string, what: string, remedy: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const found = sqliteFormatOf(db) ?? 0;
    refuseUnreadableFormat({ path, what, found, newest: stateFormatVersion, remedy });
    return found;
  } finally {
    db.close();
  }
}

/** A row of the revision log. `deleted` rows are tombstones with an empty value. */
export interface KvRow {
  rev: number;
  key: string;
  create_rev: number;
  prev_rev: number;
  deleted: number;
  value: Buffer;
  ts: number;
}

/** A history row joined with the row it replaced (for watch replay's prevKv). */
export interface HistoryRow extends KvRow {
  p_rev: number | null;
  p_create_rev: number | null;
  p_value: Buffer | null;
}

/** The statements of one database connection, prepared once. */
export function prepareStatements(db: Db) {
  return {
    metaGet: db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE name = ?'),
    metaSet: db.prepare<[string, number]>('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value'),
    latestRow: db.prepare<[string], KvRow>('SELECT kv.* FROM latest JOIN kv ON kv.rev = latest.rev WHERE latest.key = ?'),
    rowAt: db.prepare<[string, number], KvRow>('SELECT * FROM kv WHERE key = ? AND rev <= ? ORDER BY rev DESC LIMIT 1'),
    insertRow: db.prepare<[number, string, number, number, number, Buffer, number]>(
      'INSERT INTO kv (rev, key, create_rev, prev_rev, deleted, value, ts) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    setLatest: db.prepare<[string, number]>('INSERT INTO latest (key, rev) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET rev = excluded.rev'),
    deleteLatest: db.prepare<[string]>('DELETE FROM latest WHERE key = ?'),
    compact: db.prepare<{ c: number }>(`DELETE FROM kv WHERE rev <= :c AND (deleted = 1 OR EXISTS
      (SELECT 1 FROM kv AS later WHERE later.key = kv.key AND later.rev > kv.rev AND later.rev <= :c))`),
    requestGet: db.prepare<[string], { entry_index: number; result: Buffer }>('SELECT entry_index, result FROM requests WHERE request_id = ?'),
    // REPLACE: a request id seen longer ago than the window counts as new even before its row is pruned.
    requestPut: db.prepare<[string, number, Buffer]>('INSERT OR REPLACE INTO requests (request_id, entry_index, result) VALUES (?, ?, ?)'),
    requestPrune: db.prepare<[number]>('DELETE FROM requests WHERE entry_index <= ?'),
    history: db.prepare<{ after: number; lo: string; hi: string | null; limit: number }, HistoryRow>(`
      SELECT c.*, p.rev AS p_rev, p.create_rev AS p_create_rev, p.value AS p_value
      FROM kv AS c LEFT JOIN kv AS p ON p.rev = c.prev_rev
      WHERE c.rev > :after AND c.key >= :lo AND (:hi IS NULL OR c.key < :hi)
      ORDER BY c.rev LIMIT :limit`),
    revisionAtOrBefore: db.prepare<[number, number], { rev: number | null }>(
      'SELECT MAX(rev) AS rev FROM kv WHERE rev > ? AND ts <= ?'),
  };
}

/** The prepared statements of one connection. */
export type Statements = ReturnType<typeof prepareStatements>;
