import type { Index, NodeId } from './types.ts';

/** The outcome of a vote: decided either way, or still open. */
export type VoteResult = 'won' | 'lost' | 'pending';

/**
 * The highest index acknowledged by a majority of `voters`, given each voter's acked index
 * (absent = 0). An empty majority commits everything (Infinity), so that it never constrains
 * a joint configuration.
 */
export function majorityCommitted(voters: ReadonlySet<NodeId>, acked: (id: NodeId) => Index | undefined): number {
  if (voters.size === 0) return Infinity;
  const idx: number[] = [];
  for (const id of voters) idx.push(acked(id) ?? 0);
  idx.sort((a, b) => b - a);
  return idx[Math.floor(idx.length / 2)]!;
}

/** The result of a vote of `voters`, given each voter's answer (absent = not answered yet). Empty wins. */
export function majorityVote(voters: ReadonlySet<NodeId>, votes: (id: NodeId) => boolean | undefined): VoteResult {
  if (voters.size === 0) return 'won';
  let yes = 0;
  let missing = 0;
  for (const id of voters) {
    const v = votes(id);
    if (v === undefined) missing++;
    else if (v) yes++;
  }
  const q = Math.floor(voters.size / 2) + 1;
  if (yes >= q) return 'won';
  if (yes + missing >= q) return 'pending';
  return 'lost';
}

/** A configuration of one (normal) or two (joint: incoming and outgoing) majorities. */
export interface JointVoters {
  readonly incoming: ReadonlySet<NodeId>;
  readonly outgoing: ReadonlySet<NodeId>;
}

/** The committed index of a joint configuration: the smaller of both majorities' indexes. */
export function jointCommitted(v: JointVoters, acked: (id: NodeId) => Index | undefined): number {
  return Math.min(majorityCommitted(v.incoming, acked), majorityCommitted(v.outgoing, acked));
}

/** A joint vote needs both majorities: lost if either lost, won if both won. */
export function jointVote(v: JointVoters, votes: (id: NodeId) => boolean | undefined): VoteResult {
  const a = majorityVote(v.incoming, votes);
  const b = majorityVote(v.outgoing, votes);
  if (a === b) return a;
  if (a === 'lost' || b === 'lost') return 'lost';
  return 'pending';
}
