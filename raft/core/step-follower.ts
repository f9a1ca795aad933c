import { asksNoAnswer, infersCommitsContext } from './message.ts';
import type { Raft } from './raft.ts';
import { RaftError, index } from './types.ts';
import type { Message, NodeId } from './types.ts';

/** The follower's step function (etcd's stepFollower). */
export function stepFollower(r: Raft, m: Message): void {
  switch (m.type) {
    case 'prop':
      if (r.lead === '') throw new RaftError('ProposalDropped', 'no leader known');
      r.msgs.push({ ...m, to: r.lead });
      return;
    case 'app':
    case 'heartbeat':
    case 'snap':
      // Raft §5.2: a follower remains one while it hears from a valid leader.
      r.electionElapsed = 0;
      r.lead = m.from;
      handleLeaderMessage(r, m);
      return;
    case 'transferLeader':
    case 'readIndex':
      if (r.lead !== '') r.msgs.push({ ...m, to: r.lead });
      return;
    case 'timeoutNow':
      // Leadership transfer: campaign at once, skipping pre-vote and the voters' leader lease.
      r.hup('transfer');
      return;
    case 'readIndexResp':
      r.readStates.push({ index: m.index, requestContext: m.context });
      return;
    case 'forgetLeader':
      // Something outside Raft (the leader's connection closed) says the leader is gone. Forgotten,
      // it no longer holds this node's lease: pre-votes are granted at once. The followers that saw
      // it go campaign in turns of their rank (forgetCampaignDelayTicks) rather than at random, so
      // that two of them rarely run at once and split the vote. Only liveness changes: votes still
      // check logs, a leader still alive keeps its other followers' leases (so a lone mistaken
      // detector deposes nobody), and its next heartbeat restores it here (etcd's MsgForgetLeader).
      r.electionElapsed = Math.max(r.electionElapsed, r.randomizedElectionTimeout - forgetCampaignDelayTicks(r, r.lead));
      r.lead = '';
      return;
    default:
  }
}

/**
 * Ticks a follower waits, once it forgot leader `gone`, before it campaigns: one for the first of
 * the other voters in id order, a quarter of an election timeout more for each one before it.
 * Every follower that saw the leader go computes the same order, so the first pre-vote reaches the
 * others while they still wait, and they grant it (a stale first one is refused on its log and the
 * next one runs in its turn). At random, as before, two of them ran within one round trip of each
 * other in about one failover in ten, both won their pre-votes, split the vote, and the cluster
 * waited a whole randomized election timeout more (seen at 1.8-2.3 s in the bench's failover).
 */
export function forgetCampaignDelayTicks(r: Raft, gone: string): number {
  const others = r.trk.voterIds().filter((id) => id !== gone).sort();
  const rank = others.indexOf(r.id);
  return 1 + (rank === -1 ? others.length : rank) * Math.max(1, Math.ceil(r.electionTimeout / 4));
}

/** The (pre-)candidate's step function (etcd's stepCandidate). */
export function stepCandidate(r: Raft, m: Message): void {
  const myVoteResp = r.role === 'preCandidate' ? 'preVoteResp' : 'voteResp';
  switch (m.type) {
    case 'prop':
      throw new RaftError('ProposalDropped', 'no leader known (election in progress)');
    case 'app':
    case 'heartbeat':
    case 'snap':
      // Raft §5.2: a candidate that hears from a leader of its term returns to follower.
      r.becomeFollower(m.term, m.from);
      handleLeaderMessage(r, m);
      return;
    default:
      if (m.type === myVoteResp) r.poll(m.from, !m.reject);
  }
}

function handleLeaderMessage(r: Raft, m: Message): void {
  if (m.type === 'app') handleAppend(r, m);
  else if (m.type === 'heartbeat') handleHeartbeat(r, m);
  else handleSnapshot(r, m);
}

function handleAppend(r: Raft, m: Message): void {
  // Only this term's leader gets here (Raft.step answers or drops other terms): what it tells holds.
  if (m.leaderDurable > r.leaderDurable) r.leaderDurable = m.leaderDurable;
  r.inferCommit();
  if (m.index < r.log.committed) {
    answerAppend(r, m.from, { index: r.log.committed });
    return;
  }
  const lastNew = r.log.maybeAppend(m.index, m.logTerm, m.commit, m.entries);
  if (lastNew !== null) {
    // A commit-only append the leader wants no answer to (it holds our ack of m.index already).
    if (!asksNoAnswer(m)) answerAppend(r, m.from, { index: lastNew });
    return;
  }
  // Find the last index whose term is <= the leader's term at m.index: entries above it
  // cannot match, so the leader may skip them all in one round trip.
  const hint = index(Math.min(m.index, r.log.lastIndex()));
  const [hintIndex, hintTerm] = r.log.findConflictByTerm(hint, m.logTerm);
  answerAppend(r, m.from, { index: m.index, reject: true, rejectHint: hintIndex, rejectHintTerm: hintTerm });
}

function handleHeartbeat(r: Raft, m: Message): void {
  r.log.commitTo(m.commit);
  r.send({ type: 'heartbeatResp', to: m.from, context: m.context });
}

function handleSnapshot(r: Raft, m: Message): void {
  if (m.snapshot === null) throw new Error('assert: snap message without snapshot');
  if (r.restore(m.snapshot)) answerAppend(r, m.from, { index: r.log.lastIndex() });
  else answerAppend(r, m.from, { index: r.log.committed });
}

/** Answers the leader's append (or snapshot), saying that this node infers commits (Raft.inferCommit). */
function answerAppend(r: Raft, to: NodeId, fields: Pick<Partial<Message>, 'index' | 'reject' | 'rejectHint' | 'rejectHintTerm'>): void {
  r.send({ type: 'appResp', to, ...fields, context: infersCommitsContext });
}
