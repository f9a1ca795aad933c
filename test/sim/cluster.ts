/**
 * The simulated cluster: the nodes, the network between them, the invariants watching them
 * and the clients using them. One step = deliver due messages, tick every live node once,
 * handle every node's Readies. Everything random comes from the seed's derived streams.
 */
import { MemoryStorage } from '../../raft/core/memory-storage.ts';
import { RaftError } from '../../raft/core/types.ts';
import type { ConfChangeSingle, ConfState, Entry, Message, NodeId, PlantedBugs, ReadState, Ready } from '../../raft/core/types.ts';
import { Invariants, SimViolation } from './invariants.ts';
import { Network } from './network.ts';
import type { Rng} from './rng.ts';
import { hashString } from './rng.ts';
import { SimNode } from './sim-node.ts';
import type { CrashPoint } from './sim-node.ts';
import type { FaultPlan } from './faults.ts';

/** Most steps a Ready's fsync may take (the driver fsyncs off the event loop, stepping messages meanwhile). */
const persistLagStepsMax = 3;
/** How often a Ready's fsync lags at all (a slow disk now and then, not always). */
const persistLagChance = 0.2;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Counters a run reports. */
export interface ClusterStats {
  crashes: number;
  restarts: number;
  proposalsAccepted: number;
  proposalsDropped: number;
  readsAsked: number;
  readsAnswered: number;
  confChanges: number;
  transfers: number;
  leadersForgotten: number;
  snapshots: number;
  messagesDelivered: number;
  highestLeaderTerm: number;
}

/** N voters plus one spare node (a non-member that membership changes can add). */
export class Cluster {
  readonly nodes: SimNode[] = [];
  readonly network: Network;
  readonly invariants = new Invariants();
  readonly stats: ClusterStats = {
    crashes: 0, restarts: 0, proposalsAccepted: 0, proposalsDropped: 0, readsAsked: 0, readsAnswered: 0,
    confChanges: 0, transfers: 0, leadersForgotten: 0, snapshots: 0, messagesDelivered: 0, highestLeaderTerm: 0,
  };
  /** Proposal ids whose propose() call was accepted, and those applied by some node. */
  readonly accepted = new Set<number>();
  readonly appliedIds = new Set<number>();
  readonly answeredReads = new Set<string>();
  now = 0;
  /** Whether Ready-time crashes may happen (off in the liveness phase). */
  chaos = true;
  private traceHash = 0x811c9dc5;
  private nextRequestId = 1;
  private readonly faults: Rng;
  private readonly reports: (() => void)[] = [];

  /** Builds and starts the cluster described by `plan`; nodes are n1..n{voters+1}. */
  constructor(
    rng: Rng,
    voters: number,
    readonly plan: FaultPlan,
    bugs: PlantedBugs | undefined,
  ) {
    this.network = new Network(rng.derive('network'), plan.network);
    this.faults = rng.derive('ready-faults');
    const ids = Array.from({ length: voters + 1 }, (_, i) => `n${i + 1}`);
    const initial: ConfState = { voters: ids.slice(0, voters), learners: [], votersOutgoing: [], learnersNext: [], autoLeave: false };
    const env = {
      invariants: this.invariants,
      send: (m: Message) => this.send(m),
      crashesAt: (id: NodeId, point: CrashPoint, rd: Ready) => this.crashesAt(id, point, rd),
      persistLagSteps: () => (this.faults.chance(persistLagChance) ? this.faults.between(1, persistLagStepsMax) : 0),
      readAnswered: (id: NodeId, rs: ReadState) => this.readAnswered(id, rs),
      applied: (id: NodeId, e: Entry) => this.noteApplied(id, e),
    };
    for (const id of ids) {
      const nodeRng = rng.derive(`node-${id}`);
      const settings = bugs === undefined ? plan.raft : { ...plan.raft, bugs };
      const node = new SimNode(id, new MemoryStorage({ confState: initial }), settings, () => nodeRng.next(), env);
      node.start();
      this.nodes.push(node);
    }
  }

  /** One simulation step. Throws SimViolation when an invariant breaks. */
  step(): void {
    this.now++;
    for (const report of this.reports.splice(0)) report();
    const { delivered, dropped } = this.network.takeDue(this.now);
    for (const m of dropped) this.lost(m);
    for (const m of delivered) this.deliver(m);
    for (const n of this.nodes) n.raw?.tick();
    for (const n of this.nodes) this.handle(n);
    this.mix(`t${this.now}`);
  }

  /** The live leader with the highest term, if any. */
  leader(): SimNode | undefined {
    let best: SimNode | undefined;
    for (const n of this.nodes) {
      if (n.alive && n.role === 'leader' && (best === undefined || n.leaderTerm > best.leaderTerm)) best = n;
    }
    return best;
  }

  /** Node by id; asserts it exists. */
  node(id: NodeId): SimNode {
    const n = this.nodes.find((x) => x.id === id);
    if (n === undefined) throw new Error(`assert: no node ${id}`);
    return n;
  }

  /** Kills a node's process (its disk survives). */
  crash(n: SimNode): void {
    if (!n.alive) return;
    n.crash();
    this.network.dropFrom(n.id);
    this.stats.crashes++;
    this.mix(`crash ${n.id}`);
  }

  /** Restarts a dead node from its disk. */
  restart(n: SimNode): void {
    if (n.alive) return;
    n.start();
    this.stats.restarts++;
    this.mix(`restart ${n.id}`);
    this.handle(n);
  }

  /** A client proposes a new command at `n`; returns its id if the core accepted it. */
  propose(n: SimNode, id = this.nextRequestId++): number | undefined {
    const ok = this.call(n, (raw) => raw.propose(encoder.encode(`p${id}`)));
    if (ok) {
      this.accepted.add(id);
      this.stats.proposalsAccepted++;
    } else this.stats.proposalsDropped++;
    this.handle(n);
    return ok ? id : undefined;
  }

  /** A client asks `n` for a linearizable read; returns its context. */
  read(n: SimNode): string {
    const context = `r${this.nextRequestId++}`;
    this.invariants.readRequested(context);
    this.stats.readsAsked++;
    this.call(n, (raw) => raw.readIndex(encoder.encode(context)));
    this.handle(n);
    return context;
  }

  /** Asks the leader to hand leadership to `to`. */
  transfer(leader: SimNode, to: NodeId): void {
    this.stats.transfers++;
    this.call(leader, (raw) => raw.transferLeadership(to));
    this.handle(leader);
  }

  /** Tells `n` its leader is gone, as the replica's failure detector does (raw.forgetLeader). */
  forgetLeader(n: SimNode): void {
    this.stats.leadersForgotten++;
    this.call(n, (raw) => raw.forgetLeader());
    this.handle(n);
    this.mix(`forget ${n.id}`);
  }

  /** Proposes a membership change at the leader (several changes: a joint one); true if the core accepted it. */
  changeMembership(leader: SimNode, changes: ConfChangeSingle[]): boolean {
    const ok = this.call(leader, (raw) => raw.proposeConfChange({ changes, context: new Uint8Array(0) }));
    if (ok) this.stats.confChanges++;
    this.mix(`cc ${changes.map((ch) => `${ch.type} ${ch.nodeId}`).join(',')} ${ok}`);
    this.handle(leader);
    return ok;
  }

  /** Snapshots and compacts `n`'s log, keeping a few entries; no-op when nothing new is applied. */
  compact(n: SimNode, keepEntries: number): void {
    if (n.compact(keepEntries)) this.stats.snapshots++;
  }

  /** A hash of everything that happened so far: equal hashes mean identical runs. */
  trace(): string {
    return this.traceHash.toString(16).padStart(8, '0');
  }

  /** Mixes an event into the trace hash. */
  mix(event: string): void {
    this.traceHash = hashString(event, this.traceHash);
  }

  private call(n: SimNode, f: (raw: NonNullable<SimNode['raw']>) => void): boolean {
    if (n.raw === null) return false;
    try {
      f(n.raw);
      return true;
    } catch (e) {
      if (e instanceof RaftError) return false;
      throw e;
    }
  }

  private handle(n: SimNode): void {
    if (n.alive && !n.handleReadies()) {
      this.stats.crashes++;
      this.mix(`ready-crash ${n.id}`);
    }
    if (n.role === 'leader' && n.leaderTerm !== 0) this.stats.highestLeaderTerm = Math.max(this.stats.highestLeaderTerm, n.leaderTerm);
  }

  private send(m: Message): void {
    if (this.network.send(m, this.now) === 'dropped') this.lost(m);
  }

  private deliver(m: Message): void {
    const to = this.nodes.find((n) => n.id === m.to);
    if (to === undefined || to.raw === null) {
      this.lost(m);
      return;
    }
    this.stats.messagesDelivered++;
    this.mix(`${m.type}${m.from}${m.to}${m.term}.${m.index}.${m.logTerm}.${m.entries.length}.${m.commit}${m.reject ? 'r' : ''}`);
    if (m.type === 'snap') this.report(m.from, (raw) => raw.reportSnapshot(m.to, true));
    this.call(to, (raw) => raw.step(m));
  }

  private lost(m: Message): void {
    if (m.type === 'snap') this.report(m.from, (raw) => raw.reportSnapshot(m.to, false));
    else if (this.network.isCut(m.from, m.to)) this.report(m.from, (raw) => raw.reportUnreachable(m.to));
  }

  /** Transport feedback reaches the sender at the start of the next step, never inside a Ready. */
  private report(from: NodeId, f: (raw: NonNullable<SimNode['raw']>) => void): void {
    const n = this.nodes.find((x) => x.id === from);
    if (n !== undefined) this.reports.push(() => void this.call(n, f));
  }

  private crashesAt(id: NodeId, point: CrashPoint, rd: Ready): boolean {
    if (!this.chaos || rd.messages.length === 0) return false;
    const p = point === 'sentBeforePersist' ? this.plan.leaderCrashAfterPersist
      : point === 'afterPersist'
      ? (this.node(id).role === 'leader' ? this.plan.leaderCrashAfterPersist : this.plan.crashAfterPersist)
      : rd.messages.some((m) => m.type === 'voteResp' && !m.reject) ? this.plan.crashAfterVote : 0;
    if (!this.faults.chance(p)) return false;
    this.mix(`die ${id} ${point}`);
    this.invariants.notLeader(id);
    return true;
  }

  private readAnswered(id: NodeId, rs: ReadState): void {
    const context = decoder.decode(rs.requestContext);
    this.invariants.readAnswered(id, context, rs.index);
    this.answeredReads.add(context);
    this.stats.readsAnswered++;
  }

  private noteApplied(id: NodeId, e: Entry): void {
    if (e.type === 'normal' && e.data.length > 0) {
      const text = decoder.decode(e.data);
      if (!text.startsWith('p')) throw new SimViolation('state machine', `${id} applied unknown command ${text}`);
      this.appliedIds.add(Number(text.slice(1)));
    }
  }
}
