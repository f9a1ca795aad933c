import type { Index } from './types.ts';

/**
 * The last indexes of app messages sent to one follower and not yet acknowledged, in send
 * order, bounded by `capacity` (maxInflightMsgs): when full, the leader stops sending.
 */
export class Inflights {
  private readonly buf: Index[] = [];

  /** An empty window holding at most `capacity` messages. */
  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`assert: inflight capacity ${capacity}`);
  }

  /** Records an app message whose last entry is `last`; asserts there is room and order. */
  add(last: Index): void {
    if (this.full()) throw new Error('assert: inflights full');
    const prev = this.buf[this.buf.length - 1];
    if (prev !== undefined && last < prev) throw new Error(`assert: inflight ${last} before ${prev}`);
    this.buf.push(last);
  }

  /** Frees every message whose last index is <= to (they were acknowledged). */
  freeLE(to: Index): void {
    let k = 0;
    while (k < this.buf.length && this.buf[k]! <= to) k++;
    if (k > 0) this.buf.splice(0, k);
  }

  /** Frees the oldest message (a heartbeat answer proves the follower is alive). */
  freeFirstOne(): void {
    this.buf.shift();
  }

  /** Whether no more messages may be sent. */
  full(): boolean {
    return this.buf.length >= this.capacity;
  }

  /** How many messages are in flight. */
  count(): number {
    return this.buf.length;
  }

  /** Forgets every message. */
  reset(): void {
    this.buf.length = 0;
  }
}
