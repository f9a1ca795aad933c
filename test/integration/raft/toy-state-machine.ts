// A toy replicated state machine for Raft tests: an append-only list of commands in SQLite,
// with the applied index in the same transaction, online-backup snapshots and restore.
import Database from 'better-sqlite3';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { index } from '../../../raft/core/types.ts';
import type { Entry, Index } from '../../../raft/core/types.ts';
import type { RaftNode, StateMachineHooks } from '../../../raft/node.ts';

/** The toy state machine of one node; `node` is set once the RaftNode has started (for onForward). */
export class ToyStateMachine implements StateMachineHooks {
  node: RaftNode | null = null;
  /** Tests: snapshots wait for this first (a slow copy). */
  snapshotGate: Promise<void> | null = null;
  /** Tests: snapshots write part of the file, then fail with this (a full disk). */
  snapshotFailure: Error | null = null;
  /** Snapshots asked for, failed ones included. */
  snapshotsAsked = 0;
  /** Restores done. */
  restores = 0;
  private db: Database.Database;

  constructor(private readonly dir: string) {
    this.db = ToyStateMachine.open(join(dir, 'sm.db'));
  }

  private static open(path: string): Database.Database {
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE IF NOT EXISTS items (idx INTEGER PRIMARY KEY, data BLOB NOT NULL); CREATE TABLE IF NOT EXISTS meta (id INTEGER PRIMARY KEY CHECK (id = 1), applied INTEGER NOT NULL); INSERT OR IGNORE INTO meta VALUES (1, 0);');
    return db;
  }

  applied(): Index {
    return index(this.db.prepare('SELECT applied FROM meta').pluck().get() as number);
  }

  apply(entries: readonly Entry[]): void {
    const insert = this.db.prepare('INSERT INTO items (idx, data) VALUES (?, ?)');
    const setApplied = this.db.prepare('UPDATE meta SET applied = ?');
    this.db.transaction(() => {
      for (const e of entries) if (e.type === 'normal' && e.data.byteLength > 0) insert.run(e.index, e.data);
      setApplied.run(entries[entries.length - 1]!.index);
    })();
  }

  async snapshot(filePath: string): Promise<{ index: Index; filePath: string }> {
    this.snapshotsAsked++;
    if (this.snapshotGate) await this.snapshotGate;
    if (this.snapshotFailure) {
      writeFileSync(filePath, 'part of a copy');
      throw this.snapshotFailure;
    }
    await this.db.backup(filePath);
    const copy = new Database(filePath, { readonly: true });
    try {
      return { index: index(copy.prepare('SELECT applied FROM meta').pluck().get() as number), filePath };
    } finally {
      copy.close();
    }
  }

  restore(filePath: string): void {
    const path = join(this.dir, 'sm.db');
    this.restores++;
    this.db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    copyFileSync(filePath, path);
    this.db = ToyStateMachine.open(path);
  }

  async onForward(data: Uint8Array): Promise<Uint8Array> {
    if (!this.node) throw new Error('not started');
    const i = await this.node.propose(data);
    return new TextEncoder().encode(String(i));
  }

  /** The commands applied so far, in log order, as text. */
  items(): string[] {
    return (this.db.prepare('SELECT data FROM items ORDER BY idx').pluck().all() as Buffer[]).map((b) => b.toString('utf8'));
  }

  close(): void {
    this.db.close();
  }
}
