import type { RaftConfig } from './config.ts';
import { validateConfig } from './config.ts';
import { encodeConfChange } from './conf-change-codec.ts';
import { applyConfChange as changeConfig } from './confchange.ts';
import { defaultCommittedSizePerReadyBytes } from './limits.ts';
import { makeMessage, voteRespType } from './message.ts';
import { Progress } from './progress.ts';
import { RaftLog } from './raft-log.ts';
import { ReadOnly } from './read-only.ts';
import { UncommittedBytes } from './uncommitted-bytes.ts';
import { stepCandidate, stepFollower } from './step-follower.ts';
import { bcastAppend, durableUntold, stepLeader } from './step-leader.ts';
import { ProgressTracker, confStateOf, isJoint } from './tracker.ts';
import { RaftError, index, term } from './types.ts';
import type { ConfChange, ConfState, Entry, Index, Message, NodeId, PlantedBugs, ReadState, Role, Snapshot, Term } from './types.ts';

/** The context of a vote sent by a leadership transferee: voters then ignore their leader lease. */
export const campaignTransferContext = new TextEncoder().encode('transfer');

/** Which kind of campaign to run. */
export type CampaignType = 'preElection' | 'election' | 'transfer';

/**
 * The Raft state machine of one node (etcd's `raft` struct). Role behaviour lives in the
 * `stepFn`/`tickFn` fields that the become* methods swap. Fields are public for the step
 * modules of this package only; outside code goes through RawNode.
 */
export class Raft {
  readonly id: NodeId;
  term: Term = term(0);
  vote: NodeId = '';
  lead: NodeId = '';
  role: Role = 'follower';
  readonly log: RaftLog;
  trk: ProgressTracker;
  msgs: Message[] = [];
  readStates: ReadState[] = [];
  isLearner = false;
  electionElapsed = 0;
  heartbeatElapsed = 0;
  randomizedElectionTimeout = 0;
  readonly electionTimeout: number;
  readonly heartbeatTimeout: number;
  leadTransferee: NodeId = '';
  /** Leader: the index of the last conf change proposed; a new one waits until it is applied. */
  pendingConfIndex: Index = index(0);
  readOnly = new ReadOnly();
  /** Leader: reads that arrived before an entry of this term was committed (§6.4 step 1). */
  pendingReadIndexMessages: Message[] = [];
  readonly checkQuorum: boolean;
  readonly preVote: boolean;
  readonly bugs: PlantedBugs;
  readonly maxMsgBytes: number;
  /** Leader: entries to send to followers at the next Ready (see flushAppends). */
  appendsPending = false;
  /** Leader: the commit moved; every follower hears of it at the next Ready (see flushAppends). */
  commitPending = false;
  /**
   * Leader: its own log became durable past its commit; followers that infer commits hear of it at
   * the next Ready (see flushAppends).
   */
  durablePending = false;
  /**
   * Follower: the index through which the leader of this term said its log is durable, with the
   * two of them a quorum (Message.leaderDurable; 0: not told). See inferCommit. Kept while the term
   * is (a lost pre-vote leaves it): the term has one leader, and its word stays true.
   */
  leaderDurable: Index = index(0);
  /** Leader: data bytes appended and not yet handed out committed, capped (maxUncommittedEntriesBytes). */
  readonly uncommitted: UncommittedBytes;
  private readonly random: () => number;
  stepFn: (r: Raft, m: Message) => void = stepFollower;
  tickFn: () => void = () => this.tickElection();

  /** Builds a node from its durable storage (hard state, membership, log); `applied` from config. */
  constructor(c: RaftConfig) {
    validateConfig(c);
    this.id = c.id;
    this.electionTimeout = c.electionTicks;
    this.heartbeatTimeout = c.heartbeatTicks;
    this.checkQuorum = c.checkQuorum;
    this.preVote = c.preVote;
    this.bugs = c.bugs ?? {};
    this.random = c.random;
    this.maxMsgBytes = c.maxSizePerMsgBytes;
    this.uncommitted = new UncommittedBytes(c.maxUncommittedEntriesBytes ?? Infinity);
    this.log = new RaftLog(c.storage, c.maxCommittedSizePerReadyBytes ?? defaultCommittedSizePerReadyBytes);
    const { hardState, confState } = c.storage.initialState();
    this.trk = ProgressTracker.fromConfState(confState, index(this.log.lastIndex() + 1), c.maxInflightMsgs);
    this.isLearner = this.trk.progress.get(this.id)?.isLearner ?? false;
    if (hardState.commit > this.log.lastIndex()) {
      throw new Error(`assert: hard state commit ${hardState.commit} beyond last index ${this.log.lastIndex()}`);
    }
    this.log.commitTo(hardState.commit);
    this.term = hardState.term;
    this.vote = hardState.vote;
    if (c.applied > 0) {
      // A Ready that only moves the commit index is written without an fsync, so after a power loss
      // the hard state may hold an older commit than the state machine made durable. What it applied
      // was committed, and is in this log (entries count only once fsynced): the commit is at least that.
      // (So a state machine copied in from elsewhere is taken at its word: the driver checks only that
      // it does not reach past the log's last index.)
      this.log.commitTo(c.applied);
      this.log.appliedTo(index(Math.max(c.applied, this.log.applied)));
    }
    this.becomeFollower(this.term, '');
  }

  /** The ConfState of the current membership. */
  confState(): ConfState {
    return confStateOf(this.trk.config);
  }

  /** Queues a message, filling `from` and (for non-forwarded types) the current term. */
  send(fields: Partial<Message> & { type: Message['type']; to: NodeId }): void {
    const forwarded = fields.type === 'prop' || fields.type === 'readIndex' || fields.type === 'transferLeader';
    const t = fields.term ?? (forwarded ? term(0) : this.term);
    this.msgs.push(makeMessage({ from: this.id, ...fields, term: t }));
  }

  private resetRandomizedElectionTimeout(): void {
    const r = this.random();
    if (!(r >= 0 && r < 1)) throw new Error(`assert: config.random returned ${r}`);
    this.randomizedElectionTimeout = this.electionTimeout + Math.floor(r * this.electionTimeout);
  }

  private reset(t: Term): void {
    if (this.term !== t) {
      this.term = t;
      this.vote = '';
      // What the leader of the old term told holds for its entries only while this node is in it.
      this.leaderDurable = index(0);
    }
    this.lead = '';
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.resetRandomizedElectionTimeout();
    this.leadTransferee = '';
    this.trk.resetVotes();
    const next = index(this.log.lastIndex() + 1);
    for (const [id, pr] of this.trk.progress) {
      const fresh = new Progress(next, this.trk.maxInflightMsgs, pr.isLearner);
      if (id === this.id) fresh.match = this.log.lastIndex();
      this.trk.progress.set(id, fresh);
    }
    this.pendingConfIndex = index(0);
    this.readOnly = new ReadOnly();
    this.pendingReadIndexMessages = [];
    this.uncommitted.reset();
    this.appendsPending = false;
    this.commitPending = false;
    this.durablePending = false;
  }

  /** Becomes a follower of `lead` ('' = unknown) in term t. */
  becomeFollower(t: Term, lead: NodeId): void {
    this.stepFn = stepFollower;
    this.reset(t);
    this.tickFn = () => this.tickElection();
    this.lead = lead;
    this.role = 'follower';
  }

  /** Becomes a pre-candidate: asks for pre-votes without bumping the term (Raft thesis §9.6). */
  becomePreCandidate(): void {
    if (this.role === 'leader') throw new Error('assert: leader cannot become pre-candidate');
    this.stepFn = stepCandidate;
    this.trk.resetVotes();
    this.tickFn = () => this.tickElection();
    this.lead = '';
    this.role = 'preCandidate';
  }

  /** Becomes a candidate: "increments its current term and votes for itself" (Raft §5.2). */
  becomeCandidate(): void {
    if (this.role === 'leader') throw new Error('assert: leader cannot become candidate');
    this.stepFn = stepCandidate;
    this.reset(term(this.term + 1));
    this.tickFn = () => this.tickElection();
    this.vote = this.id;
    this.role = 'candidate';
  }

  /** Becomes leader and appends the no-op entry of its term (Raft §8: commit an entry of the term first). */
  becomeLeader(): void {
    if (this.role === 'follower') throw new Error('assert: follower cannot become leader');
    this.stepFn = stepLeader;
    this.reset(this.term);
    this.tickFn = () => this.tickHeartbeat();
    this.lead = this.id;
    this.role = 'leader';
    this.trk.progress.get(this.id)?.becomeReplicate();
    // Conservatively treat the whole uncommitted tail as possibly holding a conf change.
    this.pendingConfIndex = this.log.lastIndex();
    // Empty: it passes the cap on uncommitted bytes whatever it holds.
    this.appendEntries([{ term: term(0), index: index(0), type: 'normal', data: new Uint8Array(0) }]);
  }

  /**
   * Leader: appends entries of its term. It does not count them for itself yet: they are not on
   * its disk until the driver persists the Ready that carries them (see ackOwnAppend), so a
   * commit until then needs a quorum of followers that persisted them (Raft thesis §10.2.1).
   * Returns false, appending nothing, when they would pass the cap on uncommitted bytes.
   */
  appendEntries(ents: readonly Entry[]): boolean {
    if (!this.uncommitted.tryAdd(ents)) return false;
    let li = this.log.lastIndex();
    const stamped = ents.map((e) => {
      li = index(li + 1);
      return { ...e, term: this.term, index: li };
    });
    this.log.append(stamped);
    return true;
  }

  /**
   * Leader: the driver persisted its log up to `last` (of term `lastTerm`): it counts for itself
   * from now on, and what a quorum now holds commits. A leadership lost meanwhile ignores it.
   */
  ackOwnAppend(last: Index, lastTerm: Term): void {
    if (this.role !== 'leader' || lastTerm !== this.term) return;
    if (!this.trk.progress.get(this.id)?.maybeUpdate(last)) return;
    if (this.maybeCommit()) this.broadcastCommit();
    if (last > this.log.committed && durableUntold(this)) this.durablePending = true;
  }

  /**
   * Follower: commits what it knows a quorum holds. Its leader told it (leaderDurable) that its own
   * log is durable through an index and that the two of them are a quorum of its membership, with
   * no membership change pending. An entry of the leader's term that is durable here too and at or
   * below that index is then on a quorum: committed by the rule the leader itself applies (Raft
   * §5.4.2, counted at the follower). The leader's membership can only change by applying a later
   * entry, which commits this one first. Only entries of the current term are counted, as by the
   * leader; the older ones before them commit with them.
   *
   * This saves a relayed write two messages: the follower answers its client once its own fsync and
   * the leader's notice are in, instead of after its acknowledgement and the leader's commit.
   */
  inferCommit(): void {
    if (this.role !== 'follower' || this.leaderDurable === 0) return;
    const durable = this.log.durableLastIndex();
    if (durable === null) return;
    const upTo = index(Math.min(this.leaderDurable, durable));
    if (upTo > this.log.committed && this.log.matchTerm(upTo, this.term)) this.log.commitTo(upTo);
  }

  /** Leader: advances the commit to what a quorum matched (current-term rule, Raft §5.4.2). */
  maybeCommit(): boolean {
    const mci = this.trk.committed();
    if (!Number.isFinite(mci)) return false;
    const committed = this.log.maybeCommit(index(mci), this.term, this.bugs.commitPriorTermByCounting === true);
    if (committed && this.pendingReadIndexMessages.length > 0 && this.committedEntryInCurrentTerm()) {
      const pending = this.pendingReadIndexMessages;
      this.pendingReadIndexMessages = [];
      for (const m of pending) this.stepFn(this, m);
    }
    return committed;
  }

  /** Whether the leader has committed an entry of its own term (it then knows the commit index). */
  committedEntryInCurrentTerm(): boolean {
    return this.log.matchTerm(this.log.committed, this.term) || this.term === 0;
  }

  /**
   * Whether this node may campaign: not waiting for a snapshot, and either a voter of its
   * membership, or outside its voters (removed, or a learner) while it holds entries past its
   * commit, with pre-vote and check-quorum on.
   *
   * Why a node outside the voters may: memberships take effect when applied, so a node removed or
   * demoted by leaving a joint configuration may hold entries the others lack while they, not
   * knowing yet that leaving committed, still count its vote in the joint one. It refuses their
   * shorter logs; its refusals tell them its commit (learnCommit), which is enough when they
   * hold the entry it committed, and its campaign brings them the rest. Its membership is
   * committed (it applied it), so a majority of that membership's voters, each checking its log,
   * elects it as in any Raft election (thesis §4.2.2: a leader may manage a membership it is not
   * part of); it then steps down (broadcastCommit). With nothing past its commit it is not
   * needed: a voter holding the committed leave entry is as up to date and gets its vote.
   * Check-quorum's lease keeps it from deposing a leader its voters hear from, and pre-vote from
   * inflating terms (as in etcd, such a node never campaigns otherwise).
   */
  promotable(): boolean {
    if (this.log.unstable.snapshot !== null) return false;
    if (this.trk.isVoter(this.id)) return true;
    return this.preVote && this.checkQuorum && this.log.lastIndex() > this.log.committed && this.trk.voterIds().length > 0;
  }

  /**
   * Leader, after its commit advanced: sends it to every other member, with the next Ready (one
   * append per follower however many acknowledgements moved it; see flushAppends). A leader
   * outside its own membership (see promotable) sends it now and steps down once an entry of its
   * term is committed: that commit tells the voters what they were missing, and they lead from there.
   */
  broadcastCommit(): void {
    if (this.trk.isVoter(this.id)) {
      this.commitPending = true;
      return;
    }
    bcastAppend(this);
    if (this.committedEntryInCurrentTerm()) this.becomeFollower(this.term, '');
  }

  /** Advances the logical clock by one tick. */
  tick(): void {
    this.tickFn();
  }

  private tickElection(): void {
    this.electionElapsed++;
    if (this.promotable() && this.electionElapsed >= this.randomizedElectionTimeout) {
      this.electionElapsed = 0;
      this.step(makeMessage({ type: 'hup', from: this.id }));
    }
  }

  private tickHeartbeat(): void {
    this.heartbeatElapsed++;
    this.electionElapsed++;
    if (this.electionElapsed >= this.electionTimeout) {
      this.electionElapsed = 0;
      if (this.checkQuorum) this.step(makeMessage({ type: 'checkQuorum', from: this.id }));
      // A transfer that did not finish within an election timeout is abandoned (thesis §3.10).
      if (this.role === 'leader' && this.leadTransferee !== '') this.leadTransferee = '';
    }
    if (this.role !== 'leader') return;
    if (this.heartbeatElapsed >= this.heartbeatTimeout) {
      this.heartbeatElapsed = 0;
      this.step(makeMessage({ type: 'beat', from: this.id }));
    }
  }

  /** Handles one message (local or from the network); throws RaftError('ProposalDropped') for refused proposals. */
  step(m: Message): void {
    if (m.term === 0) {
      // local message
    } else if (m.term > this.term) {
      if (m.type === 'vote' || m.type === 'preVote') {
        const force = sameBytes(m.context, campaignTransferContext);
        const inLease = this.checkQuorum && this.lead !== '' && this.electionElapsed < this.electionTimeout;
        // Raft thesis §4.2.3: a node that heard from a leader recently ignores disruptive candidates.
        if (!force && inLease) return;
      }
      if (m.type === 'preVote' || (m.type === 'preVoteResp' && !m.reject)) {
        // A pre-vote does not change our term; a granted pre-vote answer carries the future term.
      } else if (m.type === 'app' || m.type === 'heartbeat' || m.type === 'snap' || m.type === 'readIndexResp') {
        // Only the leader of m.term sends these. A read answer can be the first word a follower that
        // missed the new term gets from its leader (a follower's read takes no heartbeat round).
        this.becomeFollower(m.term, m.from);
      } else {
        this.becomeFollower(m.term, '');
      }
    } else if (m.term < this.term) {
      if ((this.checkQuorum || this.preVote) && (m.type === 'heartbeat' || m.type === 'app')) {
        // Tell a stale leader about the newer term so it steps down (it may be cut off otherwise).
        this.send({ type: 'appResp', to: m.from });
      } else if (m.type === 'preVote') {
        this.answerVote('preVoteResp', m.from, { reject: true });
      }
      return;
    }
    if ((m.type === 'voteResp' || m.type === 'preVoteResp') && this.role !== 'leader') this.learnCommit(m.commit, m.logTerm);
    if (m.type === 'hup') {
      this.hup(this.preVote ? 'preElection' : 'election');
    } else if (m.type === 'vote' || m.type === 'preVote') {
      this.handleVote(m);
    } else {
      this.stepFn(this, m);
    }
  }

  private handleVote(m: Message): void {
    const canVote =
      this.vote === m.from || (this.vote === '' && this.lead === '') || (m.type === 'preVote' && m.term > this.term);
    const logOk = this.bugs.voteWithoutLogCheck === true || this.log.isUpToDate(m.index, m.logTerm);
    const respType = voteRespType(m.type as 'vote' | 'preVote');
    if (canVote && logOk) {
      // The answer carries the request's term so that a pre-candidate does not ignore it.
      this.answerVote(respType, m.from, { term: m.term });
      if (m.type === 'vote') {
        this.electionElapsed = 0;
        this.vote = m.from;
      }
    } else {
      this.answerVote(respType, m.from, { reject: true });
    }
  }

  /**
   * Answers a (pre-)vote, telling the candidate how far this node knows its log committed: the
   * commit index and the term of the entry there (`commit`, `logTerm`; see learnCommit).
   */
  private answerVote(type: 'voteResp' | 'preVoteResp', to: NodeId, fields: { term?: Term; reject?: boolean }): void {
    // Never compacted away: the log keeps the term at its snapshot index, and compaction stops at the applied index.
    const commit = this.log.committed;
    this.send({ type, to, ...fields, commit, logTerm: this.log.term(commit) });
  }

  /**
   * Takes a commit index another node reported with its entry's term, when this log holds that
   * entry: by log matching the prefixes up to it are the same, and it is committed. Why: a
   * membership takes effect when applied, so voters that do not know that leaving a joint
   * configuration committed still need the vote of a node that left; that node refuses their
   * shorter logs, and (without pre-vote and check-quorum) cannot campaign itself. Its refusal
   * tells them the leave committed; they apply it and no longer need its vote.
   * A campaign under way ends when this commits a membership change not applied yet, as hup does
   * not start one then: the change may leave this node outside the voters.
   */
  private learnCommit(commit: Index, commitTerm: Term): void {
    if (commit <= this.log.committed || commitTerm === 0 || !this.log.matchTerm(commit, commitTerm)) return;
    this.log.commitTo(commit);
    if ((this.role === 'candidate' || this.role === 'preCandidate') && this.hasUnappliedConfChanges()) this.becomeFollower(this.term, '');
  }

  /** Starts an election unless leader, not promotable, or a committed conf change is unapplied. */
  hup(t: CampaignType): void {
    if (this.role === 'leader' || !this.promotable()) return;
    // A transfer skips pre-vote and the voters' lease: only to a voter, never to a node that left.
    if (t === 'transfer' && !this.trk.isVoter(this.id)) return;
    if (this.hasUnappliedConfChanges()) return;
    this.campaign(t);
  }

  private hasUnappliedConfChanges(): boolean {
    if (this.log.applied >= this.log.committed) return false;
    const lo = index(Math.max(this.log.applied + 1, this.log.firstIndex()));
    const ents = this.log.slice(lo, index(this.log.committed + 1), Infinity);
    return ents.some((e) => e.type === 'confChange');
  }

  /** Runs a (pre-)election: ask every voter, and win at once if this node alone is a quorum. */
  campaign(t: CampaignType): void {
    let voteType: 'vote' | 'preVote';
    let voteTerm: Term;
    if (t === 'preElection') {
      this.becomePreCandidate();
      voteType = 'preVote';
      voteTerm = term(this.term + 1);
    } else {
      this.becomeCandidate();
      voteType = 'vote';
      voteTerm = this.term;
    }
    this.trk.recordVote(this.id, true);
    if (this.trk.tallyVotes() === 'won') {
      if (t === 'preElection') this.campaign('election');
      else this.becomeLeader();
      return;
    }
    const context = t === 'transfer' ? campaignTransferContext : new Uint8Array(0);
    for (const id of this.trk.voterIds()) {
      if (id === this.id) continue;
      this.send({ type: voteType, to: id, term: voteTerm, index: this.log.lastIndex(), logTerm: this.log.lastTerm(), context });
    }
  }

  /** Records a (pre-)vote answer and acts on the outcome. */
  poll(from: NodeId, granted: boolean): void {
    this.trk.recordVote(from, granted);
    const res = this.trk.tallyVotes();
    if (res === 'won') {
      if (this.role === 'preCandidate') {
        this.campaign('election');
      } else {
        this.becomeLeader();
        bcastAppend(this);
      }
    } else if (res === 'lost') {
      this.becomeFollower(this.term, '');
    }
  }

  /** Follower: installs a snapshot if it is newer than the log; returns whether it did. */
  restore(s: Snapshot): boolean {
    if (s.metadata.index <= this.log.committed) return false;
    // Entries handed to the driver are applied after this step (the driver holds a Ready while its
    // fsync runs): a snapshot replacing the membership now would have their conf changes applied
    // on top of it. The leader sends it again once they are applied.
    if (this.log.applying > this.log.applied) return false;
    if (this.log.matchTerm(s.metadata.index, s.metadata.term)) {
      // The log already holds the snapshot's last entry: just fast-forward the commit.
      this.log.commitTo(s.metadata.index);
      return false;
    }
    this.log.restore(s);
    this.trk = ProgressTracker.fromConfState(s.metadata.confState, index(this.log.lastIndex() + 1), this.trk.maxInflightMsgs);
    this.isLearner = this.trk.progress.get(this.id)?.isLearner ?? false;
    return true;
  }

  /** Applies a committed conf change to the membership; returns the new ConfState. */
  applyConfChange(cc: ConfChange): ConfState {
    const res = changeConfig(this.trk.config, this.trk.progress, cc, this.log.lastIndex(), this.trk.maxInflightMsgs);
    this.trk.config = res.config;
    this.trk.progress = res.progress;
    const pr = this.trk.progress.get(this.id);
    this.isLearner = pr?.isLearner ?? false;
    if (this.role === 'leader') this.afterLeaderConfChange(pr === undefined || pr.isLearner);
    return this.confState();
  }

  private afterLeaderConfChange(removed: boolean): void {
    if (removed || !this.trk.isVoter(this.id)) {
      // A removed leader stops leading once C_new is in force (Raft §6). It may lead again only to
      // bring the voters a commit they missed (promotable, broadcastCommit).
      this.becomeFollower(this.term, '');
      return;
    }
    if (this.maybeCommit()) this.broadcastCommit();
    else bcastAppend(this, false);
    if (this.leadTransferee !== '' && !this.trk.isVoter(this.leadTransferee)) this.leadTransferee = '';
  }

  /** Leader: proposes leaving the joint config once entering it was applied (autoLeave). */
  maybeAutoLeave(): void {
    if (this.role !== 'leader' || !isJoint(this.trk.config) || !this.trk.config.autoLeave) return;
    if (this.pendingConfIndex > this.log.applied) return;
    try {
      this.step(makeMessage({ type: 'prop', from: this.id, entries: [autoLeaveEntry] }));
    } catch (e) {
      if (!(e instanceof RaftError)) throw e;
    }
  }
}

const autoLeaveEntry: Entry = {
  term: term(0),
  index: index(0),
  type: 'confChange',
  data: encodeConfChange({ changes: [], context: new Uint8Array(0) }),
};

/** Whether two byte arrays are equal. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
