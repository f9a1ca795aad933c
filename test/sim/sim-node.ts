/**
 * One simulated server: a RawNode (volatile) over a MemoryStorage "disk" (durable) and an
 * in-memory state machine. It handles Ready batches in the contract order and can crash at
 * the points a real process can: between steps, after persisting, after sending.
 */
import { decodeConfChange } from '../../raft/core/conf-change-codec.ts';
import type { RaftConfig } from '../../raft/core/config.ts';
import type { MemoryStorage } from '../../raft/core/memory-storage.ts';
import { RawNode } from '../../raft/core/raw-node.ts';
import { index } from '../../raft/core/types.ts';
import type { ConfState, Entry, Message, NodeId, ReadState, Ready, Role } from '../../raft/core/types.ts';
import { SimViolation, entryKey } from './invariants.ts';
import type { Invariants } from './invariants.ts';

/** Where inside one Ready a node may die ('sentBeforePersist': a leader whose appends left before its own disk write). */
export type CrashPoint = 'afterPersist' | 'afterSend' | 'sentBeforePersist';

/** What a node needs from the cluster around it. */
export interface NodeEnv {
  readonly invariants: Invariants;
  /** Puts a message on the network. */
  send(m: Message): void;
  /** Steps a Ready's fsync takes, during which messages and proposals are still stepped (drawn from the fault stream; 0 = at once). */
  persistLagSteps(node: NodeId): number;
  /** Whether the process dies at `point` while handling `rd` (drawn from the fault stream). */
  crashesAt(node: NodeId, point: CrashPoint, rd: Ready): boolean;
  /** A ReadState came out of a Ready. */
  readAnswered(node: NodeId, rs: ReadState): void;
  /** An entry was applied to the state machine. */
  applied(node: NodeId, e: Entry): void;
}

/** The RaftConfig fields the simulation chooses per seed (the rest comes from the node). */
export type NodeRaftSettings = Omit<RaftConfig, 'id' | 'storage' | 'applied' | 'random'>;

/** A bound on Ready rounds per step (one committed entry per Ready is possible); more means a livelock. */
const readyRoundsMax = 10_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Encodes a state machine (applied entry keys) as snapshot data. */
export function encodeStateMachine(keys: readonly string[]): Uint8Array {
  return encoder.encode(JSON.stringify(keys));
}

/** Decodes snapshot data back into applied entry keys (empty data is the empty state machine). */
export function decodeStateMachine(data: Uint8Array): string[] {
  return data.length === 0 ? [] : (JSON.parse(decoder.decode(data)) as string[]);
}

/** A server of the simulated cluster. `raw` is null while the process is down. */
export class SimNode {
  raw: RawNode | null = null;
  /** Applied entry keys; stateMachine[i] is index i + 1. */
  stateMachine: string[] = [];
  applied = 0;
  confState: ConfState;
  role: Role = 'follower';
  lead: NodeId = '';
  /** The term of the leadership this node holds, when role is leader. */
  leaderTerm = 0;
  /** A Ready waiting `steps` more steps for its fsync, as raft/node.ts holds one (lost in a crash); `sent`: its messages already left (a leader's new entries). */
  private unpersisted: { rd: Ready; steps: number; sent: boolean } | null = null;

  /** A server whose disk is `disk`; it is down until start(). */
  constructor(
    readonly id: NodeId,
    readonly disk: MemoryStorage,
    private readonly settings: NodeRaftSettings,
    private readonly random: () => number,
    private readonly env: NodeEnv,
  ) {
    this.confState = disk.initialState().confState;
  }

  /** Whether the process is running. */
  get alive(): boolean {
    return this.raw !== null;
  }

  /** Starts (or restarts) the process from its disk only: state machine from the snapshot. */
  start(): void {
    if (this.raw !== null) throw new Error(`assert: ${this.id} is already running`);
    const snap = this.disk.snapshot();
    this.stateMachine = decodeStateMachine(snap.data);
    this.applied = snap.metadata.index;
    this.confState = snap.metadata.confState;
    this.role = 'follower';
    this.lead = '';
    this.raw = new RawNode({
      ...this.settings,
      id: this.id,
      storage: this.disk,
      applied: index(this.applied),
      random: this.random,
    });
  }

  /** Kills the process: everything but the disk is lost. */
  crash(): void {
    this.raw = null;
    this.unpersisted = null;
    this.stateMachine = [];
    this.role = 'follower';
    this.lead = '';
    this.env.invariants.notLeader(this.id);
  }

  /** Handles Ready batches until none is left; returns false if the process died doing so. */
  handleReadies(): boolean {
    const lagging = this.unpersisted;
    if (lagging !== null) {
      if (lagging.steps > 0) {
        lagging.steps--;
        return true;
      }
      this.unpersisted = null;
      if (this.raw === null || !this.finish(this.raw, lagging.rd, lagging.sent)) return false;
    }
    for (let round = 0; round < readyRoundsMax; round++) {
      const raw = this.raw;
      if (raw === null) return false;
      if (!raw.hasReady()) return true;
      if (!this.handleOne(raw, raw.ready())) return false;
      if (this.unpersisted !== null) return true;
    }
    throw new SimViolation('ready loop', `${this.id} still has a Ready after ${readyRoundsMax} rounds`);
  }

  /** Snapshots the state machine at `applied` into the disk and drops the log up to `applied - keepEntries`; false if nothing new. */
  compact(keepEntries: number): boolean {
    const snapIndex = this.disk.snapshot().metadata.index;
    if (this.raw === null || this.applied <= snapIndex) return false;
    this.disk.createSnapshot(index(this.applied), this.confState, encodeStateMachine(this.stateMachine));
    const to = this.applied - keepEntries;
    if (to >= this.disk.firstIndex()) this.disk.compact(index(to));
    return true;
  }

  private handleOne(raw: RawNode, rd: Ready): boolean {
    // As raft/node.ts: a leader sends its new entries before writing them (Raft thesis §10.2.1).
    const sendsFirst = (rd.softState?.role ?? this.role) === 'leader' && rd.entries.length > 0 && rd.snapshot === null;
    if (sendsFirst) {
      this.sendAll(rd);
      if (this.env.crashesAt(this.id, 'sentBeforePersist', rd)) return this.die();
    }
    // A slow disk: as raft/node.ts while its fsync runs, any node steps messages (even acks of these
    // entries) and takes proposals before the Ready lands; a crash meanwhile loses it.
    const steps = rd.mustSync ? this.env.persistLagSteps(this.id) : 0;
    if (steps > 0) {
      this.unpersisted = { rd, steps: steps - 1, sent: sendsFirst };
      return true;
    }
    return this.finish(raw, rd, sendsFirst);
  }

  /** The rest of a Ready from the persist on; `sent`: its messages already left. */
  private finish(raw: RawNode, rd: Ready, sent: boolean): boolean {
    this.persist(rd);
    if (rd.softState !== null) this.noteSoftState(rd.softState.role, rd.softState.lead);
    else if (this.role === 'leader' && this.disk.initialState().hardState.term !== this.leaderTerm) {
      // Stepped down and won again between two Readies: still a new leadership to check.
      this.noteSoftState('leader', this.id);
    }
    if (this.env.crashesAt(this.id, 'afterPersist', rd)) return this.die();
    if (!sent) {
      this.sendAll(rd);
      if (this.env.crashesAt(this.id, 'afterSend', rd)) return this.die();
    }
    for (const e of rd.committedEntries) this.apply(raw, e);
    for (const rs of rd.readStates) this.env.readAnswered(this.id, rs);
    raw.advance(rd);
    return true;
  }

  private sendAll(rd: Ready): void {
    for (const m of rd.messages) {
      if (m.type === 'voteResp' && !m.reject) this.env.invariants.voteGranted(m.from, m.to, m.term);
      this.env.send(m);
    }
  }

  private persist(rd: Ready): void {
    const inv = this.env.invariants;
    if (rd.snapshot !== null) {
      this.disk.applySnapshot(rd.snapshot);
      this.stateMachine = decodeStateMachine(rd.snapshot.data);
      this.applied = rd.snapshot.metadata.index;
      this.confState = rd.snapshot.metadata.confState;
      inv.snapshotInstalled(this.id, rd.snapshot, this.stateMachine);
    }
    if (rd.entries.length > 0) {
      this.disk.append(rd.entries);
      inv.persisted(this.id, rd.entries, this.disk);
    }
    if (rd.hardState !== null) {
      inv.hardState(this.id, this.disk.initialState().hardState, rd.hardState, this.disk);
      this.disk.setHardState(rd.hardState);
    }
  }

  private noteSoftState(role: Role, lead: NodeId): void {
    const wasLeader = this.role === 'leader';
    this.role = role;
    this.lead = lead;
    if (role === 'leader') {
      this.leaderTerm = this.disk.initialState().hardState.term;
      this.env.invariants.becameLeader(this.id, this.leaderTerm, this.disk);
    } else if (wasLeader) {
      this.env.invariants.notLeader(this.id);
    }
  }

  private apply(raw: RawNode, e: Entry): void {
    if (e.index !== this.applied + 1) {
      throw new SimViolation('apply order', `${this.id} applied ${this.applied}, then got committed entry ${e.index}`);
    }
    this.env.invariants.applied(this.id, e, this.disk.initialState().hardState.commit);
    if (e.type === 'confChange') this.confState = raw.applyConfChange(decodeConfChange(e.data));
    this.stateMachine.push(entryKey(e));
    this.applied = e.index;
    this.env.applied(this.id, e);
  }

  private die(): false {
    this.crash();
    return false;
  }
}
