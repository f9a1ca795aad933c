/**
 * The scripted network: one ordered list of messages in flight, and the set of isolated
 * nodes. A message is dropped when it is sent across a cut link or to a node that is down,
 * and messages already in flight are dropped when their link is cut or their target crashes.
 */
import type { Message, NodeId } from '../../raft/core/index.ts';

/** Which in-flight messages a deliver or drop command selects. */
export interface MessageFilter {
  readonly from?: NodeId;
  readonly to?: NodeId;
  readonly type?: string;
}

function matches(m: Message, f: MessageFilter): boolean {
  return (f.from === undefined || m.from === f.from) && (f.to === undefined || m.to === f.to) && (f.type === undefined || m.type === f.type);
}

/** In-flight messages, in send order, and the partition state. */
export class Network {
  private inFlight: Message[] = [];
  private readonly isolated = new Set<NodeId>();

  /** True when a message from `a` to `b` would get through the partition. */
  connected(a: NodeId, b: NodeId): boolean {
    return !this.isolated.has(a) && !this.isolated.has(b);
  }

  /** Queues messages whose link is up and whose target `isUp`; the others are lost silently. */
  send(messages: readonly Message[], isUp: (id: NodeId) => boolean): void {
    for (const m of messages) if (this.connected(m.from, m.to) && isUp(m.to)) this.inFlight.push(m);
  }

  /** Removes and returns the in-flight messages matching `f`, in send order. */
  take(f: MessageFilter): Message[] {
    const taken = this.inFlight.filter((m) => matches(m, f));
    this.inFlight = this.inFlight.filter((m) => !matches(m, f));
    return taken;
  }

  /** True when some message to `to` is in flight. */
  hasFor(to: NodeId): boolean {
    return this.inFlight.some((m) => m.to === to);
  }

  /** Cuts every link of `id`; returns the in-flight messages this lost. */
  isolate(id: NodeId): Message[] {
    this.isolated.add(id);
    const lost = this.inFlight.filter((m) => m.from === id || m.to === id);
    this.inFlight = this.inFlight.filter((m) => m.from !== id && m.to !== id);
    return lost;
  }

  /** Restores every link. */
  heal(): void {
    this.isolated.clear();
  }
}
