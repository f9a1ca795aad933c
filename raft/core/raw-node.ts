import type { RaftConfig } from './config.ts';
import { encodeConfChange } from './conf-change-codec.ts';
import { coalesceProposals, isLocalOnly, makeMessage } from './message.ts';
import { Raft } from './raft.ts';
import type { ProgressStatus, RaftStatus } from './status.ts';
import { flushAppends, flushReadRound } from './step-leader.ts';
import { RaftError, index, term } from './types.ts';
import type { ConfChange, ConfState, EntryType, HardState, Message, NodeId, Ready, Snapshot, SoftState } from './types.ts';

/**
 * The API of the Raft core (etcd's RawNode): inputs go in through tick/step/propose/...,
 * outputs come out as Ready batches. Synchronous and deterministic; not thread-safe by design.
 * Ready contract: persist snapshot, entries and hardState, then send messages, then apply
 * committedEntries and answer readStates, then call advance(rd) before the next ready().
 * One exception (Raft thesis §10.2.1): while this node leads, its messages may be sent before
 * the Ready is persisted, because a leader counts its own entries only once advance(rd) says
 * they are durable. Steps (incoming messages, proposals) may come between ready() and advance().
 */
export class RawNode {
  private readonly r: Raft;
  private prevSoft: SoftState;
  private prevHard: HardState;

  /** Builds a node from its durable storage; see RaftConfig. */
  constructor(config: RaftConfig) {
    this.r = new Raft(config);
    this.prevSoft = this.softState();
    this.prevHard = config.storage.initialState().hardState;
  }

  /** Advances the logical clock by one tick (elections, heartbeats, checkQuorum). */
  tick(): void {
    this.r.tick();
  }

  /** Starts an election now (pre-vote first when enabled). */
  campaign(): void {
    this.r.step(makeMessage({ type: 'hup', from: this.r.id }));
  }

  /**
   * Tells a follower that its leader is gone (its connection closed): it forgets the leader, grants
   * pre-votes at once and campaigns in its turn among the other voters (forgetCampaignDelayTicks:
   * the first in id order at the next tick). Leaders and candidates ignore it. When a quorum of followers forget a dead leader they elect the next one without waiting
   * out an election timeout.
   */
  forgetLeader(): void {
    this.r.step(makeMessage({ type: 'forgetLeader', from: this.r.id }));
  }

  /**
   * Proposes a command; throws RaftError('ProposalDropped') when no leader is known, a transfer is
   * under way, or (on the leader) the entries not yet committed hold maxUncommittedEntriesBytes.
   */
  propose(data: Uint8Array): void {
    this.proposeEntry('normal', data);
  }

  /** Proposes a membership change; the leader throws RaftError('ConfChangePending') while one is not applied. */
  proposeConfChange(cc: ConfChange): void {
    this.proposeEntry('confChange', encodeConfChange(cc));
  }

  private proposeEntry(type: EntryType, data: Uint8Array): void {
    const entries = [{ term: term(0), index: index(0), type, data }];
    this.r.step(makeMessage({ type: 'prop', from: this.r.id, entries }));
  }

  /** Applies a committed conf change (the driver calls it when applying a 'confChange' entry). */
  applyConfChange(cc: ConfChange): ConfState {
    return this.r.applyConfChange(cc);
  }

  /**
   * Handles a message from the network; false when it was a forwarded proposal this node dropped
   * (not the leader, or past the cap on uncommitted bytes): its proposer retries. Local-only types
   * are refused (assert).
   */
  step(m: Message): boolean {
    if (isLocalOnly(m.type)) throw new Error(`assert: local message type ${m.type} from the network`);
    try {
      this.r.step(m);
      return true;
    } catch (e) {
      if (e instanceof RaftError && m.type === 'prop') return false;
      throw e;
    }
  }

  /** Requests a linearizable read; a ReadState with `context` appears in a later Ready. */
  readIndex(context: Uint8Array): void {
    this.r.step(makeMessage({ type: 'readIndex', from: this.r.id, context }));
  }

  /** Asks the leader (this node or the one it knows) to hand leadership to `to`. */
  transferLeadership(to: NodeId): void {
    this.r.step(makeMessage({ type: 'transferLeader', from: to }));
  }

  /** Tells the leader that `id` could not be reached (it stops streaming to it). */
  reportUnreachable(id: NodeId): void {
    this.r.step(makeMessage({ type: 'unreachable', from: id }));
  }

  /** Tells the leader how sending a snapshot to `id` ended. */
  reportSnapshot(id: NodeId, ok: boolean): void {
    this.r.step(makeMessage({ type: 'snapStatus', from: id, reject: !ok }));
  }

  /** Whether ready() would return anything to do. */
  hasReady(): boolean {
    const r = this.r;
    if (!sameSoft(this.softState(), this.prevSoft)) return true;
    if (!sameHard(this.hardStateToEmit(), this.prevHard)) return true;
    if (r.log.unstable.snapshot !== null || r.log.unstable.entries.length > 0) return true;
    if (r.msgs.length > 0 || r.readStates.length > 0) return true;
    if (r.role === 'leader' && (r.readOnly.hasUnsentRound() || r.appendsPending || r.commitPending || r.durablePending)) return true;
    return r.log.hasNextCommittedEntries();
  }

  /** Takes the next batch of work; the caller must handle it and call advance(rd). */
  ready(): Ready {
    const r = this.r;
    flushAppends(r);
    flushReadRound(r);
    const soft = this.softState();
    const hard = this.hardStateToEmit();
    const entries = [...r.log.unstable.entries];
    const snapshot = r.log.unstable.snapshot;
    const rd: Ready = {
      softState: sameSoft(soft, this.prevSoft) ? null : soft,
      hardState: sameHard(hard, this.prevHard) ? null : hard,
      entries,
      snapshot,
      committedEntries: r.log.nextCommittedEntries(),
      messages: coalesceProposals(r.msgs, r.maxMsgBytes),
      readStates: r.readStates,
      mustSync: entries.length > 0 || snapshot !== null || hard.term !== this.prevHard.term || hard.vote !== this.prevHard.vote,
    };
    this.prevSoft = soft;
    this.prevHard = hard;
    r.msgs = [];
    r.readStates = [];
    const lastCommitted = rd.committedEntries[rd.committedEntries.length - 1];
    if (lastCommitted !== undefined) r.log.applyingTo(lastCommitted.index);
    // Handed out committed: they no longer count against the leader's cap (as etcd's acceptReady).
    r.uncommitted.release(rd.committedEntries);
    return rd;
  }

  /** Records that rd was persisted, sent and applied; a leader counts the entries it persisted for itself from now on. */
  advance(rd: Ready): void {
    const r = this.r;
    const lastEntry = rd.entries[rd.entries.length - 1];
    if (lastEntry !== undefined) {
      r.log.stableTo(lastEntry.index, lastEntry.term);
      // Only now are the leader's own entries durable, so only now do they count towards a commit.
      r.ackOwnAppend(lastEntry.index, lastEntry.term);
      // A follower's likewise: with what its leader told, they may be known committed.
      r.inferCommit();
    }
    if (rd.snapshot !== null) {
      r.log.stableSnapTo(rd.snapshot.metadata.index);
      r.log.appliedTo(rd.snapshot.metadata.index);
    }
    const lastCommitted = rd.committedEntries[rd.committedEntries.length - 1];
    if (lastCommitted !== undefined) r.log.appliedTo(lastCommitted.index);
    r.maybeAutoLeave();
  }

  /** A snapshot from the leader that the core took and the driver has not yet persisted (advanced), or null. */
  unstableSnapshot(): Snapshot | null {
    return this.r.log.unstable.snapshot;
  }

  /** The node's current state; `progress` is filled on the leader only. */
  status(): RaftStatus {
    const r = this.r;
    const progress: Record<NodeId, ProgressStatus> = {};
    if (r.role === 'leader') {
      for (const [id, pr] of r.trk.progress) progress[id] = { match: pr.match, next: pr.next, state: pr.state };
    }
    return {
      id: r.id,
      term: r.term,
      vote: r.vote,
      commit: r.log.committed,
      applied: r.log.applied,
      lead: r.lead,
      role: r.role,
      confState: r.confState(),
      progress,
      leadTransferee: r.leadTransferee,
    };
  }

  private softState(): SoftState {
    return { lead: this.r.lead, role: this.r.role };
  }

  private hardStateToEmit(): HardState {
    const r = this.r;
    const hs: HardState = { term: r.term, vote: r.vote, commit: r.log.committed };
    if (r.bugs.voteNotPersisted === true && hs.vote !== '' && hs.vote !== this.prevHard.vote) {
      // Planted bug: the new vote never reaches the durable hard state.
      return { ...hs, vote: this.prevHard.vote };
    }
    return hs;
  }
}

function sameSoft(a: SoftState, b: SoftState): boolean {
  return a.lead === b.lead && a.role === b.role;
}

function sameHard(a: HardState, b: HardState): boolean {
  return a.term === b.term && a.vote === b.vote && a.commit === b.commit;
}
