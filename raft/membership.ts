/**
 * The group's membership as the driver shows and changes it: the members with their roles and
 * peer addresses (and, on the leader, how far each is behind), the checks a change must pass
 * before it is proposed, and the answer to a node asking to join or be promoted (Join/Promote).
 */
import type { ConfState, Index, NodeId, ProgressStatus } from './core/index.ts';
import { RaftNodeError } from './errors.ts';
import { learnerPromotionLagEntriesMax } from './limits.ts';
import type { MembershipAnswer, MembershipRequest } from './wire.ts';

/** One member of the group. */
export interface MemberInfo {
  readonly id: NodeId;
  /** The address other members reach its peer server at ('' when this node never learnt it). */
  readonly peerAddress: string;
  readonly role: 'voter' | 'learner';
  /** The leader's match index of the member (only when this node leads). */
  readonly matchIndex?: number;
  /** The leader's last index minus matchIndex (only when this node leads). */
  readonly lag?: number;
}

/** The leader's view of replication, for matchIndex and lag. */
export interface LeaderView {
  readonly progress: Readonly<Record<NodeId, ProgressStatus>>;
  readonly lastIndex: Index;
}

/** The members of `conf` in id order, voters and learners (a joint configuration's outgoing voters too). */
export function membersOf(conf: ConfState, addressOf: (id: NodeId) => string, leader: LeaderView | null): MemberInfo[] {
  const roles = new Map<NodeId, 'voter' | 'learner'>();
  for (const id of [...conf.learners, ...conf.learnersNext]) roles.set(id, 'learner');
  for (const id of [...conf.votersOutgoing, ...conf.voters]) roles.set(id, 'voter');
  return [...roles.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, role]) => {
    const member = { id, peerAddress: addressOf(id), role };
    const pr = leader?.progress[id];
    if (!leader || !pr) return member;
    return { ...member, matchIndex: pr.match, lag: Math.max(0, leader.lastIndex - pr.match) };
  });
}

/** The member `id` of `members`, or NotMember. */
export function memberNamed(members: readonly MemberInfo[], id: NodeId): MemberInfo {
  const member = members.find((m) => m.id === id);
  if (!member) throw new RaftNodeError('NotMember', `${id} is not a member`);
  return member;
}

/**
 * Refuses (LearnerBehind) to promote a learner that acknowledged nothing to this leader yet, or
 * whose match index is more than learnerPromotionLagEntriesMax behind the leader's last index.
 */
export function checkCaughtUp(learner: NodeId, match: number, lastIndex: number): void {
  const behind = Math.max(0, lastIndex - match);
  if (match > 0 && behind <= learnerPromotionLagEntriesMax) return;
  if (match === 0) {
    // Whatever the distance, a learner that never answered this leader may not be running at all.
    throw new RaftNodeError('LearnerBehind', `learner ${learner} has acknowledged no entry to this leader yet (is it running, at the peer address it was added with?); it is promoted once it has caught up to at most ${learnerPromotionLagEntriesMax} entries behind`);
  }
  throw new RaftNodeError('LearnerBehind', `learner ${learner} is ${behind} entries behind the leader (it has entries up to ${match}, the leader's log ends at ${lastIndex}); it is promoted once at most ${learnerPromotionLagEntriesMax} behind`);
}

/** What answering a Join or Promote needs of the node. */
export interface MembershipHost {
  isLeader(): boolean;
  leaderId(): NodeId | null;
  clusterId(): string;
  members(): MemberInfo[];
  peerAddresses(): Record<NodeId, string>;
  addMember(id: NodeId, peerAddress: string, opts: { learner: boolean }): Promise<void>;
  promoteMember(id: NodeId): Promise<void>;
}

/**
 * A node's request for itself: a follower names the leader (done: false); the leader adds the
 * node as a learner or promotes it, and answers once the change applied here. Repeating a request
 * that is already in force succeeds (a joiner retries after a lost answer).
 */
export async function answerMembershipRequest(host: MembershipHost, request: MembershipRequest): Promise<MembershipAnswer> {
  if (!host.isLeader()) {
    const leader = host.leaderId() ?? '';
    return { done: false, clusterId: host.clusterId(), leaderName: leader, leaderAddress: leader === '' ? '' : (host.peerAddresses()[leader] ?? ''), peerAddresses: {} };
  }
  const member = host.members().find((m) => m.id === request.name);
  if (request.kind === 'join') {
    if (member === undefined) await host.addMember(request.name, request.peerAddress, { learner: true });
    else if (member.peerAddress !== '' && member.peerAddress !== request.peerAddress) {
      throw new RaftNodeError('AlreadyMember', `${request.name} is a member already, at ${member.peerAddress} (not ${request.peerAddress})`);
    }
  } else {
    if (member === undefined) throw new RaftNodeError('NotMember', `${request.name} is not a member: join first`);
    if (member.role === 'learner') await host.promoteMember(request.name);
  }
  return { done: true, clusterId: host.clusterId(), leaderName: host.leaderId() ?? '', leaderAddress: '', peerAddresses: host.peerAddresses() };
}
