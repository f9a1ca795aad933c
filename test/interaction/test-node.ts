/**
 * One scripted node: its durable storage ("disk"), its in-memory state machine (the list of
 * applied commands), and the RawNode when it is up. Handling a Ready follows the driver's
 * order: persist snapshot, entries and hard state, then send, then apply, then advance.
 * A crash loses the state machine: a restart rebuilds it from the storage's snapshot and lets
 * the core hand the committed entries after it out again (conf changes included), so the
 * storage's membership is only ever the snapshot's.
 */
import { RaftError, RawNode, decodeConfChange, index } from '../../raft/core/index.ts';
import type { ConfState, Entry, Index, MemoryStorage, Message, NodeId, PlantedBugs, Ready } from '../../raft/core/index.ts';
import { describeConfState, describeReady } from './describe.ts';
import { nodeSeed, seededRandom } from './rng.ts';

/** The per-node settings a script may choose (on add-nodes and restart). */
export interface NodeOptions {
  readonly preVote: boolean;
  readonly checkQuorum: boolean;
  readonly electionTicks: number;
  readonly heartbeatTicks: number;
  readonly maxSizePerMsgBytes: number;
  readonly maxInflightMsgs: number;
  readonly bugs: PlantedBugs;
}

/** A command applied to the state machine, kept with its index so snapshots can cut at any point. */
interface Applied {
  readonly index: Index;
  readonly data: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A node of the scripted cluster. `raw` is null while the node is crashed. */
export class TestNode {
  raw: RawNode | null = null;
  applied: Index;
  private machine: Applied[] = [];
  private restarts = 0;

  /** Starts the node on `storage`, whose contents the state machine has applied up to `applied`. */
  constructor(
    readonly id: NodeId,
    readonly storage: MemoryStorage,
    public options: NodeOptions,
    applied: Index,
  ) {
    this.applied = applied;
    this.start();
  }

  /** Rebuilds the state machine from the durable snapshot and starts a fresh RawNode on the storage. */
  restart(): void {
    const snap = this.storage.snapshot();
    this.machine = snap.data.length === 0 ? [] : (JSON.parse(decoder.decode(snap.data)) as Applied[]);
    this.applied = snap.metadata.index;
    this.start();
  }

  private start(): void {
    this.raw = new RawNode({
      id: this.id,
      storage: this.storage,
      applied: this.applied,
      electionTicks: this.options.electionTicks,
      heartbeatTicks: this.options.heartbeatTicks,
      maxSizePerMsgBytes: this.options.maxSizePerMsgBytes,
      maxInflightMsgs: this.options.maxInflightMsgs,
      preVote: this.options.preVote,
      checkQuorum: this.options.checkQuorum,
      random: seededRandom(nodeSeed(this.id, this.restarts++)),
      bugs: this.options.bugs,
    });
  }

  /** The running RawNode; throws naming the node when it is crashed. */
  up(): RawNode {
    if (this.raw === null) throw new Error(`node ${this.id} is crashed`);
    return this.raw;
  }

  /** The applied commands, oldest first. */
  appliedData(): string[] {
    return this.machine.map((a) => a.data);
  }

  /** Handles one Ready; returns its description (and what applying it did) and the messages to send. */
  handleReady(): { lines: string[]; messages: readonly Message[] } {
    const raw = this.up();
    const rd = raw.ready();
    const lines = describeReady(rd);
    this.persist(rd);
    for (const e of rd.committedEntries) lines.push(...this.apply(raw, e));
    raw.advance(rd);
    return { lines, messages: rd.messages };
  }

  /** A snapshot of the state machine at `at` (<= applied), made durable and the log compacted up to it. */
  compact(at: Index, confState: ConfState): void {
    if (at > this.applied) throw new Error(`compact ${at}: node ${this.id} has applied only ${this.applied}`);
    const data = this.machine.filter((a) => a.index <= at);
    this.storage.createSnapshot(at, confState, encoder.encode(JSON.stringify(data)));
    this.storage.compact(at);
  }

  private persist(rd: Ready): void {
    if (rd.snapshot) {
      this.storage.applySnapshot(rd.snapshot);
      this.machine = rd.snapshot.data.length === 0 ? [] : (JSON.parse(decoder.decode(rd.snapshot.data)) as Applied[]);
      this.applied = rd.snapshot.metadata.index;
    }
    this.storage.append(rd.entries);
    if (rd.hardState) this.storage.setHardState(rd.hardState);
  }

  private apply(raw: RawNode, e: Entry): string[] {
    if (e.index !== this.applied + 1) throw new Error(`assert: node ${this.id} applies ${e.index} after ${this.applied}`);
    this.applied = index(e.index);
    if (e.type === 'normal') {
      if (e.data.length > 0) this.machine.push({ index: e.index, data: decoder.decode(e.data) });
      return [];
    }
    try {
      const cs = raw.applyConfChange(decodeConfChange(e.data));
      return [`applied conf change at ${e.index}: ${describeConfState(cs)}`];
    } catch (err) {
      if (err instanceof RaftError) return [`error applying conf change at ${e.index}: ${err.code}`];
      throw err;
    }
  }
}
