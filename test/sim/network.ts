/**
 * The simulated network: messages wait a random number of steps, may be dropped, duplicated
 * or overtaken, and directed links can be cut (partitions) and healed. Pure data plus the
 * network's own Rng: it never calls a node, the cluster pulls due messages each step.
 */
import type { Message, NodeId } from '../../raft/core/types.ts';
import type { Rng } from './rng.ts';

/** How hostile the network is; all probabilities are per message. */
export interface NetworkFaults {
  /** Delivery delay in steps is uniform in [1, delayMaxSteps]. */
  delayMaxSteps: number;
  dropProbability: number;
  duplicateProbability: number;
  /** A message is held back up to `longDelaySteps` extra steps, so later ones overtake it. */
  longDelayProbability: number;
  longDelaySteps: number;
}

/** A network that delivers everything promptly, in the liveness phase. */
export const calmNetwork: NetworkFaults = {
  delayMaxSteps: 2,
  dropProbability: 0,
  duplicateProbability: 0,
  longDelayProbability: 0,
  longDelaySteps: 0,
};

interface InFlight {
  readonly message: Message;
  readonly dueStep: number;
  readonly seq: number;
}

/** What happened to one sent message: delivered later, or dropped now (the sender may be told). */
export type SendOutcome = 'queued' | 'dropped';

/** The in-flight messages and the cut links. Deterministic given its Rng. */
export class Network {
  private inFlight: InFlight[] = [];
  private seq = 0;
  private readonly cut = new Set<string>();
  faults: NetworkFaults;

  /** A network with no cut links, drawing from `rng` only. */
  constructor(
    private readonly rng: Rng,
    faults: NetworkFaults,
  ) {
    this.faults = faults;
  }

  /** Queues a message sent at `nowStep` (dropped at once if its link is cut or by chance). */
  send(m: Message, nowStep: number): SendOutcome {
    if (this.isCut(m.from, m.to) || this.rng.chance(this.faults.dropProbability)) return 'dropped';
    this.enqueue(m, nowStep);
    if (this.rng.chance(this.faults.duplicateProbability)) this.enqueue(m, nowStep);
    return 'queued';
  }

  /** Removes and returns the messages due at or before `nowStep`, in due order; cut links drop them. */
  takeDue(nowStep: number): { delivered: Message[]; dropped: Message[] } {
    const due: InFlight[] = [];
    const rest: InFlight[] = [];
    for (const f of this.inFlight) (f.dueStep <= nowStep ? due : rest).push(f);
    this.inFlight = rest;
    due.sort((a, b) => a.dueStep - b.dueStep || a.seq - b.seq);
    const delivered: Message[] = [];
    const dropped: Message[] = [];
    for (const f of due) (this.isCut(f.message.from, f.message.to) ? dropped : delivered).push(f.message);
    return { delivered, dropped };
  }

  /** Drops every in-flight message from `id` (its process died with its send queues). */
  dropFrom(id: NodeId): void {
    this.inFlight = this.inFlight.filter((f) => f.message.from !== id);
  }

  /** Cuts the directed link from -> to. */
  cutLink(from: NodeId, to: NodeId): void {
    this.cut.add(linkKey(from, to));
  }

  /** Cuts every link between the two sides, both ways. */
  partition(sideA: readonly NodeId[], sideB: readonly NodeId[]): void {
    for (const a of sideA) {
      for (const b of sideB) {
        this.cutLink(a, b);
        this.cutLink(b, a);
      }
    }
  }

  /** Restores every link. */
  heal(): void {
    this.cut.clear();
  }

  /** Whether from -> to is cut. */
  isCut(from: NodeId, to: NodeId): boolean {
    return this.cut.size > 0 && this.cut.has(linkKey(from, to));
  }

  /** Number of cut directed links. */
  cutLinkCount(): number {
    return this.cut.size;
  }

  /** Number of messages in flight. */
  pending(): number {
    return this.inFlight.length;
  }

  private enqueue(m: Message, nowStep: number): void {
    let delay = 1 + this.rng.int(Math.max(1, this.faults.delayMaxSteps));
    if (this.rng.chance(this.faults.longDelayProbability)) delay += 1 + this.rng.int(Math.max(1, this.faults.longDelaySteps));
    this.inFlight.push({ message: m, dueStep: nowStep + delay, seq: this.seq++ });
  }
}

function linkKey(from: NodeId, to: NodeId): string {
  return `${from}>${to}`;
}
