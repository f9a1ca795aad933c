/**
 * The durable Raft log on SQLite (better-sqlite3, WAL). One Ready is written in ONE transaction
 * without an fsync; `sync()` then fdatasyncs the WAL on libuv's thread pool, so the event loop is
 * not blocked while the disk works, and every proposal of that Ready shares that one fsync (group
 * commit). The connection runs synchronous=NORMAL (no fsync at commit); the rare writes that must be
 * durable on return (bootstrap, membership, snapshot records, peer addresses) are fsynced at their
 * commit (`durably`). Recent entries are cached in memory; older ones are read from disk.
 *
 * Snapshots: the state machine's snapshot is a file; this log records its metadata and path,
 * and `snapshot().data` is that path in UTF-8 (a local convention of the driver and transport).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { closeSync, fdatasync, openSync } from 'node:fs';
import type { LogStorage } from './core/log-storage.ts';
import { RaftError, index, term } from './core/types.ts';
import type { ConfState, Entry, EntryType, HardState, Index, Snapshot, SnapshotMetadata, Term } from './core/types.ts';
import { entryCacheBytesMax, entryCacheEntriesMax, logLockWaitMs } from './limits.ts';
import { checkAndStampFormat, logFormatVersion, replicaRemedy } from './formats.ts';
import { foundingClusterId } from './cluster-id.ts';

const schema = `
CREATE TABLE IF NOT EXISTS entries (idx INTEGER PRIMARY KEY, term INTEGER NOT NULL, type INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS hard_state (id INTEGER PRIMARY KEY CHECK (id = 1), term INTEGER NOT NULL, vote TEXT NOT NULL, commit_index INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS conf_state (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), idx INTEGER NOT NULL, term INTEGER NOT NULL, conf_state TEXT NOT NULL, file_path TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS peer_address (id TEXT PRIMARY KEY, address TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log_start (id INTEGER PRIMARY KEY CHECK (id = 1), idx INTEGER NOT NULL, term INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** The meta row holding the index at which this node's removal applied (see removedAt). */
const removedAtKey = 'removed_at';
/** The meta row holding the cluster id. */
const clusterIdKey = 'cluster_id';

const emptyConf: ConfState = { voters: [], learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false };
const typeCode: Record<EntryType, number> = { normal: 0, confChange: 1 };

interface EntryRow {
  idx: number;
  term: number;
  type: number;
  data: Buffer;
}

function rowToEntry(r: EntryRow): Entry {
  return { index: index(r.idx), term: term(r.term), type: r.type === 1 ? 'confChange' : 'normal', data: new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength) };
}

/** What a Ready asks to make durable; the subset of `Ready` this log persists. */
export interface DurableReadyPart {
  readonly hardState: HardState | null;
  readonly entries: readonly Entry[];
  readonly snapshot: Snapshot | null;
  /** Whether the write must be made durable (Ready.mustSync) by `sync()`; a commit-index-only change need not be. */
  readonly mustSync: boolean;
}

/** Decodes the snapshot file path carried in `Snapshot.data`. */
export function snapshotPathOf(snap: Snapshot): string {
  return Buffer.from(snap.data.buffer, snap.data.byteOffset, snap.data.byteLength).toString('utf8');
}

/** Encodes a snapshot file path as `Snapshot.data`. */
export function snapshotDataFor(filePath: string): Uint8Array {
  return new Uint8Array(Buffer.from(filePath, 'utf8'));
}

/**
 * Opens `path` for this connection alone until it closes (locking_mode EXCLUSIVE): a second replica
 * started on the same data directory fails here instead of appending to the same log, as etcd
 * refuses a WAL another process has locked. Without file locks and the shared-memory WAL index,
 * each write is also cheaper (an entry write 46 us against 53, a commit-index write 16 against 21).
 */
function openExclusively(path: string): Database.Database {
  const db = new Database(path, { timeout: logLockWaitMs });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // Entering WAL mode takes the lock (and keeps it: there is no shared-memory index to share).
    db.pragma('journal_mode = WAL');
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    throw new Error(`${path} is in use by another process (is another replica running on this data directory?)`, { cause: error });
  }
  return db;
}

/** The durable Raft log of one node, in `<dataDir>/raft.db`, which it holds for itself while open. */
export class SqliteLogStorage implements LogStorage {
  private readonly db: Database.Database;
  private hardState: HardState = { term: term(0), vote: '', commit: index(0) };
  private confState: ConfState = emptyConf;
  private snapMeta: SnapshotMetadata = { index: index(0), term: term(0), confState: emptyConf };
  private snapPath = '';
  private cluster = '';
  /** The compaction point: entries at or below it are gone; its term is still known. */
  private offset: Index = index(0);
  private offsetTerm: Term = term(0);
  private last: Index = index(0);
  /** A contiguous suffix of the log ending at `last`. */
  private cache: Entry[] = [];
  private cacheBytes = 0;
  private readonly stmts;
  /** writeReadyRows in one transaction. */
  private readonly writeReady: (rd: DurableReadyPart, fresh: readonly Entry[]) => void;
  private readonly walPath: string;
  /** See removedAt: kept here, read once at open. */
  private removed = 0;
  /** Whether raft.db had no format stamp when opened (new, or written before formats existed). */
  private writtenBeforeFormats = false;
  private walFd: number | null = null;

  /**
   * Opens (creating if needed) `<dataDir>/raft.db` and loads its state. Throws FormatVersionError,
   * before writing anything, when the log is of a format this code does not read.
   */
  constructor(dataDir: string) {
    const path = join(dataDir, 'raft.db');
    this.db = openExclusively(path);
    this.walPath = join(dataDir, 'raft.db-wal');
    try {
      // Read before the stamp: only a log written before formats existed may lack a cluster id.
      this.writtenBeforeFormats = (this.db.pragma('user_version', { simple: true }) as number) === 0;
      checkAndStampFormat(this.db, { path, what: 'the Raft log', newest: logFormatVersion, remedy: replicaRemedy });
      this.stmts = this.createSchemaAndStatements();
      // better-sqlite3 builds a transaction function's wrappers at each db.transaction() (about 6 us a Ready).
      this.writeReady = this.db.transaction((rd: DurableReadyPart, fresh: readonly Entry[]) => this.writeReadyRows(rd, fresh));
      this.load();
    } catch (error) {
      // Or the lock would stay held, and a retry in this process be told "in use by another process".
      this.db.close();
      throw error;
    }
  }

  private createSchemaAndStatements() {
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(schema);
    return {
      insert: this.db.prepare('INSERT INTO entries (idx, term, type, data) VALUES (?, ?, ?, ?)'),
      truncateFrom: this.db.prepare('DELETE FROM entries WHERE idx >= ?'),
      deleteUpTo: this.db.prepare('DELETE FROM entries WHERE idx <= ?'),
      range: this.db.prepare('SELECT idx, term, type, data FROM entries WHERE idx >= ? AND idx < ? ORDER BY idx'),
      termAt: this.db.prepare('SELECT term FROM entries WHERE idx = ?').pluck(),
      // length() of a BLOB reads the record header, not the bytes.
      bytesBetween: this.db.prepare<[number, number], number>('SELECT COALESCE(SUM(length(data)), 0) FROM entries WHERE idx > ? AND idx <= ?').pluck(),
      lastIdx: this.db.prepare('SELECT max(idx) FROM entries').pluck(),
      hardState: this.db.prepare('INSERT OR REPLACE INTO hard_state (id, term, vote, commit_index) VALUES (1, ?, ?, ?)'),
      confState: this.db.prepare('INSERT OR REPLACE INTO conf_state (id, json) VALUES (1, ?)'),
      snapshot: this.db.prepare('INSERT OR REPLACE INTO snapshot (id, idx, term, conf_state, file_path) VALUES (1, ?, ?, ?, ?)'),
      metaGet: this.db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck(),
      metaSet: this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
      peerAddressSet: this.db.prepare('INSERT OR REPLACE INTO peer_address (id, address) VALUES (?, ?)'),
      logStart: this.db.prepare('INSERT OR REPLACE INTO log_start (id, idx, term) VALUES (1, ?, ?)'),
    };
  }

  private load(): void {
    const hs = this.db.prepare('SELECT term, vote, commit_index FROM hard_state WHERE id = 1').get() as { term: number; vote: string; commit_index: number } | undefined;
    if (hs) this.hardState = { term: term(hs.term), vote: hs.vote, commit: index(hs.commit_index) };
    const cs = this.db.prepare('SELECT json FROM conf_state WHERE id = 1').pluck().get() as string | undefined;
    if (cs !== undefined) this.confState = JSON.parse(cs) as ConfState;
    const snap = this.db.prepare('SELECT idx, term, conf_state, file_path FROM snapshot WHERE id = 1').get() as
      | { idx: number; term: number; conf_state: string; file_path: string }
      | undefined;
    if (snap) {
      this.snapMeta = { index: index(snap.idx), term: term(snap.term), confState: JSON.parse(snap.conf_state) as ConfState };
      this.snapPath = snap.file_path;
    }
    const start = this.db.prepare('SELECT idx, term FROM log_start WHERE id = 1').get() as { idx: number; term: number } | undefined;
    if (start) {
      this.offset = index(start.idx);
      this.offsetTerm = term(start.term);
    }
    const maxIdx = this.stmts.lastIdx.get() as number | null;
    this.last = index(Math.max(maxIdx ?? 0, this.offset));
    const from = Math.max(this.offset + 1, this.last - entryCacheEntriesMax + 1);
    this.cacheReplace(this.readRange(index(from), index(this.last + 1), Infinity));
    if (this.cache.length !== this.last - from + 1) throw new Error(`assert: raft.db has a gap in (${from}, ${this.last}]`);
    this.cluster = this.stmts.metaGet.get(clusterIdKey) ?? '';
    this.removed = Number(this.stmts.metaGet.get(removedAtKey) ?? 0);
    // A log written before cluster ids existed: its id is what its members would derive now. Not a
    // joining node's log that has a snapshot but not yet the id: that one learns it from the leader.
    if (this.cluster === '' && this.writtenBeforeFormats && !this.isEmpty() && this.confState.voters.length > 0) this.setClusterId(foundingClusterId(this.confState.voters));
  }

  /** The id of the cluster this log belongs to; '' before bootstrap (or before a joining node learns it). */
  clusterId(): string {
    return this.cluster;
  }

  /** Records the id of the cluster this log belongs to. Durable on return. */
  setClusterId(id: string): void {
    if (id === '') throw new Error('assert: empty cluster id');
    this.durably(() => this.writeClusterId(id));
    this.cluster = id;
  }

  /**
   * The log index at which this node's own removal from the group was applied (with no later
   * re-addition up to the commit index then), or 0. A removed member's data cannot rejoin.
   */
  removedAt(): number {
    return this.removed;
  }

  /** Records that this node was removed at `at` (see removedAt). Durable on return. */
  markRemoved(at: number): void {
    this.durably(() => this.stmts.metaSet.run(removedAtKey, String(at)));
    this.removed = at;
  }

  private writeClusterId(id: string): void {
    this.stmts.metaSet.run(clusterIdKey, id);
  }

  /** True when nothing was ever persisted: no hard state, no entries, no snapshot. */
  isEmpty(): boolean {
    return this.hardState.term === 0 && this.last === 0 && this.snapMeta.index === 0 && this.confState.voters.length === 0;
  }

  initialState(): { hardState: HardState; confState: ConfState } {
    return { hardState: this.hardState, confState: this.confState };
  }

  entries(lo: Index, hi: Index, maxBytes: number): Entry[] {
    if (lo <= this.offset) throw new RaftError('Compacted', `entries(${lo}) at or below compacted index ${this.offset}`);
    if (hi > this.last + 1) throw new RaftError('Unavailable', `entries up to ${hi} beyond last ${this.last}`);
    if (lo >= hi) return [];
    const cacheStart = this.last - this.cache.length + 1;
    if (lo >= cacheStart) {
      const out: Entry[] = [];
      let bytes = 0;
      for (let i = lo; i < hi; i++) {
        const e = this.cache[i - cacheStart]!;
        bytes += e.data.byteLength;
        if (out.length > 0 && bytes > maxBytes) break;
        out.push(e);
      }
      return out;
    }
    return this.readRange(lo, hi, maxBytes);
  }

  private readRange(lo: Index, hi: Index, maxBytes: number): Entry[] {
    const out: Entry[] = [];
    let bytes = 0;
    for (const row of this.stmts.range.iterate(lo, hi) as IterableIterator<EntryRow>) {
      const e = rowToEntry(row);
      if (e.index !== lo + out.length) throw new Error(`assert: raft.db has a gap at ${lo + out.length}`);
      bytes += e.data.byteLength;
      if (out.length > 0 && bytes > maxBytes) break;
      out.push(e);
    }
    return out;
  }

  term(i: Index): Term {
    if (i === this.offset) return this.offsetTerm;
    if (i < this.offset) throw new RaftError('Compacted', `term(${i}) below compacted index ${this.offset}`);
    if (i > this.last) throw new RaftError('Unavailable', `term(${i}) beyond last ${this.last}`);
    const cacheStart = this.last - this.cache.length + 1;
    if (i >= cacheStart) return this.cache[i - cacheStart]!.term;
    const t = this.stmts.termAt.get(i) as number | undefined;
    if (t === undefined) throw new Error(`assert: raft.db lacks entry ${i}`);
    return term(t);
  }

  firstIndex(): Index {
    return index(this.offset + 1);
  }

  lastIndex(): Index {
    return this.last;
  }

  snapshot(): Snapshot {
    return { metadata: this.snapMeta, data: snapshotDataFor(this.snapPath) };
  }

  /** The data bytes of the entries with index in (`after`, `upTo`] that this log holds. */
  entryBytesBetween(after: Index, upTo: Index): number {
    return this.stmts.bytesBetween.get(after, upTo) ?? 0;
  }

  /** The file of the latest snapshot, or '' when there is none. */
  snapshotFilePath(): string {
    return this.snapPath;
  }

  /** The hard state as last persisted. */
  currentHardState(): HardState {
    return this.hardState;
  }

  /**
   * Writes what a Ready asks, in ONE transaction, durable once `sync()` resolves: the snapshot
   * (replacing the log), then the entries (dropping a conflicting suffix first), then the hard
   * state. Returns the path of a snapshot file this replaced (the caller deletes it after the
   * sync), or ''.
   */
  persist(rd: DurableReadyPart): string {
    const fresh = rd.entries.filter((e) => e.index > (rd.snapshot ? rd.snapshot.metadata.index : this.offset));
    if (!rd.snapshot && fresh.length === 0 && !rd.hardState) return '';
    const previousSnapPath = this.snapPath;
    const first = fresh[0];
    if (first) {
      const base = rd.snapshot ? rd.snapshot.metadata.index : this.last;
      if (first.index > base + 1) throw new Error(`assert: append leaves a gap: last ${base}, new ${first.index}`);
    }
    // Made durable by sync(), off the event loop; a commit-index-only write needs no fsync at all
    // (Raft re-learns the commit index).
    this.writeReady(rd, fresh);
    if (rd.snapshot) {
      const m = rd.snapshot.metadata;
      this.snapMeta = m;
      this.snapPath = snapshotPathOf(rd.snapshot);
      this.confState = m.confState;
      this.offset = m.index;
      this.offsetTerm = m.term;
      this.last = m.index;
      this.cacheReplace([]);
    }
    if (first) this.appendToMemory(fresh);
    if (rd.hardState) this.hardState = rd.hardState;
    return rd.snapshot && previousSnapPath !== this.snapPath ? previousSnapPath : '';
  }

  /** Runs `write` with an fsync at its commit (which also makes every earlier write durable). */
  private durably(write: () => void): void {
    this.db.pragma('synchronous = FULL');
    try {
      write();
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }

  private writeReadyRows(rd: DurableReadyPart, fresh: readonly Entry[]): void {
    if (rd.snapshot) {
      const m = rd.snapshot.metadata;
      this.stmts.truncateFrom.run(0);
      this.stmts.snapshot.run(m.index, m.term, JSON.stringify(m.confState), snapshotPathOf(rd.snapshot));
      this.stmts.confState.run(JSON.stringify(m.confState));
      this.stmts.logStart.run(m.index, m.term);
    }
    const first = fresh[0];
    if (first) {
      this.stmts.truncateFrom.run(first.index);
      for (const e of fresh) this.stmts.insert.run(e.index, e.term, typeCode[e.type], e.data);
    }
    if (rd.hardState) this.stmts.hardState.run(rd.hardState.term, rd.hardState.vote, rd.hardState.commit);
  }

  private appendToMemory(fresh: readonly Entry[]): void {
    const firstIndex = fresh[0]!.index;
    const cacheStart = this.last - this.cache.length + 1;
    if (firstIndex < cacheStart) {
      this.cacheReplace([...fresh]);
    } else {
      const dropped = this.cache.splice(firstIndex - cacheStart);
      for (const e of dropped) this.cacheBytes -= e.data.byteLength;
      for (const e of fresh) {
        this.cache.push(e);
        this.cacheBytes += e.data.byteLength;
      }
    }
    this.last = fresh[fresh.length - 1]!.index;
    this.trimCache();
  }

  private cacheReplace(entries: Entry[]): void {
    this.cache = entries;
    this.cacheBytes = entries.reduce((n, e) => n + e.data.byteLength, 0);
    this.trimCache();
  }

  private trimCache(): void {
    let drop = 0;
    let bytes = this.cacheBytes;
    while (this.cache.length - drop > 1 && (this.cache.length - drop > entryCacheEntriesMax || bytes > entryCacheBytesMax)) {
      bytes -= this.cache[drop]!.data.byteLength;
      drop++;
    }
    if (drop > 0) this.cache.splice(0, drop);
    this.cacheBytes = bytes;
  }

  /**
   * Writes the first state of a new group in ONE transaction: `entries` (committed by fiat,
   * identical on every founding member), the hard state, the membership they produce and the
   * cluster id (by default the founding id of the voters). Asserts the log is empty.
   */
  bootstrap(entries: readonly Entry[], hardState: HardState, confState: ConfState, clusterId = foundingClusterId(confState.voters)): void {
    if (!this.isEmpty()) throw new Error('assert: bootstrap of a non-empty log');
    this.durably(() => this.db.transaction(() => {
      this.writeReady({ hardState, entries, snapshot: null, mustSync: true }, entries);
      this.stmts.confState.run(JSON.stringify(confState));
      this.writeClusterId(clusterId);
    })());
    this.confState = confState;
    this.hardState = hardState;
    this.cluster = clusterId;
    if (entries.length > 0) this.appendToMemory(entries);
  }

  /**
   * Writes the first state of a log restored from a snapshot, in ONE durable transaction: the
   * snapshot `metadata` (its file at `filePath`, which must exist: the node restores from it if
   * its state machine is behind), a log starting after it, the hard state (the snapshot's term,
   * no vote, committed up to it), the membership of the metadata, the peers' addresses and the
   * cluster id. Asserts the log is empty and the membership has voters.
   */
  bootstrapFromSnapshot(s: { metadata: SnapshotMetadata; filePath: string; peerAddresses: Readonly<Record<string, string>>; clusterId: string }): void {
    if (!this.isEmpty()) throw new Error('assert: bootstrap from a snapshot of a non-empty log');
    const m = s.metadata;
    if (m.index < 1 || m.confState.voters.length === 0 || s.clusterId === '') throw new Error('assert: bootstrap from a snapshot without index, voters or cluster id');
    const hardState: HardState = { term: m.term, vote: '', commit: m.index };
    this.durably(() => this.db.transaction(() => {
      this.writeReadyRows({ hardState, entries: [], snapshot: { metadata: m, data: snapshotDataFor(s.filePath) }, mustSync: true }, []);
      for (const [id, address] of Object.entries(s.peerAddresses)) this.stmts.peerAddressSet.run(id, address);
      this.writeClusterId(s.clusterId);
    })());
    this.snapMeta = m;
    this.snapPath = s.filePath;
    this.confState = m.confState;
    this.offset = m.index;
    this.offsetTerm = m.term;
    this.last = m.index;
    this.hardState = hardState;
    this.cluster = s.clusterId;
  }

  /** Records the membership a restarted node starts with (after applying a conf change). Durable on return. */
  setConfState(cs: ConfState): void {
    this.durably(() => this.stmts.confState.run(JSON.stringify(cs)));
    this.confState = cs;
  }

  /**
   * Records a snapshot the state machine wrote to `filePath`, covering the log up to `i`
   * (i <= applied, > the current snapshot). Keeps the entries (see compact). Returns the
   * metadata and the path of the snapshot file it replaced ('' if none; the caller deletes it).
   */
  createSnapshot(i: Index, confState: ConfState, filePath: string): { metadata: SnapshotMetadata; replacedPath: string } {
    if (i <= this.snapMeta.index) throw new RaftError('SnapshotOutOfDate', `snapshot at ${i} is not newer than ${this.snapMeta.index}`);
    if (i > this.last) throw new Error(`assert: snapshot ${i} beyond last index ${this.last}`);
    const metadata: SnapshotMetadata = { index: i, term: this.term(i), confState };
    this.durably(() => this.stmts.snapshot.run(i, metadata.term, JSON.stringify(confState), filePath));
    const replacedPath = this.snapPath;
    this.snapMeta = metadata;
    this.snapPath = filePath;
    return { metadata, replacedPath };
  }

  /** Deletes the entries up to and including i (offset < i <= snapshot index). */
  compact(i: Index): void {
    if (i <= this.offset) throw new RaftError('Compacted', `compact(${i}) at or below ${this.offset}`);
    if (i > this.snapMeta.index) throw new Error(`assert: compact(${i}) beyond snapshot ${this.snapMeta.index}`);
    const t = this.term(i);
    // Not synced: a compaction lost on a crash only leaves entries that are compacted again later
    // (the delete and the new start are one transaction).
    this.db.transaction(() => {
      this.stmts.deleteUpTo.run(i);
      this.stmts.logStart.run(i, t);
    })();
    this.offset = i;
    this.offsetTerm = t;
    const cacheStart = this.last - this.cache.length + 1;
    if (i >= cacheStart) {
      const dropped = this.cache.splice(0, i - cacheStart + 1);
      for (const e of dropped) this.cacheBytes -= e.data.byteLength;
    }
  }

  /** Peer addresses learnt from applied membership changes (id -> address). */
  peerAddresses(): Record<string, string> {
    const rows = this.db.prepare('SELECT id, address FROM peer_address').all() as { id: string; address: string }[];
    return Object.fromEntries(rows.map((r) => [r.id, r.address]));
  }

  /** Records (address) or forgets (null) a peer's address. Durable on return. */
  setPeerAddress(id: string, address: string | null): void {
    this.durably(() => {
      if (address === null) this.db.prepare('DELETE FROM peer_address WHERE id = ?').run(id);
      else this.stmts.peerAddressSet.run(id, address);
    });
  }

  /**
   * Makes every write so far durable: an fdatasync of the WAL, on libuv's thread pool. Enough on
   * its own: WAL recovery keeps a prefix of the committed transactions, and a checkpoint syncs the
   * WAL before it copies pages into the database file (and the file after).
   */
  sync(): Promise<void> {
    // SQLite keeps the same -wal file for as long as a connection has the database open.
    this.walFd ??= openSync(this.walPath, 'r');
    const fd = this.walFd;
    return new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
  }

  /** Closes the database. The object is unusable afterwards; no sync() may be in flight. */
  close(): void {
    if (this.walFd !== null) closeSync(this.walFd);
    this.db.close();
  }
}
