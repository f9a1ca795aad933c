import { decodeConfChange } from './conf-change-codec.ts';
import { isLeaveJoint } from './confchange.ts';
import { pendingReadIndexMessagesMax } from './limits.ts';
import type { Progress } from './progress.ts';
import type { Raft } from './raft.ts';
import type { ReadRequest } from './read-only.ts';
import { roundContext, roundOf } from './read-only.ts';
import { infersCommits, noAnswerContext } from './message.ts';
import { isJoint } from './tracker.ts';
import { RaftError, index } from './types.ts';
import type { Entry, Index, Message, NodeId } from './types.ts';

/** The leader's step function (etcd's stepLeader). */
export function stepLeader(r: Raft, m: Message): void {
  switch (m.type) {
    case 'beat':
      bcastHeartbeat(r, new Uint8Array(0));
      return;
    case 'checkQuorum':
      // Raft thesis §6.2: a leader that cannot reach a quorum for an election timeout steps down.
      if (!r.trk.quorumActive(r.id)) {
        r.becomeFollower(r.term, '');
        return;
      }
      for (const [id, pr] of r.trk.progress) if (id !== r.id) pr.recentActive = false;
      return;
    case 'prop':
      handleProp(r, m);
      return;
    case 'readIndex':
      handleReadIndex(r, m);
      return;
    case 'forgetLeader':
      return; // for followers: a leader has none to forget
    default:
  }
  const pr = r.trk.progress.get(m.from);
  if (pr === undefined) return;
  switch (m.type) {
    case 'appResp':
      handleAppResp(r, m, pr);
      return;
    case 'heartbeatResp':
      handleHeartbeatResp(r, m, pr);
      return;
    case 'snapStatus':
      if (pr.state !== 'snapshot') return;
      if (m.reject) pr.pendingSnapshot = index(0);
      pr.becomeProbe();
      // Wait for the next heartbeat answer before probing, so a failing peer is not flooded.
      pr.probeSent = true;
      return;
    case 'unreachable':
      if (pr.state === 'replicate') pr.becomeProbe();
      return;
    case 'transferLeader':
      handleTransferLeader(r, m.from, pr);
      return;
    default:
  }
}

function handleProp(r: Raft, m: Message): void {
  if (m.entries.length === 0) throw new Error('assert: empty proposal');
  // A leader outside its voters (see Raft.promotable) only brings them a commit they missed.
  if (!r.trk.isVoter(r.id)) throw new RaftError('ProposalDropped', 'this node is not a voter of the cluster');
  if (r.leadTransferee !== '') throw new RaftError('ProposalDropped', `leadership transfer to ${r.leadTransferee} in progress`);
  const local = m.from === r.id;
  let confIndex = r.pendingConfIndex;
  const entries: Entry[] = m.entries.map((e, i) => {
    if (e.type !== 'confChange') return e;
    const refusal = confChangeRefusal(r, confIndex, isLeaveJoint(decodeConfChange(e.data)));
    if (refusal === null) {
      confIndex = index(r.log.lastIndex() + i + 1);
      return e;
    }
    if (local) throw new RaftError('ConfChangePending', refusal);
    // A forwarded change that cannot go in becomes a no-op, keeping the batch's positions.
    return { ...e, type: 'normal', data: new Uint8Array(0) };
  });
  if (!r.appendEntries(entries)) {
    // A relayed proposal is dropped (RawNode.step): its proposer proposes it again later.
    throw new RaftError('ProposalDropped', `${r.uncommitted.value} bytes of entries not committed yet: at the cap`);
  }
  // Only once appended: a refused conf change must not block the next one.
  r.pendingConfIndex = confIndex;
  // Sent with the next Ready (flushAppends): the proposals stepped until then share one append per follower.
  r.appendsPending = true;
}

/** Why a conf change cannot go in now (null: it can), with `pendingConfIndex` the last one proposed, this batch's included. */
function confChangeRefusal(r: Raft, pendingConfIndex: Index, leave: boolean): string | null {
  if (pendingConfIndex > r.log.applied) return `conf change at ${pendingConfIndex} not applied yet`;
  const joint = isJoint(r.trk.config);
  if (joint && !leave) return 'in a joint configuration: only leaving it is allowed';
  if (!joint && leave) return 'not in a joint configuration: nothing to leave';
  return null;
}

function handleAppResp(r: Raft, m: Message, pr: Progress): void {
  pr.recentActive = true;
  pr.infersCommits = infersCommits(m);
  if (m.reject) {
    let nextProbe = m.rejectHint;
    if (m.rejectHintTerm > 0) nextProbe = r.log.findConflictByTerm(m.rejectHint, m.rejectHintTerm)[0];
    if (pr.maybeDecrTo(m.index, nextProbe)) {
      if (pr.state === 'replicate') pr.becomeProbe();
      sendAppend(r, m.from);
    }
    return;
  }
  const oldPaused = pr.isPaused();
  if (!pr.maybeUpdate(m.index) && !(pr.match === m.index && pr.state === 'probe')) return;
  if (pr.state === 'probe') {
    pr.becomeReplicate();
  } else if (pr.state === 'snapshot' && pr.match + 1 >= r.log.firstIndex()) {
    pr.becomeProbe();
    pr.becomeReplicate();
  } else if (pr.state === 'replicate') {
    pr.inflights.freeLE(m.index);
  }
  if (r.maybeCommit()) {
    if (r.role !== 'leader') return;
    r.broadcastCommit();
    if (r.role !== 'leader') return;
  } else if (oldPaused) {
    sendAppend(r, m.from);
  }
  // What the freed inflight window allows goes out with the next Ready (flushAppends), with what
  // the other answers of the same batch free.
  if (pr.next <= r.log.lastIndex()) r.appendsPending = true;
  if (m.from === r.leadTransferee && pr.match === r.log.lastIndex()) {
    r.send({ type: 'timeoutNow', to: m.from });
  }
}

function handleHeartbeatResp(r: Raft, m: Message, pr: Progress): void {
  pr.recentActive = true;
  pr.probeSent = false;
  if (pr.state === 'replicate' && pr.inflights.full()) pr.inflights.freeFirstOne();
  if (pr.match < r.log.lastIndex()) sendAppend(r, m.from);
  const round = roundOf(m.context);
  if (round === null) return;
  const acks = r.readOnly.recvAck(m.from, round);
  if (acks !== undefined && r.trk.quorumIn(acks)) {
    for (const req of r.readOnly.release(round)) respondRead(r, req);
  }
}

function handleTransferLeader(r: Raft, transferee: NodeId, pr: Progress): void {
  if (pr.isLearner) return;
  if (r.leadTransferee !== '') {
    if (r.leadTransferee === transferee) return;
    r.leadTransferee = '';
  }
  if (transferee === r.id) return;
  // The transfer must finish within an election timeout (thesis §3.10), counted from now.
  r.electionElapsed = 0;
  r.leadTransferee = transferee;
  if (pr.match === r.log.lastIndex()) r.send({ type: 'timeoutNow', to: transferee });
  else sendAppend(r, transferee);
}

function handleReadIndex(r: Raft, m: Message): void {
  // A leader outside its membership (see Raft.promotable) leads only until its first commit, and
  // its membership's voters may already have moved on without it: it serves no read (they retry).
  if (!r.trk.isVoter(r.id)) return;
  const from = m.from === '' ? r.id : m.from;
  if (r.trk.isSingleton()) {
    respondRead(r, { from, context: m.context, index: r.log.committed, round: 0 });
    return;
  }
  // Thesis §6.4: until an entry of its term commits, the leader does not know the commit index.
  if (!r.committedEntryInCurrentTerm()) {
    if (r.pendingReadIndexMessages.length < pendingReadIndexMessagesMax) r.pendingReadIndexMessages.push(m);
    return;
  }
  if (from !== r.id && r.trk.isVoter(from) && pairIsQuorum(r)) {
    // A read relayed by a voter: its request is the follower's acknowledgement of this leadership,
    // sent after its reads began. The two are a quorum, so no leader of a later term can have
    // been elected before those reads (it needed a vote from one of them, and the follower was
    // still in a term this node led, this node still is in its own). No heartbeat round needed.
    // The request carries no term (forwarded types do not), so two guards make "a term this node
    // led" hold: a follower relays reads only to the leader of its current term, and it drops an
    // answer of a term below its own (Raft.step), which is why the answer carries this term.
    respondRead(r, { from, context: m.context, index: readIndexOf(r), round: 0 });
    return;
  }
  r.readOnly.add(from, m.context, readIndexOf(r));
}

/**
 * The index a read must wait for: everything any replica may have acknowledged as committed. That
 * is the leader's commit, or beyond it what a follower may have inferred committed on the leader's
 * word (Raft.inferCommit): at most the highest durable index the leader told. Waiting for those
 * entries costs a read only while writes are in flight; serving below them could miss a write a
 * follower already answered.
 */
function readIndexOf(r: Raft): Index {
  let i = r.log.committed;
  for (const [id, pr] of r.trk.progress) if (id !== r.id && pr.toldDurable > i) i = pr.toldDurable;
  return i;
}

/** Leader: sends one heartbeat round for every read queued since the last round. */
export function flushReadRound(r: Raft): void {
  if (r.role !== 'leader' || !r.readOnly.hasUnsentRound()) return;
  const round = r.readOnly.startRound(r.id);
  const acks = r.readOnly.recvAck(r.id, round);
  if (acks !== undefined && r.trk.quorumIn(acks)) {
    for (const req of r.readOnly.release(round)) respondRead(r, req);
    return;
  }
  bcastHeartbeat(r, roundContext(round));
}

function respondRead(r: Raft, req: ReadRequest): void {
  if (req.from === r.id) r.readStates.push({ index: req.index, requestContext: req.context });
  else r.send({ type: 'readIndexResp', to: req.from, index: req.index, context: req.context });
}

/** Sends a heartbeat to every other member; its commit is capped at what the peer matched. */
export function bcastHeartbeat(r: Raft, context: Uint8Array): void {
  for (const [id, pr] of r.trk.progress) {
    if (id === r.id) continue;
    r.send({ type: 'heartbeat', to: id, commit: index(Math.min(pr.match, r.log.committed)), context });
  }
}

/**
 * Leader, when a Ready is taken: sends what the steps since the last Ready left pending, at once for
 * all of them. Proposals (appendsPending): to each follower, its new entries as far as its inflight
 * window allows. A commit that moved (commitPending): to each follower an append even if empty, so
 * that it learns the commit, unless it will infer that commit itself (followerInfersCommit). Its
 * own log durable past the commit (durablePending): to each follower that infers commits and has
 * not been told that far, an append even if empty that tells it (Message.leaderDurable) and asks
 * no answer. Without this, each proposal and each acknowledgement stepped would send its own append
 * to every follower (and each get its own answer): a batch of N relayed proposals cost N appends
 * and N answers per follower instead of one.
 */
export function flushAppends(r: Raft): void {
  const sendIfEmpty = r.commitPending;
  const durableMoved = r.durablePending;
  if (!r.appendsPending && !sendIfEmpty && !durableMoved) return;
  r.appendsPending = false;
  r.commitPending = false;
  r.durablePending = false;
  if (r.role !== 'leader') return;
  // A follower sent an append since (a probe answered, a heartbeat answered) knows this commit already.
  const told = new Set<NodeId>();
  if (sendIfEmpty) for (const m of r.msgs) if (m.type === 'app' && m.commit === r.log.committed) told.add(m.to);
  const durable = durableToTell(r);
  for (const id of r.trk.ids()) {
    if (id === r.id) continue;
    const pr = r.trk.progress.get(id);
    if (pr === undefined) continue;
    const commit = sendIfEmpty && !told.has(id) && !followerInfersCommit(r, pr);
    const notice = durableMoved && owesNotice(r, id, pr, durable);
    if (!maybeSendAppend(r, id, commit || notice, notice && !commit)) continue;
    while (maybeSendAppend(r, id, false)) {
      // keep streaming while the inflight window allows
    }
  }
}

/**
 * The index through which the leader may tell a voter its log is durable (Message.leaderDurable),
 * or 0: the two must be a quorum of its membership (two or three voters, not joint, the leader
 * one of them) with no membership change pending. A change is only in force once applied, and
 * applying one commits every entry before it, so what was told under this membership stays true.
 */
function durableToTell(r: Raft): Index {
  if (!pairIsQuorum(r)) return index(0);
  return r.trk.progress.get(r.id)?.match ?? index(0);
}

/**
 * Whether this leader and any one other voter are a quorum of its membership: two or three voters,
 * not joint, the leader one of them, and no membership change pending.
 */
function pairIsQuorum(r: Raft): boolean {
  // Checked per append sent: the voter set's size, not a list of the voters.
  return !isJoint(r.trk.config) && r.pendingConfIndex <= r.log.applied && r.trk.isVoter(r.id) && r.trk.config.voters.incoming.size <= 3;
}

/** Whether a voter that infers commits has not been told the leader's log is durable through `durable`. */
function owesNotice(r: Raft, id: NodeId, pr: Progress, durable: Index): boolean {
  return pr.infersCommits && durable > pr.toldDurable && r.trk.isVoter(id);
}

/** Whether a follower that infers commits has not been told the leader's log is durable as far as it is. */
export function durableUntold(r: Raft): boolean {
  const durable = durableToTell(r);
  if (durable === 0) return false;
  for (const [id, pr] of r.trk.progress) {
    if (id !== r.id && owesNotice(r, id, pr, durable)) return true;
  }
  return false;
}

/**
 * Whether a follower will commit the leader's commit index by itself (Raft.inferCommit): it infers
 * commits, it was told the leader's log is durable that far, the entries that far went to it, and
 * the entry there is of this term. Its acknowledgement need not be in: it commits once its own
 * write is durable. Should those entries be lost, the heartbeat's answer finds the gap as it would
 * for any lost append (the leader probes).
 */
function followerInfersCommit(r: Raft, pr: Progress): boolean {
  const c = r.log.committed;
  return pr.infersCommits && pr.toldDurable >= c && pr.state === 'replicate' && pr.next > c && r.committedEntryInCurrentTerm();
}

/** Sends app messages to every other member (empty ones too unless sendIfEmpty is false). */
export function bcastAppend(r: Raft, sendIfEmpty = true): void {
  for (const id of r.trk.ids()) {
    if (id !== r.id) maybeSendAppend(r, id, sendIfEmpty);
  }
}

/** Sends an app (or a snapshot) to `to` unless its progress is paused. */
export function sendAppend(r: Raft, to: NodeId): void {
  maybeSendAppend(r, to, true);
}

/**
 * Sends an app (or a snapshot) to `to` unless its progress is paused; `notice`: an empty one only
 * tells leaderDurable, and asks no answer.
 */
function maybeSendAppend(r: Raft, to: NodeId, sendIfEmpty: boolean, notice = false): boolean {
  const pr = r.trk.progress.get(to);
  if (pr === undefined || pr.isPaused()) return false;
  const prev = index(pr.next - 1);
  let prevTerm;
  let ents: Entry[];
  try {
    prevTerm = r.log.term(prev);
    ents = r.log.entriesFrom(pr.next, r.maxMsgBytes);
  } catch (e) {
    if (e instanceof RaftError && e.code === 'Compacted') return sendSnapshot(r, to, pr);
    throw e;
  }
  if (ents.length === 0 && !sendIfEmpty) return false;
  // Only the commit moves, and this follower acknowledged everything before it: no answer wanted.
  // Nor to a notice: the entries it tells of get their own answers.
  const answerless = ents.length === 0 && pr.state === 'replicate' && (pr.match === prev || notice);
  // Told only to a follower that infers: one of an earlier version ignores it, and an index told
  // raises every read's index (readIndexOf) for nothing.
  const leaderDurable = pr.infersCommits && r.trk.isVoter(to) ? durableToTell(r) : index(0);
  if (leaderDurable > pr.toldDurable) pr.toldDurable = leaderDurable;
  r.send({ type: 'app', to, index: prev, logTerm: prevTerm, entries: ents, commit: r.log.committed, leaderDurable, ...(answerless ? { context: noAnswerContext } : {}) });
  const last = ents[ents.length - 1];
  if (pr.state === 'replicate' && last !== undefined) {
    pr.optimisticUpdate(last.index);
    pr.inflights.add(last.index);
  } else if (pr.state === 'probe') {
    pr.probeSent = true;
  }
  return true;
}

function sendSnapshot(r: Raft, to: NodeId, pr: Progress): boolean {
  // Only send a snapshot to a peer known to be alive: it is expensive.
  if (!pr.recentActive) return false;
  let snap;
  try {
    snap = r.log.snapshot();
  } catch (e) {
    if (e instanceof RaftError && e.code === 'SnapshotTemporarilyUnavailable') return false;
    throw e;
  }
  if (snap.metadata.index === 0) throw new Error('assert: need a snapshot but storage has none');
  pr.becomeSnapshot(snap.metadata.index);
  r.send({ type: 'snap', to, snapshot: snap });
  return true;
}
