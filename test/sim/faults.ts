/**
 * The per-seed fault plan: how hostile the network is, how often nodes crash, partition,
 * propose, read, transfer leadership, change membership and compact. A seed picks one profile
 * (each aims at a class of bugs) and jitters its rates, so the seeds together cover them all.
 */
import type { NetworkFaults } from './network.ts';
import type { Rng } from './rng.ts';
import type { NodeRaftSettings } from './sim-node.ts';

/** Every rate of the fault schedule; probabilities are per step unless noted. */
export interface FaultPlan {
  readonly profile: ProfileName;
  readonly raft: NodeRaftSettings;
  readonly network: NetworkFaults;
  readonly crash: number;
  /** Probability that a crash picks the leader rather than any node. */
  readonly crashLeaderBias: number;
  /** Per step, for a leader that has not committed an entry of its own term yet (the Figure 8 window). */
  readonly crashFreshLeader: number;
  /** Restart a down node whenever fewer than a majority of the initial voters are up. */
  readonly keepQuorumUp: boolean;
  /** Per down node and step. */
  readonly restart: number;
  /** Most nodes down at once. */
  readonly downMax: number;
  /** Per Ready with messages: die after persisting, before sending. */
  readonly crashAfterPersist: number;
  /** Per Ready of a leader with messages: die after persisting (its appends and commit never leave). */
  readonly leaderCrashAfterPersist: number;
  /** Per Ready that grants a vote: die right after sending it. */
  readonly crashAfterVote: number;
  readonly partition: number;
  readonly heal: number;
  readonly propose: number;
  readonly proposeAtLeaderBias: number;
  readonly read: number;
  readonly transfer: number;
  readonly confChange: number;
  /** Per node and step. */
  readonly compact: number;
  /** Per step: one live node is told its leader is gone, rightly or not (scheduleForgetLeader). */
  readonly forgetLeader: number;
}

/** The profiles: `churn` is Figure 8 (leaders die with half-replicated entries), `elections` is vote-crash storms. */
export type ProfileName = 'mixed' | 'churn' | 'elections' | 'partitions';

const profiles: readonly ProfileName[] = ['mixed', 'churn', 'elections', 'partitions'];

/** Draws a plan for a cluster of `voters` from `rng` (the seed's plan stream). */
export function drawFaultPlan(rng: Rng, voters: number): FaultPlan {
  const profile = rng.pick(profiles);
  const raft: NodeRaftSettings = {
    electionTicks: 10,
    heartbeatTicks: 1,
    maxSizePerMsgBytes: rng.pick([1, 8, 64, 1 << 20]),
    maxInflightMsgs: rng.pick([1, 4, 64]),
    maxCommittedSizePerReadyBytes: rng.pick([1, 1 << 20]),
    preVote: rng.chance(0.5),
    checkQuorum: rng.chance(0.5),
  };
  // From a stream of its own (the other draws stay what they were): the leader's cap on uncommitted
  // bytes, none or some tens of proposals' worth (payloads are a few bytes), so leaders drop proposals.
  const cap = rng.derive('uncommitted-cap').pick([0, 64, 256]);
  if (cap > 0) raft.maxUncommittedEntriesBytes = cap;
  const base = basePlan(rng, voters, raft);
  switch (profile) {
    case 'mixed':
      return { ...base, profile };
    case 'churn':
      // Figure 8: leaders live a few steps, quorum is kept up by restarts, proposals keep coming.
      return {
        ...base,
        profile,
        raft: { ...raft, maxSizePerMsgBytes: 1, preVote: false, checkQuorum: false },
        network: { ...base.network, dropProbability: rng.pick([0, 0.05]) },
        crash: 0.2,
        crashLeaderBias: 1,
        downMax: voters,
        keepQuorumUp: true,
        leaderCrashAfterPersist: 0.3,
        crashFreshLeader: 0,
        restart: 0.2,
        propose: 0.8,
        proposeAtLeaderBias: 1,
        partition: 0,
        // Elections come from the crashes alone, as Figure 8 needs them.
        forgetLeader: 0,
      };
    case 'elections':
      return {
        ...base,
        profile,
        raft: { ...raft, preVote: false, checkQuorum: false },
        network: { ...base.network, delayMaxSteps: rng.between(2, 5) },
        crash: 0.03,
        crashLeaderBias: 0.7,
        restart: 0.3,
        crashAfterVote: 0.3,
      };
    case 'partitions':
      return { ...base, profile, partition: 0.03, heal: 0.02, crash: 0.005, downMax: 1 };
  }
}

function basePlan(rng: Rng, voters: number, raft: NodeRaftSettings): Omit<FaultPlan, 'profile'> {
  return {
    raft,
    network: {
      delayMaxSteps: rng.between(1, 3),
      dropProbability: rng.pick([0, 0.01, 0.05, 0.15]),
      duplicateProbability: rng.pick([0, 0.01, 0.05]),
      longDelayProbability: rng.pick([0, 0.02]),
      longDelaySteps: 20,
    },
    crash: rng.pick([0.005, 0.01, 0.02]),
    crashLeaderBias: 0.5,
    crashFreshLeader: rng.pick([0, 0.02]),
    keepQuorumUp: false,
    restart: rng.pick([0.02, 0.05, 0.1]),
    downMax: Math.floor(voters / 2) + 1,
    crashAfterPersist: rng.pick([0, 0.002, 0.01]),
    leaderCrashAfterPersist: rng.pick([0, 0.01]),
    crashAfterVote: rng.pick([0, 0.05]),
    partition: rng.pick([0, 0.005, 0.01]),
    heal: rng.pick([0.02, 0.05]),
    propose: rng.pick([0.1, 0.3, 0.6]),
    proposeAtLeaderBias: 0.5,
    read: rng.pick([0.02, 0.1]),
    transfer: rng.pick([0, 0.005, 0.01]),
    confChange: rng.pick([0, 0.01, 0.02]),
    compact: rng.pick([0.005, 0.02]),
    // From a stream of its own: the plan's other draws stay what they were before it existed.
    forgetLeader: rng.derive('forget-leader').pick([0, 0.01, 0.05]),
  };
}

