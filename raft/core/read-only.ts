import { pendingReadRequestsMax } from './limits.ts';
import type { Index, NodeId } from './types.ts';

/** One read waiting for its heartbeat round: who asked, with what context, at which commit index. */
export interface ReadRequest {
  readonly from: NodeId;
  readonly context: Uint8Array;
  readonly index: Index;
  readonly round: number;
}

/**
 * The leader's ReadIndex queue (Raft dissertation §6.4). Reads registered between two
 * heartbeat rounds share the next round; a quorum acking round r confirms every read of
 * rounds <= r, since any later heartbeat was sent after those reads were registered.
 */
export class ReadOnly {
  private readonly requests: ReadRequest[] = [];
  private readonly acks = new Map<number, Set<NodeId>>();
  private nextRound = 1;
  private unsentRound = false;

  /** Queues a read at commit index `index`; returns false (dropped) when the queue is full. */
  add(from: NodeId, context: Uint8Array, idx: Index): boolean {
    if (this.requests.length >= pendingReadRequestsMax) return false;
    this.requests.push({ from, context, index: idx, round: this.nextRound });
    this.unsentRound = true;
    return true;
  }

  /** Whether reads wait for a heartbeat round that was not sent yet. */
  hasUnsentRound(): boolean {
    return this.unsentRound;
  }

  /** Starts the round the queued reads wait for; returns its id (to put in heartbeat contexts). */
  startRound(self: NodeId): number {
    const r = this.nextRound++;
    this.unsentRound = false;
    this.acks.set(r, new Set([self]));
    return r;
  }

  /** Records id's ack of round r; returns the ackers so far (undefined for an unknown round). */
  recvAck(id: NodeId, r: number): ReadonlySet<NodeId> | undefined {
    const s = this.acks.get(r);
    s?.add(id);
    return s;
  }

  /** Removes and returns the reads confirmed by a quorum acking round r. */
  release(r: number): ReadRequest[] {
    let k = 0;
    while (k < this.requests.length && this.requests[k]!.round <= r) k++;
    for (const round of [...this.acks.keys()]) if (round <= r) this.acks.delete(round);
    return this.requests.splice(0, k);
  }

  /** How many reads are waiting. */
  pendingCount(): number {
    return this.requests.length;
  }
}

/** Encodes a round id as a heartbeat context. */
export function roundContext(r: number): Uint8Array {
  return new TextEncoder().encode(`r${r}`);
}

/** Decodes a heartbeat context into a round id (null if it is not one). */
export function roundOf(ctx: Uint8Array): number | null {
  if (ctx.byteLength < 2 || ctx[0] !== 0x72) return null;
  const n = Number(new TextDecoder().decode(ctx.subarray(1)));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
