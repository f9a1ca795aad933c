/**
 * Batched linearizable reads (ReadIndex): every reader that arrives before a round starts
 * shares that round's one core `readIndex` call; a reader never joins a round already in flight
 * (its read index must be taken after it arrived). A reader resolves once the node has
 * applied up to the round's read index.
 */
import { randomBytes } from 'node:crypto';
import type { Index, ReadState } from './core/types.ts';
import { RaftNodeError } from './errors.ts';
import { pendingReadsMax, readIndexRoundsMax } from './limits.ts';

interface Reader {
  readonly resolve: (i: Index) => void;
  readonly reject: (e: Error) => void;
}

interface Round {
  readonly readers: Reader[];
  readonly startedTick: number;
}

/** The pending reads of one node, all bounded. */
export class ReadIndexBatcher {
  private queued: Reader[] = [];
  private readonly rounds = new Map<string, Round>();
  /** Rounds answered by the leader, waiting for the local apply to catch up; ascending index. */
  private waitingApply: { index: Index; readers: Reader[] }[] = [];
  private sequence = 0;
  private readonly incarnation = randomBytes(8);
  private pending = 0;

  constructor(private readonly timeoutTicks: number) {}

  /** A new reader; resolves with the read index once applied. Throws QueueFull when too many wait. */
  enqueue(): Promise<Index> {
    if (this.pending >= pendingReadsMax) throw new RaftNodeError('QueueFull', `${this.pending} reads pending`);
    this.pending++;
    return new Promise((resolve, reject) => this.queued.push({ resolve, reject }));
  }

  /** True when a round should start now (readers queued and a round slot free). */
  wantsRound(): boolean {
    return this.queued.length > 0 && this.rounds.size < readIndexRoundsMax;
  }

  /** Starts a round for every queued reader; returns the context to hand to the core's readIndex. */
  startRound(tick: number): Uint8Array {
    // A random incarnation prefix: an answer meant for this node before a restart never matches.
    const context = new Uint8Array(16);
    context.set(this.incarnation, 0);
    new DataView(context.buffer).setFloat64(8, ++this.sequence);
    this.rounds.set(Buffer.from(context).toString('hex'), { readers: this.queued, startedTick: tick });
    this.queued = [];
    return context;
  }

  /** Fails the round of `context` (the core refused the request). */
  failRound(context: Uint8Array, err: Error): void {
    const key = Buffer.from(context).toString('hex');
    const round = this.rounds.get(key);
    if (!round) return;
    this.rounds.delete(key);
    this.settle(round.readers, err);
  }

  /** Takes the read states of a Ready; readers whose index is already applied resolve now. */
  onReadStates(states: readonly ReadState[], applied: Index): void {
    for (const rs of states) {
      const key = Buffer.from(rs.requestContext).toString('hex');
      const round = this.rounds.get(key);
      if (!round) continue;
      this.rounds.delete(key);
      this.waitingApply.push({ index: rs.index, readers: round.readers });
    }
    this.waitingApply.sort((a, b) => a.index - b.index);
    this.onApplied(applied);
  }

  /** Resolves the readers whose read index is at or below `applied`. */
  onApplied(applied: Index): void {
    while (this.waitingApply.length > 0 && this.waitingApply[0]!.index <= applied) {
      const { index, readers } = this.waitingApply.shift()!;
      this.settle(readers, null, index);
    }
  }

  /**
   * The contexts of the rounds still waiting for a leader's answer, each given a fresh timeout
   * from `tick`: after a leader change they are asked again of the new leader, since a request
   * sent to a leader that died is never answered. Whichever answer comes first settles a round.
   */
  restartRounds(tick: number): Uint8Array[] {
    const contexts: Uint8Array[] = [];
    for (const [key, round] of this.rounds) {
      this.rounds.set(key, { readers: round.readers, startedTick: tick });
      contexts.push(Uint8Array.from(Buffer.from(key, 'hex')));
    }
    return contexts;
  }

  /** Fails rounds older than the timeout with Timeout (no leader answered). */
  onTick(tick: number): void {
    for (const [key, round] of this.rounds) {
      if (tick - round.startedTick < this.timeoutTicks) continue;
      this.rounds.delete(key);
      this.settle(round.readers, new RaftNodeError('Timeout', 'no read index from a leader in time'));
    }
  }

  /** Fails every reader with `err`. */
  failAll(err: Error): void {
    const all = [...this.queued, ...[...this.rounds.values()].flatMap((r) => r.readers), ...this.waitingApply.flatMap((w) => w.readers)];
    this.queued = [];
    this.rounds.clear();
    this.waitingApply = [];
    this.settle(all, err);
  }

  private settle(readers: readonly Reader[], err: Error | null, index?: Index): void {
    this.pending -= readers.length;
    for (const r of readers) {
      if (err) r.reject(err);
      else r.resolve(index!);
    }
  }
}
