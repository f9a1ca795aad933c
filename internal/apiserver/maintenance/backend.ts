/**
 * What the maintenance API (`/orch/v1/`, docs/operations.md) asks of the replica it runs on. The
 * API server knows nothing of Raft: internal/replica/maintenance-backend.ts adapts the Raft node
 * and the store to this interface, and handler tests use a fake.
 */
import type { Readable } from 'node:stream';

/** A member's part in the group. */
export type MemberRole = 'voter' | 'learner';

/** One member of the Raft group, as `GET /orch/v1/members` and the membership calls answer it. */
export interface Member {
  readonly name: string;
  /** host:port of its peer transport. */
  readonly peerAddress: string;
  readonly role: MemberRole;
  /** The leader's view of the last entry it knows the member has (only on the leader). */
  readonly matchIndex?: number;
  /** The leader's last index minus `matchIndex` (only on the leader). */
  readonly lag?: number;
}

/** The membership a replica has applied, and the leader it knows of. */
export interface MembersView {
  readonly leader: string | null;
  readonly members: readonly Member[];
}

/** What `GET /orch/v1/status` answers: one replica's view of itself and its group. */
export interface ReplicaStatus {
  readonly name: string;
  /** The orch release (package.json's version). */
  readonly version: string;
  /** The on-disk formats this replica writes. */
  readonly formats: { readonly log: number; readonly state: number; readonly snapshot: number };
  readonly clusterId: string;
  readonly role: 'leader' | 'follower' | 'candidate' | 'learner';
  readonly leader: string | null;
  readonly term: number;
  readonly commitIndex: number;
  readonly appliedIndex: number;
  readonly firstIndex: number;
  readonly lastIndex: number;
  readonly snapshotIndex: number;
  /** The store's current revision. */
  readonly revision: number;
  /** Bytes on disk, write-ahead logs included. */
  readonly dbSizeBytes: { readonly state: number; readonly log: number };
  readonly members: readonly Member[];
}

/** Who this replica is and whom it knows as leader: asked before any leader-only call. */
export interface Leadership {
  readonly self: string;
  readonly leader: string | null;
}

/**
 * A snapshot file (header line, then the database) ready to stream from a temporary copy. The
 * caller reads `stream` at most once and calls `release` exactly once, whether the download
 * finished, failed or was abandoned: it removes the copy.
 */
export interface SnapshotDownload {
  readonly stream: Readable;
  /** Bytes `stream` yields in all (header line included). */
  readonly sizeBytes: number;
  /** A file name for `Content-Disposition` (no directory, no quotes). */
  readonly fileName: string;
  release(): Promise<void>;
}

/** Why the backend refused or abandoned a maintenance call; errors.ts maps each to a Status. */
export type MaintenanceErrorCode =
  | 'NotLeader' // this replica does not lead (now); `leader` names the one it knows
  | 'AlreadyMember' // add: the name (or its address) is a member already
  | 'NotMember' // promote, remove, leader: no member of that name
  | 'NotLearner' // promote: the member is a voter already
  | 'NotVoter' // leader: the target is a learner, which cannot lead
  | 'LearnerBehind' // promote: the learner has not caught up yet
  | 'LastVoter' // remove: the group would have no voter left
  | 'ConfChangePending' // a membership change is still being applied
  | 'Timeout' // leader: the target did not take over in time
  | 'Unavailable'; // the group cannot act now (no quorum, stopping)

/** A refusal of the backend: an operating error with a stable code, never a bug. */
export class MaintenanceError extends Error {
  constructor(
    readonly code: MaintenanceErrorCode,
    message: string,
    /** NotLeader: the leader this replica knows of (null: none). */
    readonly leader?: string | null,
  ) {
    super(message);
    this.name = 'MaintenanceError';
  }
}

/**
 * The maintenance operations of one replica. Leader-only calls (`addMember`, `promoteMember`,
 * `removeMember`, `transferLeadership`) throw MaintenanceError NotLeader when this replica does
 * not lead by the time they act; every refusal is a MaintenanceError.
 */
export interface MaintenanceBackend {
  /** Who this replica is and whom it knows as leader (cheap, synchronous). */
  leadership(): Leadership;
  status(): Promise<ReplicaStatus>;
  members(): MembersView;
  /** Adds a member (a learner unless `learner` is false); resolves with it once applied. */
  addMember(request: { readonly name: string; readonly peerAddress: string; readonly learner: boolean }): Promise<Member>;
  /** Makes a caught-up learner a voter; resolves with it once applied. */
  promoteMember(name: string): Promise<Member>;
  /** Removes a member, live or dead; resolves once applied. */
  removeMember(name: string): Promise<void>;
  /** Hands leadership to the voter `target`; resolves once it leads (at once if it does). */
  transferLeadership(target: string): Promise<void>;
  /** Makes a consistent copy of the store and opens it as a snapshot file. */
  openSnapshot(): Promise<SnapshotDownload>;
}
