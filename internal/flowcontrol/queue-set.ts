// One limited priority level's queues (kube's fairqueuing/queueset): requests occupy seats up to
// the level's concurrency limit; past it they wait in one of the level's queues, chosen by shuffle
// sharding (of the flow's hand, the queue with the least work waiting), and are dispatched in fair
// order. Fairness is kept in seat-seconds, as kube keeps it: a virtual clock R advances at the
// seats each active queue could be using (min(seats wanted, limit) / active queues per second); a
// queue's next dispatch is due at its own R, which a dispatch advances by the request's estimated
// work (seats x 3 ms) and its end corrects by the work it really did (seats x its duration). The
// queue whose head would finish first goes next; so a flow of long, wide requests (LISTs) falls
// behind one of short, narrow ones (creates) by what it really occupies, not by its request count.
// A queue that becomes active starts at R (an idle flow banks no credit) and never dispatches
// before its head arrived (kube's anti-windup). A wide request at the head waits until its seats
// are free (strict fair order, as kube's). A request waits at most its wait limit, or until its
// client leaves.
import type { Cancellation } from './cancellation.ts';
import { BoundedCache } from '../bounded-cache.ts';
import type { QueuingConfig } from './types.ts';
import { dealHand } from './shuffle-shard.ts';

/** kube's G: the service time every dispatch is first charged for, corrected when the request ends. */
const estimatedServiceSeconds = 0.003;

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

/** What a queue set is asked to admit. */
export interface QueueSetRequest {
  /** The flow's hash (shuffle-shard.ts flowHash): which queues it may use. */
  readonly flowHash: bigint;
  readonly seats: number;
  readonly signal?: Cancellation;
  readonly waitLimitMs: number;
}

export interface Rejected {
  readonly outcome: 'rejected';
  readonly reason: 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';
  readonly waitedMs: number;
}

interface Waiter {
  readonly seats: number;
  readonly enqueuedAt: number;
  /** R when it arrived: its queue never dispatches before it (anti-windup). */
  readonly arrivalR: number;
  settle(outcome: Admitted | Rejected): void;
  /** Ends the waiter's timer and abort listener. */
  done(): void;
}

interface Queue {
  readonly index: number;
  readonly waiting: Waiter[];
  /** The seats its waiting requests want. */
  waitingSeats: number;
  /** Whether it is one of the set's queues now (a new queue count replaces them; running requests release on the old). */
  live: boolean;
  executingRequests: number;
  executingSeats: number;
  /** The R at which this queue's next request is due to start (kube's nextDispatchR), in seat-seconds. */
  nextDispatchR: number;
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
  /** The virtual clock, seat-seconds per active queue since the set was made. */
  readonly currentR: number;
  readonly queues: readonly { readonly index: number; readonly waitingRequests: number; readonly executingRequests: number; readonly executingSeats: number; readonly nextDispatchR: number }[];
}

function makeQueues(count: number, live: boolean): Queue[] {
  return Array.from({ length: count }, (_, index) => ({ index, waiting: [], waitingSeats: 0, live, executingRequests: 0, executingSeats: 0, nextDispatchR: 0 }));
}

function isActive(q: Queue): boolean {
  return q.waiting.length > 0 || q.executingRequests > 0;
}

/** How many hands a set remembers (a flow's hand is dealt once, not per request). */
const handCacheLimit = 4096;

/** A request's estimated work, in seat-seconds. */
function workOf(seats: number): number {
  return seats * estimatedServiceSeconds;
}

export class QueueSet {
  private config: QueueSetConfig;
  private queues: Queue[];
  /** The queue unqueued requests (no queuing) are counted on. */
  private readonly direct: Queue = makeQueues(1, false)[0] as Queue;
  private executingRequests = 0;
  private executingSeats = 0;
  // Totals over the live queues, kept as they change so that every request costs O(1) and not a
  // scan of the level's queues (64 to 128 of them in the suggested levels).
  private waitingRequests = 0;
  private waitingSeats = 0;
  private liveExecutingSeats = 0;
  private activeQueues = 0;
  /** Hands dealt, by flow hash, for the current queue count and hand size. */
  private readonly hands = new BoundedCache<number[], bigint>(handCacheLimit);
  private currentR = 0;
  private lastRealMs: number;
  /** The queue dispatched from last: ties go to the queues after it. */
  private robinIndex = -1;
  /** Requests ever enqueued: where a hand's scan starts, so overlapping hands share evenly. */
  private enqueues = 0;
  private dispatched = 0;
  private readonly rejected: Record<Rejected['reason'], number> = { 'queue-full': 0, 'concurrency-limit': 0, 'time-out': 0, cancelled: 0 };

  constructor(config: QueueSetConfig, private readonly clock: { now(): number } = performance) {
    this.config = config;
    this.queues = makeQueues(config.queuing?.queues ?? 0, true);
    this.lastRealMs = clock.now();
  }

  /**
   * New limits, in force at once: running requests keep their seats; waiting ones stay queued (in
   * the queue of the same index modulo the new count) and are dispatched as seats free.
   */
  setConfig(config: QueueSetConfig): void {
    this.syncTime();
    const count = config.queuing?.queues ?? 0;
    if (count !== this.queues.length) {
      const waiting = this.queues.flatMap((q) => q.waiting.map((w) => ({ w, index: q.index })));
      for (const q of this.queues) q.live = false;
      this.queues = makeQueues(Math.max(count, waiting.length > 0 ? 1 : 0), true);
      this.waitingRequests = 0;
      this.waitingSeats = 0;
      this.liveExecutingSeats = 0;
      this.activeQueues = 0;
      for (const q of this.queues) q.nextDispatchR = this.currentR;
      for (const { w, index } of waiting) this.push(this.queues[index % this.queues.length] as Queue, w);
      this.robinIndex = -1;
    }
    this.hands.clear();
    this.config = config;
    this.dispatch();
  }

  private get limit(): number {
    return Math.max(1, this.config.concurrencyLimit);
  }

  /** Advances R by what the queues could have used since the last change, at the state that held meanwhile. */
  private syncTime(): void {
    const now = this.clock.now();
    const seconds = Math.max(0, now - this.lastRealMs) / 1000;
    this.lastRealMs = now;
    const seatsWanted = this.liveExecutingSeats + this.waitingSeats;
    if (this.activeQueues > 0) this.currentR += (Math.min(seatsWanted, this.limit) / this.activeQueues) * seconds;
  }

  /** Applies `change` to a queue, keeping the count of active live queues. */
  private changeQueue(q: Queue, change: () => void): void {
    const wasActive = isActive(q);
    change();
    if (q.live) this.activeQueues += Number(isActive(q)) - Number(wasActive);
  }

  private push(q: Queue, w: Waiter): void {
    this.changeQueue(q, () => {
      q.waiting.push(w);
      q.waitingSeats += w.seats;
    });
    this.waitingRequests++;
    this.waitingSeats += w.seats;
  }

  /** Removes the waiter at `at` of `q`. */
  private take(q: Queue, at: number): void {
    let seats = 0;
    this.changeQueue(q, () => {
      seats = q.waiting.splice(at, 1)[0]?.seats ?? 0;
      q.waitingSeats -= seats;
    });
    this.waitingRequests--;
    this.waitingSeats -= seats;
  }

  /** Admits a request of `seats` (at most the limit) from the flow `flowHash`. */
  admit(request: QueueSetRequest): Promise<Admitted | Rejected> {
    const decided = this.tryAdmit(request);
    return Promise.resolve(decided ?? this.enqueue(request));
  }

  /**
   * Decides a request at once when it need not wait: dispatched (nothing waits and its seats are
   * free), or refused (cancelled, or full on a level without queues). Null: it must queue (enqueue).
   */
  tryAdmit(request: QueueSetRequest): Admitted | Rejected | null {
    this.syncTime();
    const seats = this.seatsOf(request);
    const now = this.clock.now();
    if (request.signal?.aborted) return this.reject('cancelled', now);
    const queuing = this.config.queuing;
    if (queuing === null || this.queues.length === 0) {
      if (this.executingSeats + seats <= this.limit) return this.start(this.direct, seats, now);
      return this.reject('concurrency-limit', now);
    }
    if (this.waitingRequests > 0 || this.executingSeats + seats > this.limit) return null;
    // Queued, it would be the only head and dispatched at once: do what that dispatch does,
    // without the waiter's promise, timer and listener.
    const queue = this.chooseQueue(request.flowHash, queuing.handSize);
    if (!isActive(queue)) queue.nextDispatchR = this.currentR;
    queue.nextDispatchR += workOf(seats);
    this.robinIndex = queue.index;
    return this.start(queue, seats, now);
  }

  private seatsOf(request: QueueSetRequest): number {
    return Math.min(Math.max(1, Math.ceil(request.seats)), this.limit);
  }

  /** Queues a request tryAdmit could not decide: it waits its turn, its wait limit, or its client. */
  enqueue(request: QueueSetRequest): Promise<Admitted | Rejected> | Rejected {
    const seats = this.seatsOf(request);
    const enqueuedAt = this.clock.now();
    const queuing = this.config.queuing;
    if (queuing === null) throw new Error('assert: a level without queues decides at once');
    const queue = this.chooseQueue(request.flowHash, queuing.handSize);
    if (this.executingSeats >= this.limit && queue.waiting.length >= queuing.queueLengthLimit) return this.reject('queue-full', enqueuedAt);
    return new Promise((resolve) => {
      const onAbort = (): void => this.drop(waiter, 'cancelled');
      const waiter: Waiter = {
        seats,
        enqueuedAt,
        arrivalR: this.currentR,
        settle: resolve,
        done: () => {
          clearTimeout(timer);
          request.signal?.removeEventListener('abort', onAbort);
        },
      };
      // A queue that was idle starts at the current virtual time: an idle flow banks no credit.
      if (!isActive(queue)) queue.nextDispatchR = this.currentR;
      this.push(queue, waiter);
      // Read by waiter.done, which runs only once this is set. Unreferenced: a waiting request
      // alone does not keep the process up (a server's sockets do).
      const timer = setTimeout(() => this.drop(waiter, 'time-out'), request.waitLimitMs);
      timer.unref?.();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.dispatch();
      boundNextDispatch(queue);
    });
  }

  /** Of the flow's hand, the queue with the least work waiting; the scan starts at a rotating offset. */
  private chooseQueue(flowHash: bigint, handSize: number): Queue {
    const hand = this.hands.get(flowHash, () => dealHand(flowHash, this.queues.length, handSize));
    const offset = this.enqueues++ % hand.length;
    let best: Queue | undefined;
    for (let i = 0; i < hand.length; i++) {
      const q = this.queues[hand[(offset + i) % hand.length] as number] as Queue;
      if (best === undefined || q.waitingSeats < best.waitingSeats) best = q;
    }
    return best as Queue;
  }

  /** Removes a waiter that timed out or whose client left. */
  private drop(waiter: Waiter, reason: 'time-out' | 'cancelled'): void {
    this.syncTime();
    for (const q of this.queues) {
      const at = q.waiting.indexOf(waiter);
      if (at < 0) continue;
      this.take(q, at);
      boundNextDispatch(q);
      waiter.done();
      waiter.settle(this.reject(reason, waiter.enqueuedAt));
      this.dispatch();
      return;
    }
  }

  /** Dispatches waiting requests in fair order while the next one's seats are free. */
  private dispatch(): void {
    while (this.waitingRequests > 0 && this.executingSeats < this.limit) {
      let next: Queue | undefined;
      let nextIndex = this.robinIndex;
      let earliestFinish = Infinity;
      // Round robin from the queue after the last one dispatched: ties go to the others.
      for (let i = 1; i <= this.queues.length; i++) {
        const index = (this.robinIndex + i) % this.queues.length;
        const q = this.queues[index] as Queue;
        const head = q.waiting[0];
        if (head === undefined) continue;
        const finish = q.nextDispatchR + workOf(head.seats);
        if (finish < earliestFinish) {
          earliestFinish = finish;
          next = q;
          nextIndex = index;
        }
      }
      const head = next?.waiting[0];
      if (next === undefined || head === undefined) return;
      // A limit lowered since it queued: the request takes what seats there are.
      const seats = Math.min(head.seats, this.limit);
      if (this.executingSeats + seats > this.limit) return;
      this.take(next, 0);
      this.robinIndex = nextIndex;
      next.nextDispatchR += workOf(seats);
      boundNextDispatch(next);
      head.done();
      head.settle(this.start(next, seats, head.enqueuedAt));
    }
  }

  private start(queue: Queue, seats: number, enqueuedAt: number): Admitted {
    this.dispatched++;
    this.executingRequests++;
    this.executingSeats += seats;
    if (queue.live) this.liveExecutingSeats += seats;
    this.changeQueue(queue, () => {
      queue.executingRequests++;
      queue.executingSeats += seats;
    });
    const startedAt = this.clock.now();
    let released = false;
    return {
      outcome: 'dispatched',
      waitedMs: startedAt - enqueuedAt,
      release: () => {
        if (released) return;
        released = true;
        this.syncTime();
        this.executingRequests--;
        this.executingSeats -= seats;
        if (queue.live) this.liveExecutingSeats -= seats;
        this.changeQueue(queue, () => {
          queue.executingRequests--;
          queue.executingSeats -= seats;
        });
        if (queue !== this.direct) {
          // Charged 3 ms at dispatch: now the work it really did.
          const servedSeconds = (this.clock.now() - startedAt) / 1000;
          queue.nextDispatchR += seats * (servedSeconds - estimatedServiceSeconds);
          boundNextDispatch(queue);
        }
        this.dispatch();
      },
    };
  }

  private reject(reason: Rejected['reason'], enqueuedAt: number): Rejected {
    this.rejected[reason]++;
    return { outcome: 'rejected', reason, waitedMs: this.clock.now() - enqueuedAt };
  }

  stats(): QueueSetStats {
    this.syncTime();
    return {
      concurrencyLimit: this.config.concurrencyLimit,
      executingRequests: this.executingRequests,
      executingSeats: this.executingSeats,
      waitingRequests: this.waitingRequests,
      waitingSeats: this.waitingSeats,
      activeQueues: this.queues.filter((q) => q.waiting.length > 0).length,
      dispatched: this.dispatched,
      rejected: { ...this.rejected },
      currentR: this.currentR,
      queues: this.queues.map((q) => ({ index: q.index, waitingRequests: q.waiting.length, executingRequests: q.executingRequests, executingSeats: q.executingSeats, nextDispatchR: q.nextDispatchR })),
    };
  }
}

/** kube's anti-windup: a queue's next dispatch is never due before its oldest request arrived. */
function boundNextDispatch(q: Queue): void {
  const head = q.waiting[0];
  if (head !== undefined && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
}
