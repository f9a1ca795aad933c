// Makes a replica's data directory from a snapshot file (`orchctl snapshot restore`): the store as
// of the snapshot, and a Raft log whose first state is that snapshot with a new membership and a
// new cluster identity. Each member of the new cluster is restored from the same file with the
// same peers, so all of them start from the same state and agree on the cluster id without talking.
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { index, term, type ConfState } from '../../raft/core/index.ts';
import { restoredClusterId } from '../../raft/cluster-id.ts';
import { SqliteLogStorage } from '../../raft/sqlite-log-storage.ts';
import { stateDatabasePath } from './open-local-storage.ts';
import { extractSnapshotDatabase, fsyncPath, readStoreDatabaseFacts, SnapshotFileError } from './snapshot-file.ts';
import { checkStateFileFormat } from './state-schema.ts';

/** Options of restoreDataDir. */
export interface RestoreDataDirOptions {
  /** The snapshot file (docs/operations.md). */
  readonly snapshotFile: string;
  /** The replica's data directory: missing or empty. */
  readonly dataDir: string;
  /** This replica's name: one of `peers`. */
  readonly name: string;
  /** Every member of the new cluster: name -> peer address (the same on every member restored). */
  readonly peers: Readonly<Record<string, string>>;
}

/** What a restore made. */
export interface RestoredDataDir {
  /** The store's revision: every object keeps its resourceVersion, new writes continue above it. */
  readonly revision: number;
  /** The Raft index of the snapshot, the first state of the new log. */
  readonly raftIndex: number;
  readonly clusterId: string;
}

/** A restore refused before it wrote anything (bad options, a non-empty data directory). */
export class RestoreDataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreDataDirError';
  }
}

async function requireEmptyDir(dataDir: string): Promise<void> {
  const entries = await readdir(dataDir).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length > 0) throw new RestoreDataDirError(`${dataDir}: the data directory is not empty: restore into a new or empty directory`);
}

/** Copies `from` to `to` (which must not exist) and makes the copy durable. */
async function copyDurably(from: string, to: string): Promise<void> {
  await copyFile(from, to, 1 /* COPYFILE_EXCL */);
  await fsyncPath(to);
}

/**
 * Verifies `snapshotFile` and lays out `dataDir` for `openRaftStorage`: `state/state.db` (the
 * store as of the snapshot) and `raft/raft.db` (a log starting at a snapshot at the file's
 * raftIndex, whose file is a copy in `raft/snapshots/`, membership = the peers' names as voters,
 * their addresses, and the restored cluster id). A replica started over it with `name` and the
 * same peers, without --join, applies nothing to start. Throws RestoreDataDirError or
 * SnapshotFileError (or FormatVersionError for a store of a newer format) with a one-line message.
 */
export async function restoreDataDir(options: RestoreDataDirOptions): Promise<RestoredDataDir> {
  const names = Object.keys(options.peers).sort();
  if (names.length === 0) throw new RestoreDataDirError('no peers given: name every member of the new cluster (name=address)');
  if (!names.includes(options.name)) throw new RestoreDataDirError(`the name ${options.name} is not one of the peers (${names.join(', ')})`);
  // Two members at one address would each take the other's messages: refuse before writing anything.
  const byAddress = new Map<string, string>();
  for (const name of names) {
    const address = options.peers[name] ?? '';
    const other = byAddress.get(address);
    if (other !== undefined) throw new RestoreDataDirError(`the peers ${other} and ${name} have the same address ${address}: give each member its own peer address`);
    byAddress.set(address, name);
  }
  const dataDir = resolve(options.dataDir);
  await requireEmptyDir(dataDir);
  const stateDir = join(dataDir, 'state');
  const raftDir = join(dataDir, 'raft');
  try {
    return await layOut(options, dataDir, stateDir, raftDir, names);
  } catch (error) {
    // Leave the directory as it was found (empty), so that a corrected restore may run into it.
    await Promise.all([rm(stateDir, { recursive: true, force: true }), rm(raftDir, { recursive: true, force: true })]);
    throw error;
  }
}

async function layOut(options: RestoreDataDirOptions, dataDir: string, stateDir: string, raftDir: string, names: string[]): Promise<RestoredDataDir> {
  const snapshotDir = join(raftDir, 'snapshots');
  await mkdir(snapshotDir, { recursive: true });
  await mkdir(stateDir, { recursive: true });
  const statePath = stateDatabasePath(stateDir);
  const header = await extractSnapshotDatabase(options.snapshotFile, statePath);
  checkStateFileFormat(statePath, 'the store in this snapshot', 'restore it with an orch release that reads it');
  const facts = readStoreDatabaseFacts(statePath);
  if (facts.appliedIndex !== header.raftIndex || facts.revision !== header.revision || header.raftIndex < 1) {
    throw new SnapshotFileError('Inconsistent', `${options.snapshotFile}: the header says revision ${header.revision} at index ${header.raftIndex}, the store in it is at revision ${facts.revision}, index ${facts.appliedIndex}`);
  }
  const snapshotPath = join(snapshotDir, `snapshot-restored-${header.raftIndex}.db`);
  await copyDurably(statePath, snapshotPath);
  await Promise.all([fsyncPath(stateDir), fsyncPath(snapshotDir), fsyncPath(dataDir)]);
  const clusterId = restoredClusterId(header.sha256, names);
  const confState: ConfState = { voters: names, learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false };
  const log = new SqliteLogStorage(raftDir);
  try {
    log.bootstrapFromSnapshot({
      metadata: { index: index(header.raftIndex), term: term(header.raftTerm > 0 ? header.raftTerm : 1), confState },
      filePath: snapshotPath,
      peerAddresses: options.peers,
      clusterId,
    });
  } finally {
    log.close();
  }
  return { revision: header.revision, raftIndex: header.raftIndex, clusterId };
}
