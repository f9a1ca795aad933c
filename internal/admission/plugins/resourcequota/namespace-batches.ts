// Admissions grouped by namespace (the quota admission's work queue): while one batch of a
// namespace is being checked and charged, later admissions of that namespace wait and go together
// in the next batch. One replica thus never races itself on a quota; replicas race through the
// store's compare-and-swap.
import { quotaBatchSizeMax } from './limits.ts';

/** Runs `process` on batches of items per key, one batch per key at a time, in arrival order. */
export class KeyedBatches<T> {
  private readonly waiting = new Map<string, T[]>();
  private readonly busy = new Set<string>();

  /** `process` must settle its items itself and not reject; a rejection is reported through `onError`. */
  constructor(
    private readonly process: (key: string, batch: T[]) => Promise<void>,
    private readonly onError: (err: unknown, batch: T[]) => void,
  ) {}

  /** Queues an item; its batch starts at once when the key is idle. */
  add(key: string, item: T): void {
    const list = this.waiting.get(key) ?? [];
    list.push(item);
    this.waiting.set(key, list);
    if (!this.busy.has(key)) void this.drain(key);
  }

  private take(key: string): T[] {
    const list = this.waiting.get(key) ?? [];
    const batch = list.splice(0, quotaBatchSizeMax);
    if (list.length === 0) this.waiting.delete(key);
    return batch;
  }

  private async drain(key: string): Promise<void> {
    this.busy.add(key);
    try {
      for (let batch = this.take(key); batch.length > 0; batch = this.take(key)) {
        try {
          await this.process(key, batch);
        } catch (err) {
          this.onError(err, batch);
        }
      }
    } finally {
      this.busy.delete(key);
    }
  }
}
