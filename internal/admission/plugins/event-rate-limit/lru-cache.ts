// A bounded least-recently-used map: getting a key makes it the newest; adding past `capacity`
// drops the oldest. Holds the per-key buckets of one limit.

/** An LRU map of at most `capacity` entries (capacity >= 1). */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error(`LruCache: capacity must be a positive integer, got ${capacity}`);
  }

  /** The value for `key`, made with `make` and added when absent. */
  getOrAdd(key: string, make: () => V): V {
    const found = this.entries.get(key);
    if (found !== undefined) {
      // Re-inserting moves the key to the end of Map's insertion order: the newest.
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const made = make();
    this.entries.set(key, made);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return made;
  }

  /** How many keys are held. */
  get size(): number {
    return this.entries.size;
  }
}
