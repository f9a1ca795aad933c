// One limited priority level's queues (kube's fairqueuing/queueset): requests occupy seats up to
// the level's concurrency limit; past it they wait in one of the level's queues, chosen by shuffle
// sharding (the least loaded queue of the flow's hand), and are dispatched in fair order: the
// non-empty queue whose virtual start is earliest goes first, and a queue's virtual start advances
// by the seats it dispatched. A queue that becomes active starts at the current virtual time, so
// an idle flow banks no credit. A wide request at the head waits until its seats are free (strict
// fair order, as kube's). A request waits at most its wait limit, or until its client leaves.
import type { QueuingConfig } from './types.ts';
import { dealHand } from './shuffle-shard.ts';

/** A level's limits: its seats and its queues (null: no queues, refuse when full). */
export interface QueueSetConfig {
  readonly concurrencyLimit: number;
  readonly queuing: QueuingConfig | null;
}

export interface Admitted {
  readonly outcome: 'dispatched';
  readonly waitedMs: number;
  /** Frees the request's seats (once; later calls do nothing) and dispatches what now fits. */
  release(): void;
}

export interface Rejected {
  readonly outcome: 'rejected';
  readonly reason: 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';
  readonly waitedMs: number;
}

interface Waiter {
  readonly seats: number;
  readonly enqueuedAt: number;
  settle(outcome: Admitted | Rejected): void;
  /** Ends the waiter's timer and abort listener. */
  done(): void;
}

interface Queue {
  readonly index: number;
  readonly waiting: Waiter[];
  executingRequests: number;
  executingSeats: number;
  virtualStart: number;
}

export interface QueueSetStats {
  readonly concurrencyLimit: number;
  readonly executingRequests: number;
  readonly executingSeats: number;
  readonly waitingRequests: number;
  readonly waitingSeats: number;
  readonly activeQueues: number;
  readonly dispatched: number;
  readonly rejected: Record<Rejected['reason'], number>;
  readonly queues: readonly { readonly index: number; readonly waitingRequests: number; readonly executingRequests: number; readonly executingSeats: number; readonly virtualStart: number }[];
}

function makeQueues(count: number): Queue[] {
  return Array.from({ length: count }, (_, index) => ({ index, waiting: [], executingRequests: 0, executingSeats: 0, virtualStart: 0 }));
}

export class QueueSet {
  private config: QueueSetConfig;
  private queues: Queue[];
  /** The queue unqueued requests (no queuing) are counted on. */
  private readonly direct: Queue = makeQueues(1)[0] as Queue;
  private executingRequests = 0;
  private executingSeats = 0;
  /** The virtual time: the virtual start of the last dispatch. */
  private virtualNow = 0;
  private dispatched = 0;
  private readonly rejected: Record<Rejected['reason'], number> = { 'queue-full': 0, 'concurrency-limit': 0, 'time-out': 0, cancelled: 0 };

  constructor(config: QueueSetConfig, private readonly clock: { now(): number } = performance) {
    this.config = config;
    this.queues = makeQueues(config.queuing?.queues ?? 0);
  }

  /**
   * New limits, in force at once: running requests keep their seats; waiting ones stay queued (in
   * the queue of the same index modulo the new count) and are dispatched as seats free.
   */
  setConfig(config: QueueSetConfig): void {
    const count = config.queuing?.queues ?? 0;
    if (count !== this.queues.length) {
      const waiting = this.queues.flatMap((q) => q.waiting.map((w) => ({ w, index: q.index })));
      const old = this.queues;
      this.queues = makeQueues(Math.max(count, waiting.length > 0 ? 1 : 0));
      for (const { w, index } of waiting) this.queues[index % this.queues.length]?.waiting.push(w);
      for (const q of this.queues) q.virtualStart = Math.max(...old.map((o) => o.virtualStart), this.virtualNow);
    }
    this.config = config;
    this.dispatch();
  }

  private get limit(): number {
    return Math.max(1, this.config.concurrencyLimit);
  }

  /** Admits a request of `seats` (at most the limit) from the flow `flowHash`. */
  admit(request: { readonly flowHash: bigint; readonly seats: number; readonly signal?: AbortSignal; readonly waitLimitMs: number }): Promise<Admitted | Rejected> {
    const seats = Math.min(Math.max(1, Math.ceil(request.seats)), this.limit);
    const enqueuedAt = this.clock.now();
    if (request.signal?.aborted) return Promise.resolve(this.reject('cancelled', enqueuedAt));
    const queuing = this.config.queuing;
    const nobodyWaits = this.queues.every((q) => q.waiting.length === 0);
    if (queuing === null || this.queues.length === 0) {
      if (nobodyWaits && this.executingSeats + seats <= this.limit) return Promise.resolve(this.start(this.direct, seats, enqueuedAt));
      return Promise.resolve(this.reject('concurrency-limit', enqueuedAt));
    }
    const hand = dealHand(request.flowHash, this.queues.length, queuing.handSize);
    const queue = hand.map((i) => this.queues[i] as Queue).reduce((best, q) => (load(q) < load(best) ? q : best));
    if (nobodyWaits && this.executingSeats + seats <= this.limit) return Promise.resolve(this.start(queue, seats, enqueuedAt));
    if (queue.waiting.length >= queuing.queueLengthLimit) return Promise.resolve(this.reject('queue-full', enqueuedAt));
    return new Promise((resolve) => {
      const onAbort = (): void => this.drop(waiter, 'cancelled');
      const waiter: Waiter = {
        seats,
        enqueuedAt,
        settle: resolve,
        done: () => {
          clearTimeout(timer);
          request.signal?.removeEventListener('abort', onAbort);
        },
      };
      // A queue that was empty starts at the current virtual time: an idle flow banks no credit.
      if (queue.waiting.length === 0) queue.virtualStart = Math.max(queue.virtualStart, this.virtualNow);
      queue.waiting.push(waiter);
      // Read by waiter.done, which runs only once this is set.
      const timer = setTimeout(() => this.drop(waiter, 'time-out'), request.waitLimitMs);
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.dispatch();
    });
  }

  /** Removes a waiter that timed out or whose client left. */
  private drop(waiter: Waiter, reason: 'time-out' | 'cancelled'): void {
    for (const q of this.queues) {
      const at = q.waiting.indexOf(waiter);
      if (at < 0) continue;
      q.waiting.splice(at, 1);
      waiter.done();
      waiter.settle(this.reject(reason, waiter.enqueuedAt));
      this.dispatch();
      return;
    }
  }

  /** Dispatches waiting requests in fair order while the next one's seats are free. */
  private dispatch(): void {
    for (;;) {
      let next: Queue | undefined;
      for (const q of this.queues) if (q.waiting.length > 0 && (next === undefined || q.virtualStart < next.virtualStart)) next = q;
      const head = next?.waiting[0];
      if (next === undefined || head === undefined) return;
      // A limit lowered since it queued: the request takes what seats there are.
      const seats = Math.min(head.seats, this.limit);
      if (this.executingSeats + seats > this.limit) return;
      next.waiting.shift();
      this.virtualNow = Math.max(this.virtualNow, next.virtualStart);
      next.virtualStart += seats;
      head.done();
      head.settle(this.start(next, seats, head.enqueuedAt));
    }
  }

  private start(queue: Queue, seats: number, enqueuedAt: number): Admitted {
    this.dispatched++;
    this.executingRequests++;
    this.executingSeats += seats;
    queue.executingRequests++;
    queue.executingSeats += seats;
    let released = false;
    return {
      outcome: 'dispatched',
      waitedMs: this.clock.now() - enqueuedAt,
      release: () => {
        if (released) return;
        released = true;
        this.executingRequests--;
        this.executingSeats -= seats;
        queue.executingRequests--;
        queue.executingSeats -= seats;
        this.dispatch();
      },
    };
  }

  private reject(reason: Rejected['reason'], enqueuedAt: number): Rejected {
    this.rejected[reason]++;
    return { outcome: 'rejected', reason, waitedMs: this.clock.now() - enqueuedAt };
  }

  stats(): QueueSetStats {
    const waitingSeats = this.queues.reduce((sum, q) => sum + q.waiting.reduce((s, w) => s + w.seats, 0), 0);
    return {
      concurrencyLimit: this.config.concurrencyLimit,
      executingRequests: this.executingRequests,
      executingSeats: this.executingSeats,
      waitingRequests: this.queues.reduce((sum, q) => sum + q.waiting.length, 0),
      waitingSeats,
      activeQueues: this.queues.filter((q) => q.waiting.length > 0).length,
      dispatched: this.dispatched,
      rejected: { ...this.rejected },
      queues: this.queues.map((q) => ({ index: q.index, waitingRequests: q.waiting.length, executingRequests: q.executingRequests, executingSeats: q.executingSeats, virtualStart: q.virtualStart })),
    };
  }
}

/** How loaded a queue is, for the shuffle-sharding choice: seats waiting in it and running from it. */
function load(q: Queue): number {
  return q.waiting.reduce((s, w) => s + w.seats, 0) + q.executingSeats;
}
