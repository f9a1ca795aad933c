/**
 * The wire form of Raft messages (proto/raft.proto); raft-service.ts loads the gRPC service.
 * Conversion is explicit both ways so nothing of protobuf leaks into the driver.
 */
import { index, term } from './core/types.ts';
import type { ConfState, Entry, Message, MessageType, SnapshotMetadata } from './core/types.ts';
import type { RaftNodeErrorCode } from './errors.ts';
import type { ForwardItemResult } from './forward-batcher.ts';

/**
 * Protobuf JSON-ish shapes (longs as numbers), as @grpc/proto-loader produces them and as
 * batch-codec.ts decodes Raft.Stream's batches.
 */
export interface WireEntry {
  term: number;
  index: number;
  /** An EntryType: its number as encoded here and decoded by batch-codec.ts, its name as proto-loader decodes it. */
  type: number | 'ENTRY_TYPE_NORMAL' | 'ENTRY_TYPE_CONF_CHANGE';
  data: Uint8Array;
}
/** The wire form of a ConfState. */
export interface WireConfState {
  voters: string[];
  learners: string[];
  votersOutgoing: string[];
  learnersNext: string[];
  autoLeave: boolean;
}
/** The wire form of SnapshotMetadata. */
export interface WireSnapshotMetadata {
  index: number;
  term: number;
  confState: WireConfState | null;
}
/** The wire form of a Message. */
export interface WireMessage {
  type: string;
  from: string;
  to: string;
  term: number;
  logTerm: number;
  index: number;
  entries: WireEntry[];
  commit: number;
  reject: boolean;
  rejectHint: number;
  rejectHintTerm: number;
  snapshot: WireSnapshotMetadata | null;
  context: Uint8Array;
  leaderDurable: number;
}
/** One batch on a peer stream. */
export interface WireBatch {
  messages: WireMessage[];
}
/** One chunk of a snapshot transfer. */
export interface WireSnapshotChunk {
  message: WireMessage | null;
  data: Uint8Array;
  last: boolean;
}

/** The commands of one ForwardBatch call. */
export interface WireForwardBatchRequest {
  commands: Uint8Array[];
}
/** The answer to one command of a ForwardBatch call (errorCode empty: success). */
export interface WireForwardResult {
  position: number;
  data: Uint8Array;
  errorCode: string;
  errorMessage: string;
}

const wireTypes = new Set<string>([
  'prop', 'app', 'appResp', 'vote', 'voteResp', 'preVote', 'preVoteResp', 'snap', 'heartbeat', 'heartbeatResp',
  'transferLeader', 'timeoutNow', 'readIndex', 'readIndexResp',
]);

/** EntryType's values in proto/raft.proto. */
const entryTypeNormal = 0;
const entryTypeConfChange = 1;

/** Converts an entry to its wire form. */
export function entryToWire(e: Entry): WireEntry {
  return { term: e.term, index: e.index, type: e.type === 'confChange' ? entryTypeConfChange : entryTypeNormal, data: e.data };
}

function entryFromWire(e: WireEntry): Entry {
  const confChange = e.type === entryTypeConfChange || e.type === 'ENTRY_TYPE_CONF_CHANGE';
  return { term: term(Number(e.term)), index: index(Number(e.index)), type: confChange ? 'confChange' : 'normal', data: bytes(e.data) };
}

function confToWire(c: ConfState): WireConfState {
  return { voters: [...c.voters], learners: [...c.learners], votersOutgoing: [...c.votersOutgoing], learnersNext: [...c.learnersNext], autoLeave: c.autoLeave };
}

function confFromWire(c: WireConfState | null): ConfState {
  return {
    voters: [...(c?.voters ?? [])],
    learners: [...(c?.learners ?? [])],
    votersOutgoing: [...(c?.votersOutgoing ?? [])],
    learnersNext: [...(c?.learnersNext ?? [])],
    autoLeave: c?.autoLeave ?? false,
  };
}

/**
 * A decoded bytes field as a plain Uint8Array. protobufjs leaves an absent one (its encoder skips
 * an empty one) as the type's default on the prototype, an empty Array, which better-sqlite3 would
 * bind as a list of parameters.
 */
export function bytes(b: Uint8Array | readonly number[] | null | undefined): Uint8Array {
  if (!b) return new Uint8Array(0);
  if (!(b instanceof Uint8Array)) return Uint8Array.from(b);
  return b instanceof Buffer ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : b;
}

/** Converts a message to its wire form; a snapshot's data is left out (it travels as a file). */
export function messageToWire(m: Message): WireMessage {
  const meta: SnapshotMetadata | null = m.snapshot ? m.snapshot.metadata : null;
  return {
    type: m.type, from: m.from, to: m.to, term: m.term, logTerm: m.logTerm, index: m.index,
    entries: m.entries.map(entryToWire), commit: m.commit, reject: m.reject, rejectHint: m.rejectHint,
    rejectHintTerm: m.rejectHintTerm,
    snapshot: meta ? { index: meta.index, term: meta.term, confState: confToWire(meta.confState) } : null,
    context: m.context,
    leaderDurable: m.leaderDurable,
  };
}

/**
 * Converts a wire message back; `snapshotData` becomes the snapshot's data (the local file
 * path, for "snap"). Throws an Error for a type that may not come from the network.
 */
export function messageFromWire(w: WireMessage, snapshotData: Uint8Array = new Uint8Array(0)): Message {
  if (!wireTypes.has(w.type)) throw new Error(`bad message type ${JSON.stringify(w.type)} from the network`);
  const s = w.snapshot;
  return {
    type: w.type as MessageType, from: w.from, to: w.to, term: term(Number(w.term)), logTerm: term(Number(w.logTerm)),
    index: index(Number(w.index)), entries: (w.entries ?? []).map(entryFromWire), commit: index(Number(w.commit)),
    reject: w.reject, rejectHint: index(Number(w.rejectHint)), rejectHintTerm: term(Number(w.rejectHintTerm)),
    snapshot: s ? { metadata: { index: index(Number(s.index)), term: term(Number(s.term)), confState: confFromWire(s.confState) }, data: snapshotData } : null,
    context: bytes(w.context),
    leaderDurable: index(Number(w.leaderDurable)),
  };
}

/** The entry data bytes a message carries (for batching limits). */
export function messageBytes(m: Message): number {
  let n = 64 + m.context.byteLength;
  for (const e of m.entries) n += 24 + e.data.byteLength;
  return n;
}

// Every code, so a code from the network is checked against the full list (and the list stays complete).
const errorCodes: Record<RaftNodeErrorCode, true> = {
  NotLeader: true, ProposalDropped: true, ProposalOverwritten: true, OutcomeUnknown: true, ConfChangePending: true,
  QueueFull: true, TooLarge: true, Timeout: true, Unavailable: true, Stopped: true, Remote: true,
  AlreadyMember: true, NotMember: true, NotLearner: true, LearnerBehind: true, LastVoter: true, PermissionDenied: true, Removed: true,
};

/** A RaftNodeError code from the network, or Remote when this build does not know it. */
export function errorCodeFromWire(code: string): RaftNodeErrorCode {
  return Object.hasOwn(errorCodes, code) ? (code as RaftNodeErrorCode) : 'Remote';
}

/** Converts one command's answer to its wire form. */
export function forwardResultToWire(position: number, r: ForwardItemResult): WireForwardResult {
  return r.ok
    ? { position, data: r.data, errorCode: '', errorMessage: '' }
    : { position, data: new Uint8Array(0), errorCode: r.code, errorMessage: r.message };
}

/** Converts a command's answer back; an error code this build does not know becomes Remote. */
export function forwardResultFromWire(w: WireForwardResult): { position: number; result: ForwardItemResult } {
  const position = Number(w.position);
  if (w.errorCode === '') return { position, result: { ok: true, data: bytes(w.data) } };
  const code = errorCodeFromWire(w.errorCode);
  return { position, result: { ok: false, code, message: w.errorMessage } };
}

/** What a node asks of the group for itself: to be added as a learner, or promoted to voter. */
export type MembershipRequest =
  | { readonly kind: 'join'; readonly name: string; readonly peerAddress: string }
  | { readonly kind: 'promote'; readonly name: string };

/** The answer to a MembershipRequest (proto MembershipAnswer; see there). */
export interface MembershipAnswer {
  readonly done: boolean;
  readonly clusterId: string;
  /** '' when the answering node knows no leader. */
  readonly leaderName: string;
  readonly leaderAddress: string;
  readonly peerAddresses: Readonly<Record<string, string>>;
}

/** The wire form of a MembershipAnswer as proto-loader produces it (a map arrives as an object). */
export interface WireMembershipAnswer {
  done: boolean;
  clusterId: string;
  leaderName: string;
  leaderAddress: string;
  peerAddresses: Record<string, string> | null;
}

/** Converts a membership answer back from the wire. */
export function membershipAnswerFromWire(w: WireMembershipAnswer): MembershipAnswer {
  return { done: w.done, clusterId: w.clusterId, leaderName: w.leaderName, leaderAddress: w.leaderAddress, peerAddresses: { ...(w.peerAddresses ?? {}) } };
}
