import type { ProgressState } from './progress.ts';
import type { ConfState, Index, NodeId, Role, Term } from './types.ts';

/** One follower's replication state as the leader sees it. */
export interface ProgressStatus {
  readonly match: Index;
  readonly next: Index;
  readonly state: ProgressState;
}

/** A snapshot of a node's state for the driver, metrics and tests. */
export interface RaftStatus {
  readonly id: NodeId;
  readonly term: Term;
  readonly vote: NodeId;
  readonly commit: Index;
  readonly applied: Index;
  readonly lead: NodeId;
  readonly role: Role;
  readonly confState: ConfState;
  /** Per member, filled on the leader only (empty elsewhere). */
  readonly progress: Readonly<Record<NodeId, ProgressStatus>>;
  /** The node a leadership transfer is under way to ('' if none). */
  readonly leadTransferee: NodeId;
}
