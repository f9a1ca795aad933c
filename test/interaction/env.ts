/**
 * The scripted cluster: nodes, the network between them, and the operations commands use.
 * Every operation appends its report to `out`; nothing here reads the clock or Math.random,
 * so a script prints the same output on every run.
 */
import { RaftError } from '../../raft/core/index.ts';
import type { Message, NodeId, RawNode } from '../../raft/core/index.ts';
import { describeConfState, describeMessage, idOrNone } from './describe.ts';
import type { MessageFilter } from './network.ts';
import { Network } from './network.ts';
import type { TestNode } from './test-node.ts';

/** How many stabilize rounds are allowed before the script is declared live-locked. */
const stabilizeRoundsMax = 200;

function stateOf(raw: RawNode): string {
  const s = raw.status();
  return `${s.role} term=${s.term} lead=${idOrNone(s.lead)}`;
}

/** The nodes of one script and the network joining them. */
export class InteractionEnv {
  readonly nodes = new Map<NodeId, TestNode>();
  readonly network = new Network();
  out: string[] = [];

  /** The node with this id; throws for an unknown id. */
  node(id: NodeId): TestNode {
    const n = this.nodes.get(id);
    if (n === undefined) throw new Error(`no node ${id}`);
    return n;
  }

  /** Ids in numeric order when numeric (so 10 follows 9). */
  ids(): NodeId[] {
    return [...this.nodes.keys()].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  }

  /** Runs `fn` on node `id`'s RawNode, reporting a role/term/leader change and refused requests. */
  act(id: NodeId, fn: (raw: RawNode) => void, indent = ''): void {
    const raw = this.node(id).up();
    const before = stateOf(raw);
    try {
      fn(raw);
    } catch (err) {
      if (!(err instanceof RaftError)) throw err;
      this.out.push(`${indent}error: ${err.code}`);
    }
    const after = stateOf(raw);
    if (after !== before) this.out.push(`${indent}~ ${id} is now ${after}`);
  }

  /** Handles one Ready of `id` if it has one; returns whether it had one. */
  processReady(id: NodeId): boolean {
    const node = this.node(id);
    if (node.raw === null || !node.raw.hasReady()) return false;
    this.out.push(`> ${id} handling Ready`);
    const { lines, messages } = node.handleReady();
    this.out.push(...lines.map((l) => `  ${l}`));
    this.network.send(messages, (to) => this.nodes.get(to)?.raw != null);
    return true;
  }

  /** Steps every in-flight message to `id` matching `filter`; returns whether there was any. */
  deliver(id: NodeId, filter: Omit<MessageFilter, 'to'> = {}): boolean {
    const node = this.node(id);
    if (node.raw === null) return false;
    const msgs = this.network.take({ ...filter, to: id });
    if (msgs.length === 0) return false;
    this.out.push(`> ${id} receiving messages`);
    for (const m of msgs) {
      this.out.push(`  ${describeMessage(m)}`);
      this.act(id, (raw) => raw.step(m), '  ');
    }
    return true;
  }

  /** Handles Readies and delivers messages among `ids` (all when empty) until nothing is left to do. */
  stabilize(only: readonly NodeId[]): void {
    const ids = only.length > 0 ? [...only] : this.ids();
    for (let round = 0; ; round++) {
      if (round >= stabilizeRoundsMax) throw new Error(`stabilize: still busy after ${stabilizeRoundsMax} rounds`);
      let busy = false;
      for (const id of ids) busy = this.processReady(id) || busy;
      for (const id of ids) busy = this.deliver(id) || busy;
      if (!busy) return;
    }
  }

  /** Reports dropped messages, one per line. */
  reportDropped(msgs: readonly Message[]): void {
    for (const m of msgs) this.out.push(`dropped: ${describeMessage(m)}`);
  }

  /** The status of a node, with its configuration, progress (leaders) and applied commands. */
  status(id: NodeId): void {
    const node = this.node(id);
    if (node.raw === null) {
      this.out.push(`${id}: crashed`);
      return;
    }
    const s = node.raw.status();
    this.out.push(`${id}: ${s.role} term=${s.term} vote=${idOrNone(s.vote)} lead=${idOrNone(s.lead)} commit=${s.commit} applied=${s.applied}`);
    this.out.push(`  config: ${describeConfState(s.confState)}`);
    if (s.role === 'leader') {
      for (const [peer, p] of Object.entries(s.progress).sort(([a], [b]) => Number(a) - Number(b))) {
        this.out.push(`  progress ${peer}: match=${p.match} next=${p.next} state=${p.state}`);
      }
    }
    this.out.push(`  applied data: ${JSON.stringify(node.appliedData())}`);
  }
}
