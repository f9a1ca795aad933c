import type { LogStorage } from './log-storage.ts';
import type { Index, NodeId, PlantedBugs } from './types.ts';

/** How one Raft node is set up. Everything nondeterministic (randomness) comes in here. */
export interface RaftConfig {
  id: NodeId;
  /** Base election timeout; the randomized timeout is in [electionTicks, 2*electionTicks). */
  electionTicks: number;
  /** Ticks between leader heartbeats; must be < electionTicks. */
  heartbeatTicks: number;
  storage: LogStorage;
  /** The last index the state machine applied before this start (0 if none). */
  applied: Index;
  /** Cap on entry data bytes in one app message (at least one entry is always sent). */
  maxSizePerMsgBytes: number;
  /** Cap on app messages in flight per follower in replicate mode (>= 1). */
  maxInflightMsgs: number;
  /** Cap on committed entry bytes in one Ready (at least one entry is always handed out). */
  maxCommittedSizePerReadyBytes?: number;
  /**
   * Leader: cap on the data bytes of the entries it appended and has not yet handed out committed
   * (etcd's MaxUncommittedEntriesSize); a proposal beyond it is refused with ProposalDropped.
   * Default: no cap. An empty entry always passes, and so does any proposal while none is pending.
   */
  maxUncommittedEntriesBytes?: number;
  preVote: boolean;
  checkQuorum: boolean;
  /** Seeded, in [0, 1): the only source of randomness of the core. */
  random: () => number;
  /** Deliberately broken behaviours; tests only. */
  bugs?: PlantedBugs;
}

/** Asserts that a config is usable; throws an assert-style Error naming the bad field. */
export function validateConfig(c: RaftConfig): void {
  const fail = (why: string): never => {
    throw new Error(`assert: bad raft config: ${why}`);
  };
  if (c.id === '') fail('id is empty');
  if (!Number.isSafeInteger(c.heartbeatTicks) || c.heartbeatTicks <= 0) fail('heartbeatTicks must be > 0');
  if (!Number.isSafeInteger(c.electionTicks) || c.electionTicks <= c.heartbeatTicks) {
    fail('electionTicks must be > heartbeatTicks');
  }
  if (!Number.isSafeInteger(c.maxInflightMsgs) || c.maxInflightMsgs < 1) fail('maxInflightMsgs must be >= 1');
  if (!(c.maxSizePerMsgBytes >= 0)) fail('maxSizePerMsgBytes must be >= 0');
  if (c.maxUncommittedEntriesBytes !== undefined && !(c.maxUncommittedEntriesBytes > 0)) fail('maxUncommittedEntriesBytes must be > 0');
}
