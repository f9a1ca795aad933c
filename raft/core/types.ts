/**
 * The vocabulary of the Raft core: terms, indexes, entries, messages, the Ready batch.
 * Everything here is plain data so that the driver can persist and transmit it and the
 * simulator can copy and compare it.
 */

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A Raft term. Monotonic per node; 0 means "none yet". */
export type Term = Brand<number, 'Term'>;
/** A position in the replicated log. Index 0 is the empty prefix; the first entry is 1. */
export type Index = Brand<number, 'Index'>;
/** A node's identity in the cluster configuration. Never the empty string. */
export type NodeId = string;

/** Builds a Term from a number, asserting it is a non-negative safe integer. */
export function term(n: number): Term {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`assert: bad term ${n}`);
  return n as Term;
}

/** Builds an Index from a number, asserting it is a non-negative safe integer. */
export function index(n: number): Index {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`assert: bad index ${n}`);
  return n as Index;
}

/** What an entry carries: an application command, or a configuration change. */
export type EntryType = 'normal' | 'confChange';

/** One log entry. `data` is opaque to the core (empty for the leader's no-op entry). */
export interface Entry {
  readonly term: Term;
  readonly index: Index;
  readonly type: EntryType;
  readonly data: Uint8Array;
}

/** The state a node must make durable before it sends the messages of the same Ready. */
export interface HardState {
  readonly term: Term;
  /** The candidate voted for in `term`, or '' for none. */
  readonly vote: NodeId;
  readonly commit: Index;
}

/**
 * The cluster membership. `votersOutgoing` is non-empty only during a joint configuration
 * (C_old,new): decisions then need a majority of both `voters` and `votersOutgoing`.
 */
export interface ConfState {
  readonly voters: readonly NodeId[];
  readonly learners: readonly NodeId[];
  readonly votersOutgoing: readonly NodeId[];
  /** Learners that become voters when the joint configuration is left. */
  readonly learnersNext: readonly NodeId[];
  /** Leave the joint configuration automatically once it is committed. */
  readonly autoLeave: boolean;
}

/** One change of membership. */
export type ConfChangeType = 'addVoter' | 'addLearner' | 'removeNode';

/** How a ConfChange moves between configurations (see ConfChange.transition). */
export type ConfChangeTransition = 'auto' | 'jointImplicit' | 'jointExplicit';

/** A single change; several form a joint change (`ConfChange.changes.length > 1` enters joint consensus). */
export interface ConfChangeSingle {
  readonly type: ConfChangeType;
  readonly nodeId: NodeId;
}

/**
 * A membership change proposal. An empty `changes` list is the "leave joint" command.
 * One simple change (one voter added or removed) is applied directly; anything else goes
 * through a joint configuration.
 */
export interface ConfChange {
  readonly changes: readonly ConfChangeSingle[];
  /**
   * How to apply the changes (additive; absent means 'auto'): 'auto' applies one simple change
   * directly and enters a joint configuration that is left automatically otherwise;
   * 'jointImplicit' always enters joint and leaves automatically; 'jointExplicit' enters joint
   * and waits for an explicit leave (a ConfChange with no changes).
   */
  readonly transition?: ConfChangeTransition;
  /** Opaque application context carried with the change (e.g. a peer URL). */
  readonly context: Uint8Array;
}

/** The metadata of a snapshot: the last index and term it covers, and the membership then. */
export interface SnapshotMetadata {
  readonly index: Index;
  readonly term: Term;
  readonly confState: ConfState;
}

/** A state-machine snapshot. `data` is opaque to the core. */
export interface Snapshot {
  readonly metadata: SnapshotMetadata;
  readonly data: Uint8Array;
}

/** Every message the core sends or accepts. Local-only types are never sent on the wire. */
export type MessageType =
  | 'hup' // local: start an election now
  | 'beat' // local: the leader should send heartbeats now
  | 'prop' // a proposal (local, or forwarded by a follower to the leader)
  | 'app'
  | 'appResp'
  | 'vote'
  | 'voteResp'
  | 'preVote'
  | 'preVoteResp'
  | 'snap'
  | 'heartbeat'
  | 'heartbeatResp'
  | 'unreachable' // local: the transport could not reach `from`
  | 'snapStatus' // local: a snapshot to `from` finished (`reject` = failed)
  | 'checkQuorum' // local: the leader checks it heard from a quorum
  | 'forgetLeader' // local: a follower's failure detector says its leader is gone
  | 'transferLeader' // local or forwarded: move leadership to `from`... see transferee
  | 'timeoutNow'
  | 'readIndex'
  | 'readIndexResp';

/** A Raft message. Fields unused by a type hold their zero values. */
export interface Message {
  readonly type: MessageType;
  readonly from: NodeId;
  readonly to: NodeId;
  readonly term: Term;
  /**
   * For app: term of the entry at `index` (the entry before `entries`). For votes: last log term.
   * For vote answers: the term of the answerer's entry at `commit` (its commit index).
   */
  readonly logTerm: Term;
  /** For app: the index before `entries`. For votes: last log index. For appResp: the matched or rejected index. */
  readonly index: Index;
  readonly entries: readonly Entry[];
  readonly commit: Index;
  readonly reject: boolean;
  /** For a rejected appResp: the follower's hint for fast backtracking. */
  readonly rejectHint: Index;
  /** For a rejected appResp: the term of the follower's entry at `rejectHint` (0 if none). */
  readonly rejectHintTerm: Term;
  readonly snapshot: Snapshot | null;
  /**
   * For app: an index through which the leader's log is durable, told only when the leader and the
   * receiver are a quorum of the leader's membership and no membership change is pending (0: not
   * told). A follower that has made its own log durable through an entry of the leader's term at or
   * below it knows that entry is committed, without waiting for the leader's commit (see
   * Raft.inferCommit).
   */
  readonly leaderDurable: Index;
  /**
   * For readIndex / heartbeat: the read request context echoed back. For app: noAnswerContext on a
   * commit-only append that asks for no answer. For appResp: infersCommitsContext from a follower
   * that commits on `leaderDurable` by itself. For transferLeader: unused.
   */
  readonly context: Uint8Array;
}

/** A read that may be served once the node's applied index reaches `index`. */
export interface ReadState {
  readonly index: Index;
  /** The context the caller gave to `readIndex()`, echoed back unchanged. */
  readonly requestContext: Uint8Array;
}

/** A node's role. */
export type Role = 'follower' | 'preCandidate' | 'candidate' | 'leader';

/** Volatile state that is useful to the driver but need not be persisted. */
export interface SoftState {
  readonly lead: NodeId; // '' when unknown
  readonly role: Role;
}

/**
 * What the driver must do next, in this order: persist `hardState`, `entries` and
 * `snapshot` (fsync when `mustSync`), then send `messages`, then apply `committedEntries`
 * and answer `readStates` once applied, then call `advance()`.
 */
export interface Ready {
  readonly softState: SoftState | null;
  readonly hardState: HardState | null;
  readonly entries: readonly Entry[];
  readonly snapshot: Snapshot | null;
  readonly committedEntries: readonly Entry[];
  readonly messages: readonly Message[];
  readonly readStates: readonly ReadState[];
  readonly mustSync: boolean;
}

/** Why a proposal or request was refused by the core. */
export type RaftErrorCode =
  | 'ProposalDropped' // no leader known, or leadership transfer in progress
  | 'NotLeader'
  | 'ConfChangePending'
  | 'Compacted' // the requested index is below the first retained index
  | 'Unavailable' // the requested entries are not (yet) in storage
  | 'SnapshotOutOfDate'
  | 'SnapshotTemporarilyUnavailable';

/** An operating error of the core, carrying a stable code. Bugs are asserts, not RaftErrors. */
export class RaftError extends Error {
  constructor(
    readonly code: RaftErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RaftError';
  }
}

/**
 * Deliberately broken behaviours for the simulator to catch. Never set outside tests.
 * - `commitPriorTermByCounting`: the leader commits entries of earlier terms by counting replicas.
 * - `voteWithoutLogCheck`: votes are granted without the up-to-date-log check.
 * - `voteNotPersisted`: the vote is not part of the hard state handed to the driver for persistence.
 */
export interface PlantedBugs {
  readonly commitPriorTermByCounting?: boolean;
  readonly voteWithoutLogCheck?: boolean;
  readonly voteNotPersisted?: boolean;
}
