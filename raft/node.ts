/**
 * The Raft driver: owns the tick timer, the durable log (SQLite), the gRPC transport and the
 * Ready loop. Every Ready is handled in the documented order — persist (one transaction, one
 * fsync) -> send -> apply -> answer reads -> advance. The fsync runs on libuv's thread pool: while
 * it runs, the event loop goes on taking requests and peer messages, and every input that arrives
 * meanwhile (proposals, messages, ticks) goes into the next Ready: group commit.
 */
import { EventEmitter } from 'node:events';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { RawNode, RaftError, decodeConfChange, encodeConfChange, index } from './core/index.ts';
import type { ConfChange, Entry, Index, Message, NodeId, RaftStatus, Ready, Role, SnapshotMetadata } from './core/index.ts';
import { RaftNodeError } from './errors.ts';
import * as limits from './limits.ts';
import { ProposalTracker } from './proposal-tracker.ts';
import { ReadIndexBatcher } from './read-index-batcher.ts';
import { SqliteLogStorage, snapshotPathOf } from './sqlite-log-storage.ts';
import { removeStaleSnapshots, takeSnapshot } from './snapshots.ts';
import { Transport } from './transport.ts';
import { waitForLeaderChange } from './leader-wait.ts';
import { bootstrapLog } from './bootstrap.ts';
import type { TransportHandlers } from './transport.ts';
import type { RaftNodeMetrics, RaftNodeOptions } from './node-types.ts';
import { answerMembershipRequest, checkCaughtUp, memberNamed, membersOf } from './membership.ts';
import type { MemberInfo } from './membership.ts';
import { askMembership } from './membership-client.ts';
import { joinGroup } from './join.ts';
import type { MembershipAnswer } from './wire.ts';

export type { RaftNodeMetrics, RaftNodeOptions, RaftTimings, StateMachineHooks } from './node-types.ts';
export type { MemberInfo } from './membership.ts';

/**
 * Resolves on the next turn of the event loop. grpc-js hands a message to its socket only after the
 * current turn's synchronous work (through a promise, then http2's own flush on the next turn), so
 * work done right after a send delays the message by as long as it takes.
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A node of the Raft group. Emits 'leader-change' (leader: NodeId | null, term: number). */
export class RaftNode extends EventEmitter {
  private readonly proposals = new ProposalTracker();
  /** Commands handed to the leader by proposeViaLeader and not settled yet (proposed again to each new leader). */
  private readonly relayed = new Set<{ readonly data: Uint8Array }>();
  private readonly reads = new ReadIndexBatcher(limits.readIndexTimeoutTicks);
  private transport!: Transport;
  private timer: NodeJS.Timeout | null = null;
  private scheduled = false;
  /** Messages went to the peers in this turn of the event loop: grpc-js writes them in the next one. */
  private sentThisTurn = false;
  /** A Ready taken from the core is held back (its fsync, a local snapshot's copy, or one turn for its messages to leave): no other is taken meanwhile. */
  private readyHeld = false;
  private stopped = false;
  private ticks = 0;
  private applied: Index;
  private lead: NodeId = '';
  private role: Role = 'follower';
  private snapshotting: Promise<SnapshotMetadata | null> | null = null;
  /** The last fdatasync of the log asked for; the log is closed only after it ends. */
  private syncing: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;
  private persistTransactions = 0;
  private persistedEntries = 0;
  private relayedProposals = 0;
  private droppedRelayedProposals = 0;
  /** A proposal a follower relayed (MsgProp) was stepped and is not in a Ready taken yet. */
  private relayedToTake = false;
  /**
   * The last index of the last Ready whose entries held a proposal a follower relayed (a client of
   * that follower waits for it to apply the entry); 0 for none. See othersWaitOn.
   */
  private relayedThrough = 0;
  /** Entry bytes applied since the last snapshot. */
  private appliedBytesSinceSnapshot = 0;
  /** After a failed snapshot, the applied index before which no other is tried. */
  private snapshotRetryAt = 0;
  /** Every member's peer address this node knows (its own included): given at start, then learnt. */
  private readonly addresses = new Map<NodeId, string>();
  /** The membership change this node proposed and has not applied yet: one at a time. */
  private changing: Promise<Index> | null = null;
  /** Aborted by stop(): ends the join loop. */
  private readonly stopSignal = new AbortController();
  private joinLoop: Promise<void> = Promise.resolve();
  /** A member added by an operator (not through Join) asks the leader for the cluster id: not before this time (ms). */
  private clusterIdAskAt = 0;

  private constructor(
    private readonly opts: RaftNodeOptions,
    private readonly storage: SqliteLogStorage,
    private readonly raw: RawNode,
    applied: Index,
  ) {
    super();
    // Every caller waiting for a leader holds a listener until it resolves or times out.
    this.setMaxListeners(0);
    this.applied = applied;
  }

  /** Opens the durable log in `dataDir`, restores the state machine if it is behind the snapshot, and joins the group. */
  static async start(opts: RaftNodeOptions): Promise<RaftNode> {
    const snapshotDir = join(opts.dataDir, 'snapshots');
    await mkdir(snapshotDir, { recursive: true });
    const storage = new SqliteLogStorage(opts.dataDir);
    try {
      const removedAt = storage.removedAt();
      if (removedAt !== 0) {
        throw new RaftNodeError('Removed', `${opts.id} was removed from cluster ${storage.clusterId()} (at log index ${removedAt}): its data directory cannot rejoin; to add it again, start it with an empty data directory and --join`);
      }
      const seeds = opts.joinSeeds ?? [];
      const wasEmpty = storage.isEmpty();
      if (wasEmpty && !opts.join && seeds.length === 0) bootstrapLog(storage, opts.peers, opts.id);
      let applied = opts.stateMachine.applied();
      const snap = storage.snapshot().metadata;
      if (applied < snap.index) {
        opts.stateMachine.restore(storage.snapshotFilePath(), snap);
        applied = snap.index;
      }
      if (applied > storage.lastIndex()) throw new Error(`assert: state machine applied ${applied} beyond the log's last index ${storage.lastIndex()}`);
      const electionTicks = opts.electionTicks ?? limits.electionTicksDefault;
      const raw = new RawNode({
        id: opts.id, storage, applied, electionTicks, heartbeatTicks: opts.heartbeatTicks ?? limits.heartbeatTicksDefault,
        maxSizePerMsgBytes: limits.appendMessageBytesMax, maxInflightMsgs: limits.inflightMessagesMax,
        maxCommittedSizePerReadyBytes: limits.committedBytesPerReadyMax, maxUncommittedEntriesBytes: opts.uncommittedEntriesBytesMax ?? limits.uncommittedEntriesBytesMax, preVote: true, checkQuorum: true, random: Math.random,
      });
      const node = new RaftNode(opts, storage, raw, applied);
      // The bytes trigger counts what the log took since the snapshot, not since this start: else
      // every restart would let the log grow by up to another snapshotEveryBytes.
      node.appliedBytesSinceSnapshot = storage.entryBytesBetween(storage.snapshot().metadata.index, applied);
      await removeStaleSnapshots(snapshotDir, storage.snapshotFilePath());
      // Addresses given now win over those learnt from membership changes applied before.
      const peers = { ...storage.peerAddresses(), ...opts.peers };
      for (const [id, address] of Object.entries(peers)) node.addresses.set(id, address);
      node.transport = await Transport.start({ id: opts.id, listen: opts.listen, peers, tls: opts.tls, snapshotDir, handlers: node.handlers() });
      node.timer = setInterval(() => node.tick(), opts.tickMs ?? limits.tickMsDefault);
      if (seeds.length > 0) node.startJoining(seeds, wasEmpty);
      return node;
    } catch (err) {
      storage.close();
      throw err;
    }
  }

  /** This node's id. */
  get id(): NodeId {
    return this.opts.id;
  }

  /** The port the peer server listens on. */
  get port(): number {
    return this.transport.port;
  }

  /** Whether this node believes it is the leader. */
  isLeader(): boolean {
    return this.role === 'leader';
  }

  /** The leader this node knows of, or null. */
  leaderId(): NodeId | null {
    return this.lead === '' ? null : this.lead;
  }

  /** The index the local state machine has applied. */
  appliedIndex(): Index {
    return this.applied;
  }

  /** The core's status plus the durable log's bounds. */
  status(): RaftStatus & { firstIndex: Index; lastIndex: Index; snapshotIndex: Index } {
    return { ...this.raw.status(), applied: this.applied, firstIndex: this.storage.firstIndex(), lastIndex: this.storage.lastIndex(), snapshotIndex: this.storage.snapshot().metadata.index };
  }

  /** Gauges for metrics (cheap; call on scrape). */
  metrics(): RaftNodeMetrics {
    const s = this.raw.status();
    const forwards = this.transport.forwardStats();
    return {
      term: s.term, commitIndex: s.commit, appliedIndex: this.applied, isLeader: this.isLeader(), lastIndex: this.storage.lastIndex(),
      snapshotIndex: this.storage.snapshot().metadata.index, persistTransactions: this.persistTransactions, persistedEntries: this.persistedEntries,
      forwardBatches: forwards.batches, forwardedCommands: forwards.commands, relayedProposals: this.relayedProposals, droppedRelayedProposals: this.droppedRelayedProposals,
    };
  }

  /**
   * Proposes a command on the leader; resolves with its index once committed and applied
   * locally. Rejects with RaftNodeError: NotLeader, ProposalDropped, ProposalOverwritten,
   * QueueFull or Stopped. Data must be non-empty.
   */
  propose(data: Uint8Array): Promise<Index> {
    return this.proposeEntry('normal', data);
  }

  /** Proposes a membership change on the leader; resolves once applied (see propose). */
  proposeConfChange(cc: ConfChange): Promise<Index> {
    return this.proposeEntry('confChange', encodeConfChange(cc));
  }

  private proposeEntry(type: Entry['type'], data: Uint8Array): Promise<Index> {
    if (this.stopped) return Promise.reject(new RaftNodeError('Stopped', 'the Raft node is stopped'));
    if (!this.isLeader()) return Promise.reject(new RaftNodeError('NotLeader', `not the leader (leader: ${this.lead || 'unknown'})`));
    if (data.byteLength > limits.proposalBytesMax) return Promise.reject(new RaftNodeError('TooLarge', `proposal of ${data.byteLength} bytes`));
    let promise: Promise<Index>;
    try {
      promise = this.proposals.add(type, data);
    } catch (err) {
      return Promise.reject(err);
    }
    try {
      if (type === 'normal') this.raw.propose(data);
      else this.raw.proposeConfChange(decodeConfChange(data));
    } catch (err) {
      if (!(err instanceof RaftError)) throw err;
      const code = err.code === 'ProposalDropped' || err.code === 'ConfChangePending' ? err.code : 'NotLeader';
      this.proposals.withdrawLast(new RaftNodeError(code, err.message));
    }
    this.schedule();
    return promise;
  }

  /**
   * Hands a command to the leader as a proposal on the Raft stream (etcd's MsgProp): a follower's
   * core sends it in the next Ready, a leader's appends it. No answer comes back: the caller
   * learns the outcome by applying the entry, so the command must carry its own identity and a
   * duplicate must be harmless. Until `settle()`, the command is proposed again to every new
   * leader, and kept while no leader is known. Throws RaftNodeError TooLarge, QueueFull, Stopped.
   */
  proposeViaLeader(data: Uint8Array): { settle(): void } {
    if (this.stopped) throw new RaftNodeError('Stopped', 'the Raft node is stopped');
    if (data.byteLength === 0) throw new Error('assert: a relayed proposal must carry data');
    if (data.byteLength > limits.proposalBytesMax) throw new RaftNodeError('TooLarge', `proposal of ${data.byteLength} bytes`);
    if (this.relayed.size >= limits.relayedProposalsMax) throw new RaftNodeError('QueueFull', `${this.relayed.size} relayed proposals pending`);
    const relayed = { data };
    this.relayed.add(relayed);
    this.relay(data);
    this.schedule();
    return { settle: () => this.relayed.delete(relayed) };
  }

  /** Hands `data` to the core; with no leader to send it to, it waits for the next leader change. */
  private relay(data: Uint8Array): void {
    this.relayedProposals++;
    try {
      this.raw.propose(data);
    } catch (err) {
      if (!(err instanceof RaftError)) throw err;
    }
  }

  /**
   * Runs a command through the leader's `onForward` handler: locally on the leader, over gRPC
   * from a follower. Waits up to `timeoutMs` for a leader, and retries within that time when
   * the command certainly did not apply (NotLeader, ProposalDropped, ProposalOverwritten).
   * Rejects with RaftNodeError (Timeout, Unavailable, Remote, ...).
   */
  async forwardToLeader(data: Uint8Array, timeoutMs = limits.forwardTimeoutMsDefault): Promise<Uint8Array> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const leader = await this.waitForLeader(Math.max(1, deadline - Date.now()));
      try {
        if (leader === this.id) return await this.handleForward(data);
        return await this.transport.forward(leader, data, Math.max(1, deadline - Date.now()));
      } catch (err) {
        const retryable = err instanceof RaftNodeError && (err.code === 'NotLeader' || err.code === 'ProposalDropped' || err.code === 'ProposalOverwritten');
        const pauseMs = (this.opts.tickMs ?? limits.tickMsDefault) * 2;
        if (!retryable || this.stopped || Date.now() + pauseMs >= deadline) throw err;
        await new Promise((r) => setTimeout(r, pauseMs));
      }
    }
  }

  private async handleForward(data: Uint8Array): Promise<Uint8Array> {
    if (this.stopped) throw new RaftNodeError('Stopped', 'the Raft node is stopped');
    if (!this.isLeader()) throw new RaftNodeError('NotLeader', `not the leader (leader: ${this.lead || 'unknown'})`);
    const sm = this.opts.stateMachine;
    if (!sm.onForward) throw new RaftNodeError('Remote', 'the leader has no forward handler');
    return sm.onForward(data);
  }

  /**
   * A linearizable read barrier: resolves with an index once this node has applied at least
   * the leader's commit index as of some moment after the call. Concurrent callers share one
   * round. Rejects with RaftNodeError Timeout (no leader), QueueFull or Stopped.
   */
  readIndex(): Promise<Index> {
    if (this.stopped) return Promise.reject(new RaftNodeError('Stopped', 'the Raft node is stopped'));
    try {
      const p = this.reads.enqueue();
      this.schedule();
      return p;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Resolves with the leader's id once one is known (at once if known); rejects with Timeout. */
  waitForLeader(timeoutMs: number): Promise<NodeId> {
    if (this.stopped) return Promise.reject(new RaftNodeError('Stopped', 'the Raft node is stopped'));
    if (this.lead !== '') return Promise.resolve(this.lead);
    return waitForLeaderChange(this, (leader) => leader !== null, timeoutMs, 'a leader').then((leader) => leader ?? '');
  }

  /** Asks the leader to hand leadership to `to`; resolves once this node sees `to` lead. */
  async transferLeadership(to: NodeId, timeoutMs?: number): Promise<void> {
    if (this.lead === to) return;
    this.raw.transferLeadership(to);
    this.schedule();
    const ms = timeoutMs ?? 4 * (this.opts.electionTicks ?? limits.electionTicksDefault) * (this.opts.tickMs ?? limits.tickMsDefault);
    await waitForLeaderChange(this, (leader) => leader === to, ms, `leadership of ${to}`);
  }

  /** The id of the cluster this node's log belongs to ('' while a joining node has not learnt it). */
  clusterId(): string {
    return this.storage.clusterId();
  }

  /** The term of the log entry at `at`; 0 when the log no longer (or not yet) holds it. */
  termAt(at: number): number {
    if (at < this.storage.snapshot().metadata.index || at > this.storage.lastIndex()) return 0;
    try {
      return this.storage.term(index(at));
    } catch {
      return 0;
    }
  }

  /**
   * The membership this node applied, in id order, with each member's peer address; on the
   * leader also each member's match index and lag (the leader's last index minus it).
   */
  members(): MemberInfo[] {
    const s = this.raw.status();
    const leader = s.role === 'leader' ? { progress: s.progress, lastIndex: this.storage.lastIndex() } : null;
    return membersOf(s.confState, (id) => this.addresses.get(id) ?? '', leader);
  }

  /** Every peer address this node knows (members' and its own), by node id. */
  peerAddresses(): Record<NodeId, string> {
    return Object.fromEntries(this.addresses);
  }

  /**
   * Leader only: adds node `id`, reached at `peerAddress` (host:port), as a learner (or directly as
   * a voter); resolves once the change is applied here. Rejects with RaftNodeError NotLeader,
   * AlreadyMember, ConfChangePending (another change is under way), or as propose does.
   */
  async addMember(id: NodeId, peerAddress: string, opts: { learner: boolean }): Promise<void> {
    if (id === '' || peerAddress === '') throw new TypeError('a member needs a name and a peer address');
    this.checkLeader();
    const existing = this.members().find((m) => m.id === id);
    if (existing) throw new RaftNodeError('AlreadyMember', `${id} is a ${existing.role} already`);
    await this.changeMembership({ changes: [{ type: opts.learner ? 'addLearner' : 'addVoter', nodeId: id }], context: new TextEncoder().encode(peerAddress) });
  }

  /**
   * Leader only: makes learner `id` a voter, once its match index is at most
   * learnerPromotionLagEntriesMax entries behind the leader's last index; resolves once applied
   * here. Rejects with RaftNodeError NotLeader, NotMember, NotLearner, LearnerBehind (the message
   * says by how many entries), ConfChangePending.
   */
  async promoteMember(id: NodeId): Promise<void> {
    this.checkLeader();
    const member = memberNamed(this.members(), id);
    if (member.role !== 'learner') throw new RaftNodeError('NotLearner', `${id} is a voter already`);
    checkCaughtUp(id, member.matchIndex ?? 0, this.storage.lastIndex());
    // The context repeats its address: a member that missed the learner's addition (it installed a later snapshot) learns it.
    await this.changeMembership({ changes: [{ type: 'addVoter', nodeId: id }], context: new TextEncoder().encode(member.peerAddress) });
  }

  /**
   * Leader only: removes member `id` (running or not); resolves once applied here. Removing the
   * leader itself: it applies its removal and steps down, and the remaining voters elect a leader
   * among them (etcd's way). Rejects with RaftNodeError NotLeader, NotMember, LastVoter,
   * ConfChangePending.
   */
  async removeMember(id: NodeId): Promise<void> {
    this.checkLeader();
    const members = this.members();
    const member = memberNamed(members, id);
    if (member.role === 'voter' && members.filter((m) => m.role === 'voter').length === 1) {
      throw new RaftNodeError('LastVoter', `${id} is the last voter: the group cannot go on without one`);
    }
    await this.changeMembership({ changes: [{ type: 'removeNode', nodeId: id }], context: new Uint8Array(0) });
    // The core stepped down as it applied its own removal; this node's role follows in the next Ready.
    if (id === this.id && this.isLeader()) await waitForLeaderChange(this, (leader) => leader !== this.id, this.electionTimeoutMs(), 'stepping down');
  }

  /** An election timeout's worth of milliseconds (the most a role change should take to be seen). */
  private electionTimeoutMs(): number {
    return 2 * (this.opts.electionTicks ?? limits.electionTicksDefault) * (this.opts.tickMs ?? limits.tickMsDefault);
  }

  /** Resolves when the join loop started by joinSeeds ends (this node a voter, or stopped); at once without one. */
  joined(): Promise<void> {
    return this.joinLoop;
  }

  private checkLeader(): void {
    if (this.stopped) throw new RaftNodeError('Stopped', 'the Raft node is stopped');
    if (this.isLeader()) return;
    throw new RaftNodeError('NotLeader', this.lead === '' ? `${this.id} is not the leader, and no leader is known` : `${this.id} is not the leader; the leader is ${this.lead}`);
  }

  /** Proposes one membership change at a time (the core refuses a second until the first applied). */
  private async changeMembership(cc: ConfChange): Promise<void> {
    if (this.changing) throw new RaftNodeError('ConfChangePending', 'another membership change is being applied; retry once it is');
    const change = this.proposeConfChange(cc);
    this.changing = change;
    try {
      await change;
    } finally {
      this.changing = null;
    }
  }

  /** This node's role in the configuration it applied (null: not a member). */
  private ownRole(): 'voter' | 'learner' | null {
    return this.members().find((m) => m.id === this.id)?.role ?? null;
  }

  /** Runs the join loop (joinSeeds) in the background; see RaftNodeOptions.joinSeeds. */
  private startJoining(seeds: readonly string[], logWasEmpty: boolean): void {
    const progress = (message: string, fields?: Record<string, unknown>): void => this.opts.onJoinProgress?.(message, fields);
    const role = this.ownRole();
    if (!logWasEmpty && role !== 'learner') {
      progress(`the Raft log is not empty (${role === 'voter' ? 'a voter' : 'kept from before'}): the join seeds are ignored`);
      return;
    }
    if (!logWasEmpty) progress('the Raft log is not empty and this node is a learner: asking to be promoted');
    else progress(`joining through ${seeds.join(', ')}`);
    const peerAddress = this.opts.peers[this.id] ?? this.opts.listen;
    this.joinLoop = joinGroup({
      id: this.id,
      peerAddress,
      ownRole: () => this.ownRole(),
      learn: (answer) => this.learnMembership(answer),
      ask: (address, request, signal) => askMembership(this.opts.tls, address, request, signal),
    }, seeds, progress, this.stopSignal.signal).then((refusal) => {
      if (refusal !== null && !this.stopped) this.opts.onEvent?.({ type: 'join-refused', reason: refusal });
    });
  }

  /**
   * A member that was added by an operator (`join` without seeds) never heard the cluster id: once
   * it is a member and knows its leader, it asks the leader with a Join, which changes nothing for
   * a member at its address and answers with the id and the members' addresses.
   */
  private maybeLearnClusterId(): void {
    if (this.clusterIdAskAt === Infinity) return;
    if (this.storage.clusterId() !== '') {
      this.clusterIdAskAt = Infinity; // every node but an operator-added one ends here at its first Ready
      return;
    }
    if (this.lead === '' || this.lead === this.id || Date.now() < this.clusterIdAskAt) return;
    const leaderAddress = this.addresses.get(this.lead);
    if (leaderAddress === undefined || this.ownRole() === null) return;
    this.clusterIdAskAt = Date.now() + limits.membershipCallTimeoutMs;
    const request = { kind: 'join' as const, name: this.id, peerAddress: this.addresses.get(this.id) ?? this.opts.listen };
    askMembership(this.opts.tls, leaderAddress, request, this.stopSignal.signal).then(
      (answer) => {
        if (answer.done) this.learnMembership(answer);
      },
      (err: unknown) => {
        if (!this.stopped) this.opts.onJoinProgress?.(`cannot learn the cluster id from the leader ${this.lead}: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }

  /** Takes in a leader's answer to Join/Promote: the cluster id (kept) and the members' addresses. */
  private learnMembership(answer: MembershipAnswer): void {
    if (this.stopped) return;
    const mine = this.storage.clusterId();
    if (answer.clusterId !== '' && mine === '') this.storage.setClusterId(answer.clusterId);
    else if (answer.clusterId !== '' && mine !== answer.clusterId) {
      this.opts.onError?.(new Error(`joined cluster ${answer.clusterId}, but this node's log belongs to cluster ${mine}`));
    }
    for (const [id, address] of Object.entries(answer.peerAddresses)) this.learnAddress(id, address);
  }

  private learnAddress(id: NodeId, address: string): void {
    if (address === '' || this.addresses.get(id) === address) return;
    this.addresses.set(id, address);
    if (id !== this.id) this.transport.setPeer(id, address);
    this.storage.setPeerAddress(id, address);
  }

  /** Takes a snapshot now and compacts the log behind it; resolves with its metadata (null if not newer). */
  compact(): Promise<SnapshotMetadata | null> {
    if (this.snapshotting) return this.snapshotting;
    this.snapshotting = takeSnapshot({
      storage: this.storage,
      stateMachine: this.opts.stateMachine,
      snapshotDir: join(this.opts.dataDir, 'snapshots'),
      confState: () => this.raw.status().confState,
      catchUpEntries: this.opts.snapshotCatchUpEntries ?? limits.snapshotCatchUpEntriesDefault,
      stopped: () => this.stopped,
    })
      .then((made) => {
        // Entries applied while the copy was made are not in it: they count towards the next one.
        if (made !== null && !this.stopped) this.appliedBytesSinceSnapshot = this.storage.entryBytesBetween(made.index, this.applied);
        return made;
      })
      .finally(() => {
        this.snapshotting = null;
      });
    return this.snapshotting;
  }

  /**
   * Stops timers, the transport and the log; fails pending requests with Stopped. Idempotent.
   * With `handOffMs`, a leader first hands leadership to its most caught-up follower (waiting
   * at most that long), so the group need not wait an election timeout.
   */
  stop(opts: { handOffMs?: number } = {}): Promise<void> {
    // A second call waits for the first one's end (the log closes only after a running fsync).
    this.stopping ??= this.stopOnce(opts);
    return this.stopping;
  }

  private async stopOnce(opts: { handOffMs?: number }): Promise<void> {
    this.stopSignal.abort();
    if (opts.handOffMs && this.isLeader()) {
      const followers = Object.entries(this.raw.status().progress).filter(([id]) => id !== this.id);
      const best = followers.sort((a, b) => b[1].match - a[1].match)[0];
      if (best) await this.transferLeadership(best[0], opts.handOffMs).catch(() => {});
    }
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.transport.stop();
    const err = new RaftNodeError('Stopped', 'the Raft node is stopped');
    this.proposals.failAll(err);
    this.reads.failAll(err);
    this.emit('stopped');
    await this.joinLoop;
    await this.snapshotting?.catch(() => null);
    await this.syncing?.catch(() => undefined);
    this.storage.close();
  }

  private tick(): void {
    this.ticks++;
    this.raw.tick();
    this.reads.onTick(this.ticks);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.handleReadies();
    });
  }

  private handleReadies(): void {
    // A held Ready must be advanced before the next one is taken.
    if (this.stopped || this.readyHeld) return;
    while (this.reads.wantsRound()) this.askReadIndex(this.reads.startRound(this.ticks));
    for (let n = 0; this.raw.hasReady(); n++) {
      if (n === limits.readiesPerTurnMax) {
        this.schedule(); // let timers and I/O run; continue on the next turn
        return;
      }
      const rd = this.raw.ready();
      this.observeCommits(rd);
      if (this.leadsAfter(rd) && rd.entries.length > 0 && rd.snapshot === null) {
        this.replicateThenPersist(rd);
        return;
      }
      if (rd.snapshot !== null && this.snapshotting !== null) {
        // A snapshot from the leader replaces the state machine's files, which the copy of the local
        // snapshot in progress may be opening: it waits for that one to end (then older, and dropped).
        this.holdReady(this.snapshotting.catch(() => null), () => this.handleReady(rd));
        return;
      }
      this.handleReady(rd);
      if (this.readyHeld) return; // the rest of it, and the next Ready, come after the hold
    }
  }

  /** Times this node's own proposals that `rd` commits. */
  private observeCommits(rd: Ready): void {
    const timings = this.opts.timings;
    if (timings === undefined || rd.committedEntries.length === 0) return;
    this.proposals.onCommitted(rd.committedEntries, performance.now(), (ms) => timings.committed(ms / 1000));
  }

  /** Whether this node leads once `rd`'s soft state is taken in. */
  private leadsAfter(rd: Ready): boolean {
    return (rd.softState?.role ?? this.role) === 'leader';
  }

  /**
   * A leader's new entries go to the followers before its own disk write: the leader's fsync
   * overlaps the network and the followers' fsyncs instead of preceding them. Safe because the
   * core counts the leader's own entries only at advance(), after the fsync (Raft thesis §10.2.1).
   */
  private replicateThenPersist(rd: Ready): void {
    // Proposals made while this Ready waits for its fsync belong to the next one: match this one's now.
    this.proposals.onAppended(rd.entries);
    this.sendToPeers(rd);
    this.handleReady(rd, { replicated: true });
  }

  /** Runs `then` once `until` resolves, taking no other Ready meanwhile. */
  private holdReady(until: Promise<unknown>, then: () => void): void {
    this.readyHeld = true;
    // Either way an error leaves this promise chain as an uncaught exception, as it did when a Ready
    // was handled in one synchronous step: the process stops rather than go on half-way.
    const crash = (err: unknown): void => process.nextTick(() => {
      throw err;
    });
    until.then(
      () => {
        this.readyHeld = false;
        if (this.stopped) return;
        try {
          then();
        } catch (err) {
          crash(err);
          return;
        }
        this.schedule();
      },
      // As etcd does when its WAL sync fails, even after stop(): nothing of this Ready may be
      // acknowledged, and an fsync is not retried (the kernel may have dropped the dirty pages).
      (err: unknown) => crash(new Error(`the Raft log could not be made durable: ${err instanceof Error ? err.message : String(err)}`, { cause: err })),
    );
  }

  /**
   * Sends `rd`'s messages for other nodes and writes them to the peer streams now (its own are
   * stepped after advance); whether there were any.
   */
  private sendToPeers(rd: Ready): boolean {
    const out = rd.messages.filter((m) => m.to !== this.id);
    if (out.length === 0) return false;
    this.transport.send(out);
    this.transport.flush();
    if (!this.sentThisTurn) {
      this.sentThisTurn = true;
      setImmediate(() => {
        this.sentThisTurn = false;
      });
    }
    return true;
  }

  /** Hands one read round to the core (which sends it to the leader); a refusal fails the round. */
  private askReadIndex(context: Uint8Array): void {
    try {
      this.raw.readIndex(context);
    } catch (err) {
      if (!(err instanceof RaftError)) throw err;
      this.reads.failRound(context, new RaftNodeError('Timeout', err.message));
    }
  }

  /**
   * Persist, then (after the fsync when the Ready must be durable) send, then (a turn later when
   * anything was sent and there is something to apply) apply, advance;
   * `replicated`: proposals were matched and messages sent when `rd` was taken.
   */
  private handleReady(rd: Ready, opts: { replicated: boolean } = { replicated: false }): void {
    const leaderChanged = rd.softState !== null && rd.softState.lead !== this.lead;
    if (rd.softState) {
      const previousRole = this.role;
      this.lead = rd.softState.lead;
      this.role = rd.softState.role;
      if (previousRole !== this.role) this.opts.onEvent?.({ type: 'role', role: this.role, previousRole, term: this.raw.status().term, leader: this.leaderId() });
    }
    if (!opts.replicated) this.proposals.onAppended(rd.entries);
    const lastEntry = rd.entries[rd.entries.length - 1];
    if (this.relayedToTake && lastEntry !== undefined) {
      this.relayedThrough = lastEntry.index;
      this.relayedToTake = false;
    }
    let replaced = '';
    if (rd.snapshot || rd.entries.length > 0 || rd.hardState) {
      replaced = this.storage.persist(rd);
      this.persistTransactions++;
      this.persistedEntries += rd.entries.length;
    }
    if (rd.mustSync) {
      const syncStarted = performance.now();
      this.syncing = this.storage.sync();
      this.holdReady(this.syncing, () => {
        this.opts.timings?.logSynced((performance.now() - syncStarted) / 1000);
        this.handleDurableReady(rd, opts, leaderChanged, replaced);
      });
      return;
    }
    this.handleDurableReady(rd, opts, leaderChanged, replaced);
  }

  /**
   * The part of handleReady that needs `rd` on disk: delete the snapshot file its snapshot replaced
   * (the durable one until then), install its snapshot, send, apply, advance.
   */
  private handleDurableReady(rd: Ready, opts: { replicated: boolean }, leaderChanged: boolean, replacedSnapshotFile: string): void {
    if (replacedSnapshotFile) void unlink(replacedSnapshotFile).catch(() => {});
    if (rd.snapshot) {
      this.opts.stateMachine.restore(snapshotPathOf(rd.snapshot), rd.snapshot.metadata);
      this.appliedBytesSinceSnapshot = 0;
      this.applied = rd.snapshot.metadata.index;
      this.proposals.onSnapshotApplied(this.applied);
    }
    // Out before applying: a commit reaches the followers (and an ack the leader) while this replica
    // applies. The apply waits a turn for them to leave when someone waits on them (othersWaitOn):
    // a follower that relayed a write answers only once it has the commit (5% faster follower
    // writes at one writer). During that turn, as during an fsync, the core refuses a leader's
    // snapshot (entries are handed out, not applied): the leader sends it again.
    // An earlier Ready of this turn may have sent too: a follower's answer, then the commit it
    // infers at advance() taken in the same loop of handleReadies.
    const sent = !opts.replicated && this.sendToPeers(rd);
    if ((sent || this.sentThisTurn) && rd.committedEntries.length > 0 && this.othersWaitOn(rd)) {
      this.holdReady(nextTurn(), () => this.finishReady(rd, leaderChanged));
      return;
    }
    this.finishReady(rd, leaderChanged);
  }

  /**
   * Whether `rd`'s messages should leave before its committed entries are applied: when another
   * replica waits on them. A follower's messages carry the acks the leader's next commit waits for.
   * A leader's carry the commit, which a follower's client waits for when that follower relayed one
   * of the entries; a read round's heartbeats or a follower's read answer; or entries for a follower.
   * Otherwise (the leader's own proposals, at one writer) the turn would only delay the answer to
   * the leader's own client, by 0.2 ms of a 2.5 ms write.
   */
  private othersWaitOn(rd: Ready): boolean {
    if (this.role !== 'leader') return true;
    const first = rd.committedEntries[0];
    if (first !== undefined && first.index <= this.relayedThrough) return true;
    return rd.messages.some((m) => m.to !== this.id && (m.type === 'readIndexResp' || (m.type === 'heartbeat' && m.context.byteLength > 0) || (m.type === 'app' && m.entries.length > 0)));
  }

  /** The end of a Ready: apply its committed entries, advance, then what follows from them. */
  private finishReady(rd: Ready, leaderChanged: boolean): void {
    this.applyCommitted(rd.committedEntries);
    this.reads.onReadStates(rd.readStates, this.applied);
    this.raw.advance(rd);
    for (const m of rd.messages) if (m.to === this.id) this.stepSafely(m);
    // Listeners run after advance, so whatever they propose lands in the next Ready.
    if (leaderChanged) {
      // Rounds sent to the previous leader may never be answered: ask the new one (their answers land in a later Ready).
      // A relayed command sent to the previous leader may be lost too: the new one gets it again (duplicates apply once).
      if (this.lead !== '') {
        for (const context of this.reads.restartRounds(this.ticks)) this.askReadIndex(context);
        for (const { data } of this.relayed) this.relay(data);
      }
      this.emit('leader-change', this.leaderId(), this.raw.status().term);
    }
    this.maybeSnapshot();
    this.maybeLearnClusterId();
  }

  private applyCommitted(entries: readonly Entry[]): void {
    const last = entries[entries.length - 1];
    if (!last) return;
    for (const e of entries) {
      if (e.type !== 'confChange') continue;
      const cc = decodeConfChange(e.data);
      const cs = this.raw.applyConfChange(cc);
      this.storage.setConfState(cs);
      this.updatePeers(cc);
      this.opts.onEvent?.({ type: 'membership', index: e.index, changes: cc.changes, configuration: cs });
      for (const change of cc.changes) {
        if (change.nodeId !== this.id) continue;
        this.removalAppliedAt = change.type === 'removeNode' ? e.index : 0;
      }
    }
    const applyStarted = performance.now();
    this.opts.stateMachine.apply(entries);
    this.opts.timings?.applied((performance.now() - applyStarted) / 1000);
    for (const e of entries) this.appliedBytesSinceSnapshot += e.data.byteLength;
    this.applied = last.index;
    this.proposals.onApplied(entries);
    this.reads.onApplied(this.applied);
    this.noticeOwnRemoval();
  }

  /**
   * Once this node has applied its own removal and everything committed after it (a node catching
   * up through an old removal of its name may be re-added later in the log), it records it and
   * says so: it will never hear from the group again (etcd's member stops the same way).
   */
  private noticeOwnRemoval(): void {
    const at = this.removalAppliedAt;
    if (at === 0) return;
    if (this.applied < this.raw.status().commit || this.ownRole() !== null) return;
    this.removalAppliedAt = 0;
    this.storage.markRemoved(at);
    this.opts.onEvent?.({ type: 'removed', index: index(at), clusterId: this.storage.clusterId() });
  }

  /** The index at which this node's removal applied in this process, not yet noticed (see noticeOwnRemoval); 0 if none. */
  private removalAppliedAt = 0;

  /** A change's context, when not empty, is the UTF-8 peer address of the node it adds. */
  private updatePeers(cc: ConfChange): void {
    const address = new TextDecoder().decode(cc.context);
    for (const change of cc.changes) {
      if (change.type === 'removeNode') {
        if (change.nodeId === this.id) continue;
        this.addresses.delete(change.nodeId);
        this.transport.removePeer(change.nodeId);
        this.storage.setPeerAddress(change.nodeId, null);
      } else if (address !== '') {
        this.learnAddress(change.nodeId, address);
      }
    }
  }

  private maybeSnapshot(): void {
    const every = this.opts.snapshotEveryEntries ?? limits.snapshotEveryEntriesDefault;
    const everyBytes = this.opts.snapshotEveryBytes ?? limits.snapshotEveryBytesDefault;
    if (every <= 0 || this.snapshotting || this.applied < this.snapshotRetryAt) return;
    if (this.applied - this.storage.snapshot().metadata.index < every && this.appliedBytesSinceSnapshot < everyBytes) return;
    this.compact().catch((err: unknown) => {
      // Each attempt copies the whole database: a failing one (a full disk) is not retried on every Ready.
      this.snapshotRetryAt = this.applied + Math.max(1, Math.floor(every / limits.snapshotRetriesPerInterval));
      this.opts.onError?.(err instanceof Error ? err : new Error(String(err)));
    });
  }

  private stepSafely(m: Message): void {
    if (this.stopped) return;
    try {
      if (!this.raw.step(m)) this.droppedRelayedProposals++;
      else if (m.type === 'prop' && m.from !== this.id) this.relayedToTake = true;
    } catch (err) {
      if (!(err instanceof RaftError)) throw err; // a stale or refused message: Raft tolerates loss
    }
  }

  private handlers(): TransportHandlers {
    return {
      onMessages: (messages) => {
        for (const m of messages) this.stepSafely(m);
        this.schedule();
      },
      onSnapshot: (message, filePath) => {
        if (this.stopped) return false;
        this.stepSafely(message);
        this.handleReadies();
        // Installed, or taken by the core and waiting for its turn: the file is needed either way.
        const pending = this.raw.unstableSnapshot();
        const accepted = this.storage.snapshotFilePath() === filePath || (pending !== null && snapshotPathOf(pending) === filePath);
        if (!accepted) void unlink(filePath).catch(() => {});
        return accepted;
      },
      onForward: (data) => this.handleForward(data),
      onMembershipRequest: (request) => answerMembershipRequest(this, request),
      onPeerGone: (peer) => {
        // The leader's connection closed, as a killed process's does at once: forgotten, it is
        // replaced within a tick or a few instead of a whole election timeout, once the other
        // followers have seen it go too (RawNode.forgetLeader).
        if (this.stopped || peer !== this.lead || this.role !== 'follower') return;
        this.raw.forgetLeader();
        this.schedule();
      },
      onUnreachable: (peer) => {
        if (this.stopped) return;
        this.raw.reportUnreachable(peer);
        this.schedule();
      },
      onSnapshotStatus: (peer, ok) => {
        if (this.stopped) return;
        this.raw.reportSnapshot(peer, ok);
        this.schedule();
      },
    };
  }
}
