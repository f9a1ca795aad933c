import { retryDelayMsMax, retryDelayMsMin } from './limits.ts';

/**
 * A deduplicating queue of uids to (re)examine. An item is handed to one worker at a time: an
 * item added while it is being processed is handed out again once `done` is called. Its size is
 * bounded by the number of objects in the graph (one entry per uid).
 */
export class WorkQueue {
  private readonly ready = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private waiters: (() => void)[] = [];
  private closed = false;

  /** Queues `uid` unless it is already waiting. */
  add(uid: string): void {
    if (this.closed) return;
    if (this.processing.has(uid)) {
      this.dirty.add(uid);
      return;
    }
    this.ready.add(uid);
    this.wake();
  }

  /** Queues `uid` again after a delay that doubles with each failure in a row. */
  retry(uid: string): void {
    const n = (this.failures.get(uid) ?? 0) + 1;
    this.failures.set(uid, n);
    const delayMs = Math.min(retryDelayMsMax, retryDelayMsMin * 2 ** Math.min(n - 1, 20));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(uid);
    }, delayMs);
    this.timers.add(timer);
  }

  /** Forgets the failures of `uid` (its last processing succeeded). */
  forget(uid: string): void {
    this.failures.delete(uid);
  }

  /** The next uid to process, or undefined once closed. Call `done` after processing it. */
  async next(): Promise<string | undefined> {
    for (;;) {
      if (this.closed) return undefined;
      const first = this.ready.values().next();
      if (!first.done) {
        this.ready.delete(first.value);
        this.processing.add(first.value);
        return first.value;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Marks `uid` processed; queues it again if it was added meanwhile. */
  done(uid: string): void {
    this.processing.delete(uid);
    if (this.dirty.delete(uid)) this.add(uid);
  }

  /** Stops the queue: pending `next` calls return undefined, delayed retries are dropped. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
