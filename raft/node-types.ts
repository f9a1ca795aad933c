/** The options and hooks of the Raft driver (raft/node.ts). */
import type { ConfChangeSingle, ConfState, Entry, Index, NodeId, Role, SnapshotMetadata, Term } from './core/index.ts';
import type { TlsMaterial } from './transport.ts';

/** What the driver needs from the replicated state machine (synchronous apply; SQLite). */
export interface StateMachineHooks {
  /**
   * The last log index the state machine applied; 0 for a new one. Read at start, when it is the
   * durable one: the driver re-applies every committed entry after it (the state may commit its
   * applies later than it makes them; the log is cut only behind a snapshot).
   */
  applied(): Index;
  /**
   * Applies committed entries in order, recording the last index with their effects (durable
   * together, though possibly later: see applied). Receives every
   * entry, including the leader's empty no-op and 'confChange' entries (apply them as no-ops).
   */
  apply(entries: readonly Entry[]): void;
  /**
   * Writes a snapshot file (an online backup) — preferably at `suggestedPath`, a fresh name in
   * the node's snapshot directory — and says which applied index it covers. The driver owns
   * the file afterwards (and deletes it once a newer snapshot replaces it).
   */
  snapshot(suggestedPath: string): Promise<{ index: Index; term?: Term; filePath: string }>;
  /** Replaces the state machine by the snapshot in `filePath` (copy it; the file stays the driver's). */
  restore(filePath: string, meta: SnapshotMetadata): void;
  /**
   * The leader's handler of commands forwarded by followers (opaque bytes in and out). A
   * follower's forwards arrive in batches handed over within one turn: propose before the first
   * await, so a whole batch lands in one Ready (one fsync).
   */
  onForward?(data: Uint8Array): Promise<Uint8Array>;
}

/** Options of RaftNode.start. */
export interface RaftNodeOptions {
  readonly id: NodeId;
  readonly dataDir: string;
  /** Every member's peer address (host:port or a URL), this node's included or not. */
  readonly peers: Readonly<Record<NodeId, string>>;
  /** host:port the peer server listens on (port 0: any; see `port`). */
  readonly listen: string;
  readonly tls: TlsMaterial;
  readonly stateMachine: StateMachineHooks;
  /**
   * Start as a new member of an existing group: no founding state is written; membership and
   * log come from the leader once it proposes this node (addLearner/addVoter with its peer
   * address as the change's context). Without it, an empty data directory founds a new group
   * of `peers`.
   */
  readonly join?: boolean;
  /**
   * Peer addresses of members to ask for membership (implies `join`): with an empty log the node
   * asks them, in the background, to add it as a learner (following a follower to the leader),
   * then to promote it once it caught up (raft/join.ts). With a log it is ignored (reported to
   * onJoinProgress), unless this node is still a learner: then it goes on asking to be promoted.
   * This node's own address is `peers[id]` (else `listen`).
   */
  readonly joinSeeds?: readonly string[];
  /** Hears each step of joining via joinSeeds (one line each, for the log). */
  readonly onJoinProgress?: (message: string, fields?: Record<string, unknown>) => void;
  readonly tickMs?: number;
  readonly electionTicks?: number;
  readonly heartbeatTicks?: number;
  /** Take a snapshot (and compact the log) after this many applied entries; 0 disables snapshots. */
  readonly snapshotEveryEntries?: number;
  /** Take a snapshot sooner, after this many bytes of entries applied since the last one. */
  readonly snapshotEveryBytes?: number;
  /** Entries kept behind a snapshot for followers that are only a little behind. */
  readonly snapshotCatchUpEntries?: number;
  /** Leader: data bytes of entries not yet committed past which proposals are refused (default limits.uncommittedEntriesBytesMax). */
  readonly uncommittedEntriesBytesMax?: number;
  /** Called with operating errors the driver cannot hand to a caller (failed background snapshot). */
  readonly onError?: (err: Error) => void;
  /** Hears elections and membership changes as the driver takes them from the core (for the log). */
  readonly onEvent?: (event: RaftEvent) => void;
  /** Receives the durations the driver measures (for histograms). */
  readonly timings?: RaftTimings;
}

/**
 * What the driver tells `onEvent` (synchronously: a listener must not throw or block): this node's
 * role changed as it takes the Ready that says so (an election: it became candidate, leader,
 * follower...), or a membership change was applied (the configuration it leads to).
 */
export type RaftEvent =
  | { readonly type: 'role'; readonly role: Role; readonly previousRole: Role; readonly term: Term; readonly leader: NodeId | null }
  | { readonly type: 'membership'; readonly index: Index; readonly changes: readonly ConfChangeSingle[]; readonly configuration: ConfState }
  /** This node applied its own removal (at `index`) and everything committed after it: it is no member any more. */
  | { readonly type: 'removed'; readonly index: Index; readonly clusterId: string }
  /** The group refused this node's join for good (its name is another member's, or its certificate is not its name's). */
  | { readonly type: 'join-refused'; readonly reason: string };

/**
 * Durations the driver measures, in seconds, one call per observation: where a write's time goes
 * (as etcd's WAL fsync and backend commit histograms tell its operators).
 */
export interface RaftTimings {
  /** One fdatasync of the log, from its start until the driver goes on after it. */
  logSynced(seconds: number): void;
  /** One of this node's own proposals, from propose() until the driver takes the Ready that commits it (a leader's). */
  committed(seconds: number): void;
  /** One Ready's committed entries applied to the state machine. */
  applied(seconds: number): void;
}

/** Gauges for metrics. */
export interface RaftNodeMetrics {
  readonly term: number;
  readonly commitIndex: number;
  readonly appliedIndex: number;
  readonly isLeader: boolean;
  readonly lastIndex: number;
  readonly snapshotIndex: number;
  /** Ready transactions persisted, and entries they carried: entries/transactions is the group-commit factor. */
  readonly persistTransactions: number;
  readonly persistedEntries: number;
  /** ForwardBatch calls this node sent to leaders, and the commands they carried: commands/batches is the forward coalescing factor. */
  readonly forwardBatches: number;
  readonly forwardedCommands: number;
  /** Commands this node relayed to leaders on the Raft stream (proposeViaLeader), counting each re-relay to a new leader. */
  readonly relayedProposals: number;
  /** Proposals relayed to this node that it dropped (not the leader, or past its cap on uncommitted bytes): their proposers relay them again. */
  readonly droppedRelayedProposals: number;
}
