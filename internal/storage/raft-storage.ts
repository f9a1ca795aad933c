// Glue between the replicated store and the Raft driver (raft/node.ts): the driver's state
// machine hooks over the store, the store's ReplicationLog over the driver, and a factory that
// opens both in the right order.
import { join } from 'node:path';
import { index, type Entry } from '../../raft/core/index.ts';
import { RaftNode, RaftNodeError, type RaftNodeErrorCode, type RaftNodeOptions, type StateMachineHooks } from '../../raft/index.ts';
import { openReplicatedStorage, type ReplicatedStorageOpenOptions } from './open-replicated-storage.ts';
import type { ReplicatedStorage } from './replicated-storage.ts';
import { NotAppendedError, type ReplicationLog } from './replication-log.ts';

const noData = new Uint8Array(0);

/** The driver's hooks over a replica's store. Non-'normal' entries (confChange) apply as no-ops. */
export function raftStateMachineHooks(storage: ReplicatedStorage): StateMachineHooks {
  const machine = storage.stateMachine;
  return {
    applied: () => index(machine.appliedIndex()),
    apply: (entries: readonly Entry[]) => {
      machine.applyEntries(entries.map((e) => ({ index: e.index, data: e.type === 'normal' ? e.data : noData })));
    },
    snapshot: async (suggestedPath: string) => {
      const { appliedIndex } = await machine.snapshotTo(suggestedPath);
      return { index: index(appliedIndex), filePath: suggestedPath };
    },
    restore: (filePath: string) => machine.restoreFrom(filePath),
    onForward: (data: Uint8Array) => storage.handleForwarded(data),
  };
}

/** Raft driver codes that mean the proposal never reached the log (see NotAppendedError). */
const refusedBeforeAppend: ReadonlySet<RaftNodeErrorCode> = new Set(['NotLeader', 'ProposalDropped', 'ProposalOverwritten', 'ConfChangePending', 'QueueFull', 'TooLarge']);

/** The store's form of a driver rejection: NotAppendedError when the command certainly never reached the log. */
function replicationError(err: unknown): unknown {
  return err instanceof RaftNodeError && refusedBeforeAppend.has(err.code) ? new NotAppendedError(`${err.code}: ${err.message}`) : err;
}

/** The store's view of the Raft node. */
export function raftReplicationLog(node: RaftNode): ReplicationLog {
  return {
    propose: async (data) => {
      await node.propose(data).catch((err: unknown) => {
        throw replicationError(err);
      });
    },
    proposeViaLeader: (data) => {
      try {
        return node.proposeViaLeader(data);
      } catch (err) {
        // Refused before reaching the core: it cannot apply.
        throw err instanceof RaftNodeError ? new NotAppendedError(`${err.code}: ${err.message}`) : err;
      }
    },
    readIndex: async () => {
      await node.readIndex();
    },
    isLeader: () => node.isLeader(),
  };
}

/** Options of `openRaftStorage`: the store's, plus the Raft node's (without its data dir and hooks). */
export interface RaftStorageOptions extends Omit<ReplicatedStorageOpenOptions, 'dataDir'> {
  /** The replica's data directory: the store lives in `state/`, the Raft log in `raft/`. */
  readonly dataDir: string;
  readonly raft: Omit<RaftNodeOptions, 'dataDir' | 'stateMachine'>;
}

/** A running replica: its store, its Raft node, and how to stop both (node first, then store). */
export interface RaftStorage {
  readonly storage: ReplicatedStorage;
  readonly node: RaftNode;
  close(): Promise<void>;
}

/** Opens a replica's store and starts its Raft node over it; restart from the same `dataDir` resumes. */
export async function openRaftStorage(options: RaftStorageOptions): Promise<RaftStorage> {
  const { raft, dataDir, ...storeOptions } = options;
  const storage = await openReplicatedStorage({ ...storeOptions, dataDir: join(dataDir, 'state') });
  let node: RaftNode;
  try {
    node = await RaftNode.start({ ...raft, dataDir: join(dataDir, 'raft'), stateMachine: raftStateMachineHooks(storage) });
  } catch (error) {
    await storage.close();
    throw error;
  }
  storage.attach(raftReplicationLog(node));
  return {
    storage,
    node,
    close: async () => {
      await node.stop();
      await storage.close();
    },
  };
}
