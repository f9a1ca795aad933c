// The callers of `waitForRevision`, grouped by the revision they wait for. Adding one, timing one
// out and waking those an apply reached cost only the waiters concerned, however many others wait:
// a list scanned at every apply and filtered at every timeout made 40,000 waiters stall the event
// loop for 22 s.

/** How a wait ends: reached, or failed (timed out, or every wait ended by `rejectAll`). */
export interface WaitOutcome {
  resolve(): void;
  reject(error: Error): void;
}

interface Waiter {
  readonly outcome: WaitOutcome;
  readonly timer: NodeJS.Timeout;
}

/** Waiters for revisions not applied yet. */
export class RevisionWaiters {
  private readonly byRevision = new Map<number, Set<Waiter>>();
  private count = 0;
  /** Every waiter at or below this revision has been woken. */
  private wokenThrough: number;

  /** `current`: the revision applied now (nothing at or below it is waited for). */
  constructor(current: number) {
    this.wokenThrough = current;
  }

  /** How many wait. */
  get size(): number {
    return this.count;
  }

  /**
   * Waits for `revision`, which must be above the last one passed to `wake` (or the constructor):
   * resolved once it is reached, else rejected with `timeoutError()` after `timeoutMs`.
   */
  add(revision: number, timeoutMs: number, outcome: WaitOutcome, timeoutError: () => Error): void {
    if (revision <= this.wokenThrough) throw new Error(`assert: waiting for revision ${revision}, already reached ${this.wokenThrough}`);
    let waiting = this.byRevision.get(revision);
    if (waiting === undefined) this.byRevision.set(revision, (waiting = new Set()));
    const group = waiting;
    const waiter: Waiter = {
      outcome,
      timer: setTimeout(() => {
        group.delete(waiter);
        if (group.size === 0 && this.byRevision.get(revision) === group) this.byRevision.delete(revision);
        this.count--;
        outcome.reject(timeoutError());
      }, timeoutMs),
    };
    group.add(waiter);
    this.count++;
  }

  /** Resolves every waiter at or below `current`, the revision now applied. */
  wake(current: number): void {
    const from = this.wokenThrough;
    this.wokenThrough = current;
    if (current <= from || this.count === 0) return;
    // An apply moves a revision or a few; a restored snapshot may jump far: then walk the waiters.
    if (current - from <= this.byRevision.size) {
      for (let rev = from + 1; rev <= current; rev++) this.wakeGroup(rev);
    } else {
      for (const rev of [...this.byRevision.keys()]) if (rev <= current) this.wakeGroup(rev);
    }
  }

  /** Ends every wait with `error`. */
  rejectAll(error: Error): void {
    for (const group of this.byRevision.values()) {
      for (const waiter of group) {
        clearTimeout(waiter.timer);
        waiter.outcome.reject(error);
      }
    }
    this.byRevision.clear();
    this.count = 0;
  }

  private wakeGroup(revision: number): void {
    const group = this.byRevision.get(revision);
    if (group === undefined) return;
    this.byRevision.delete(revision);
    for (const waiter of group) {
      clearTimeout(waiter.timer);
      this.count--;
      waiter.outcome.resolve();
    }
  }
}
