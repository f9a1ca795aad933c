// A tiny deterministic network of RawNodes for the core's unit tests: it plays the driver
// (persist -> send -> apply -> advance) for every node and delivers messages in FIFO order.
import {
  MemoryStorage,
  RawNode,
  decodeConfChange,
  index,
} from '../../../../raft/core/index.ts';
import type { ConfState, Entry, Message, NodeId, PlantedBugs, RaftConfig, ReadState } from '../../../../raft/core/index.ts';

/** Options of a test network. */
export interface NetOptions {
  preVote?: boolean;
  checkQuorum?: boolean;
  bugs?: PlantedBugs;
  learners?: NodeId[];
  maxInflightMsgs?: number;
  maxSizePerMsgBytes?: number;
  maxUncommittedEntriesBytes?: number;
  electionTicks?: number;
  seed?: number;
}

/** One simulated server: its node, its "disk", and what its state machine applied. */
export interface TestPeer {
  node: RawNode;
  storage: MemoryStorage;
  applied: Entry[];
  readStates: ReadState[];
  confStates: ConfState[];
  /** The last index the state machine applied (entries or snapshot). */
  appliedIndex: number;
}

/** A seeded generator in [0, 1) (mulberry32), so runs are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

export class Net {
  readonly peers = new Map<NodeId, TestPeer>();
  /** Messages sent and not yet delivered. */
  queue: Message[] = [];
  /** Every message ever sent, for assertions. */
  readonly sent: Message[] = [];
  private readonly cut = new Set<string>();
  /** Optional filter: return false to drop a message. */
  filter: (m: Message) => boolean = () => true;
  /** Optional rewrite of a message in flight (null drops it). */
  transform: (m: Message) => Message | null = (m) => m;
  private seedCounter: number;

  constructor(
    readonly ids: NodeId[],
    readonly opts: NetOptions = {},
  ) {
    this.seedCounter = opts.seed ?? 1;
    const confState: ConfState = {
      voters: ids.filter((id) => !(opts.learners ?? []).includes(id)),
      learners: opts.learners ?? [],
      votersOutgoing: [],
      learnersNext: [],
      autoLeave: false,
    };
    for (const id of ids) {
      const storage = new MemoryStorage({ confState });
      this.peers.set(id, { node: this.newNode(id, storage, 0), storage, applied: [], readStates: [], confStates: [], appliedIndex: 0 });
    }
  }

  /** A config for node id over storage (exposed so tests can tweak and restart). */
  config(id: NodeId, storage: MemoryStorage, applied: number): RaftConfig {
    return {
      id,
      electionTicks: this.opts.electionTicks ?? 10,
      heartbeatTicks: 1,
      storage,
      applied: index(applied),
      maxSizePerMsgBytes: this.opts.maxSizePerMsgBytes ?? 1024 * 1024,
      maxInflightMsgs: this.opts.maxInflightMsgs ?? 256,
      preVote: this.opts.preVote ?? false,
      checkQuorum: this.opts.checkQuorum ?? false,
      random: seededRandom(this.seedCounter++),
      ...(this.opts.bugs ? { bugs: this.opts.bugs } : {}),
      ...(this.opts.maxUncommittedEntriesBytes !== undefined ? { maxUncommittedEntriesBytes: this.opts.maxUncommittedEntriesBytes } : {}),
    };
  }

  private newNode(id: NodeId, storage: MemoryStorage, applied: number): RawNode {
    return new RawNode(this.config(id, storage, applied));
  }

  peer(id: NodeId): TestPeer {
    const p = this.peers.get(id);
    if (p === undefined) throw new Error(`no peer ${id}`);
    return p;
  }

  node(id: NodeId): RawNode {
    return this.peer(id).node;
  }

  /** Adds a fresh, empty node (for membership changes); it knows no members until a snapshot or log teaches it. */
  addPeer(id: NodeId): void {
    const storage = new MemoryStorage();
    this.peers.set(id, { node: this.newNode(id, storage, 0), storage, applied: [], readStates: [], confStates: [], appliedIndex: 0 });
    this.ids.push(id);
  }

  /** Crashes and restarts a node from its storage, resuming at what its state machine applied. */
  restart(id: NodeId): void {
    const p = this.peer(id);
    p.node = this.newNode(id, p.storage, p.appliedIndex);
    this.queue = this.queue.filter((m) => m.to !== id && m.from !== id);
  }

  /** Cuts both directions between a and b. */
  cutLink(a: NodeId, b: NodeId): void {
    this.cut.add(`${a}>${b}`);
    this.cut.add(`${b}>${a}`);
  }

  /** Cuts a node off from everyone. */
  isolate(id: NodeId): void {
    for (const o of this.ids) if (o !== id) this.cutLink(id, o);
  }

  /** Restores every link. */
  heal(): void {
    this.cut.clear();
  }

  /** Runs one Ready of node id through the driver steps. */
  handleReady(id: NodeId): void {
    const p = this.peer(id);
    const rd = p.node.ready();
    if (rd.snapshot !== null) p.storage.applySnapshot(rd.snapshot);
    p.storage.append(rd.entries);
    if (rd.hardState !== null) p.storage.setHardState(rd.hardState);
    for (const m of rd.messages) {
      this.sent.push(m);
      if (this.cut.has(`${m.from}>${m.to}`) || !this.filter(m)) continue;
      const t = this.transform(m);
      if (t !== null) this.queue.push(t);
    }
    if (rd.snapshot !== null) p.appliedIndex = rd.snapshot.metadata.index;
    for (const e of rd.committedEntries) {
      if (e.type === 'confChange') {
        const cs = p.node.applyConfChange(decodeConfChange(e.data));
        p.confStates.push(cs);
        p.storage.setConfState(cs);
      }
      p.applied.push(e);
      p.appliedIndex = e.index;
    }
    p.readStates.push(...rd.readStates);
    p.node.advance(rd);
  }

  /** Handles every pending Ready and delivers every message until quiet (bounded). */
  settle(maxRounds = 1000): void {
    for (let round = 0; round < maxRounds; round++) {
      let busy = false;
      for (const id of this.ids) {
        const p = this.peer(id);
        while (p.node.hasReady()) {
          this.handleReady(id);
          busy = true;
        }
      }
      const batch = this.queue;
      this.queue = [];
      for (const m of batch) {
        const to = this.peers.get(m.to);
        if (to !== undefined) to.node.step(m);
        busy = true;
      }
      if (!busy) return;
    }
    throw new Error('network did not settle');
  }

  /** Ticks every node n times, settling after each tick. */
  tickAll(n: number): void {
    for (let i = 0; i < n; i++) {
      for (const id of this.ids) this.node(id).tick();
      this.settle();
    }
  }

  /**
   * Makes the followers `ids` answer appends as a version before commit inference did (no context),
   * so the leader sends them every commit.
   */
  asEarlierVersion(ids: readonly NodeId[]): void {
    this.transform = (m) => (m.type === 'appResp' && ids.includes(m.from) ? { ...m, context: new Uint8Array(0) } : m);
  }

  /** Makes `id` campaign and settles; returns the node's role afterwards. */
  elect(id: NodeId): string {
    this.node(id).campaign();
    this.settle();
    return this.node(id).status().role;
  }

  /** The data of the normal, non-empty entries node id applied, as strings. */
  appliedData(id: NodeId): string[] {
    return this.peer(id).applied.filter((e) => e.type === 'normal' && e.data.byteLength > 0).map((e) => dec(e.data));
  }

  /** The leader among the nodes, if exactly one claims leadership in the highest term. */
  leader(): NodeId | null {
    let best: NodeId | null = null;
    let bestTerm = -1;
    for (const id of this.ids) {
      const s = this.node(id).status();
      if (s.role === 'leader' && s.term > bestTerm) {
        best = id;
        bestTerm = s.term;
      }
    }
    return best;
  }
}
