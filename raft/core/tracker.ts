import { Progress } from './progress.ts';
import { jointCommitted, jointVote } from './quorum.ts';
import type { JointVoters, VoteResult } from './quorum.ts';
import type { ConfState, Index, NodeId } from './types.ts';

/** A membership as the tracker holds it (sets, for quick membership tests). */
export interface TrackerConfig {
  readonly voters: JointVoters;
  readonly learners: ReadonlySet<NodeId>;
  /** Learners that become voters when the joint configuration is left. */
  readonly learnersNext: ReadonlySet<NodeId>;
  readonly autoLeave: boolean;
}

/** Builds a TrackerConfig from a ConfState. */
export function configFromConfState(cs: ConfState): TrackerConfig {
  return {
    voters: { incoming: new Set(cs.voters), outgoing: new Set(cs.votersOutgoing) },
    learners: new Set(cs.learners),
    learnersNext: new Set(cs.learnersNext),
    autoLeave: cs.autoLeave,
  };
}

/** The ConfState of a TrackerConfig, each list sorted so equal configs compare equal. */
export function confStateOf(c: TrackerConfig): ConfState {
  const sorted = (s: ReadonlySet<NodeId>): NodeId[] => [...s].sort();
  return {
    voters: sorted(c.voters.incoming),
    learners: sorted(c.learners),
    votersOutgoing: sorted(c.voters.outgoing),
    learnersNext: sorted(c.learnersNext),
    autoLeave: c.autoLeave,
  };
}

/** Whether a config is joint (C_old,new). */
export function isJoint(c: TrackerConfig): boolean {
  return c.voters.outgoing.size > 0;
}

/** The leader's view of the membership: config, per-node progress, and the votes of an election. */
export class ProgressTracker {
  config: TrackerConfig;
  progress: Map<NodeId, Progress>;
  private votes = new Map<NodeId, boolean>();

  /** A tracker with the given config and progress (every member must have a progress). */
  constructor(
    config: TrackerConfig,
    progress: Map<NodeId, Progress>,
    readonly maxInflightMsgs: number,
  ) {
    this.config = config;
    this.progress = progress;
  }

  /** Builds a tracker from a ConfState, every member starting at `next`. */
  static fromConfState(cs: ConfState, next: Index, maxInflightMsgs: number): ProgressTracker {
    const config = configFromConfState(cs);
    const progress = new Map<NodeId, Progress>();
    for (const id of [...cs.voters, ...cs.votersOutgoing]) progress.set(id, new Progress(next, maxInflightMsgs, false));
    for (const id of [...cs.learners, ...cs.learnersNext]) {
      if (!progress.has(id)) progress.set(id, new Progress(next, maxInflightMsgs, true));
    }
    return new ProgressTracker(config, progress, maxInflightMsgs);
  }

  /** The highest index a (joint) quorum of voters has matched; Infinity with no voters. */
  committed(): number {
    return jointCommitted(this.config.voters, (id) => this.progress.get(id)?.match);
  }

  /** Whether id votes in either half of the configuration. */
  isVoter(id: NodeId): boolean {
    return this.config.voters.incoming.has(id) || this.config.voters.outgoing.has(id);
  }

  /** Every voter of either half, sorted (a deterministic send order). */
  voterIds(): NodeId[] {
    return [...new Set([...this.config.voters.incoming, ...this.config.voters.outgoing])].sort();
  }

  /** Every tracked node (voters and learners), sorted. */
  ids(): NodeId[] {
    return [...this.progress.keys()].sort();
  }

  /** Whether this is a one-voter configuration (that voter decides alone). */
  isSingleton(): boolean {
    return this.config.voters.incoming.size === 1 && this.config.voters.outgoing.size === 0;
  }

  /** Forgets the votes of the last election. */
  resetVotes(): void {
    this.votes = new Map();
  }

  /** Records id's answer, the first one counting. */
  recordVote(id: NodeId, granted: boolean): void {
    if (!this.votes.has(id)) this.votes.set(id, granted);
  }

  /** The election's state after the recorded votes. */
  tallyVotes(): VoteResult {
    return jointVote(this.config.voters, (id) => this.votes.get(id));
  }

  /** Whether a quorum was recently active; `self` always counts as active. */
  quorumActive(self: NodeId): boolean {
    return jointVote(this.config.voters, (id) => id === self || (this.progress.get(id)?.recentActive ?? false)) === 'won';
  }

  /** Whether a (joint) quorum is in `acks`. */
  quorumIn(acks: ReadonlySet<NodeId>): boolean {
    return jointVote(this.config.voters, (id) => (acks.has(id) ? true : undefined)) === 'won';
  }
}
