// A bounded cache whose entries expire (kube's LRUExpireCache): each entry lives for the TTL it
// was added with, reads of an expired entry miss, and past `capacity` the least recently used
// entry is dropped.

/** An LRU cache of at most `capacity` entries with per-entry expiry on an injected clock. */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expiresAtMs: number }>();

  constructor(
    private readonly capacity: number,
    private readonly clock: () => number,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error(`ExpiringCache: capacity must be a positive integer, got ${capacity}`);
  }

  /** The live value for `key`, made the most recently used; undefined when absent or expired. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (this.clock() >= entry.expiresAtMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Adds or replaces `key`, living `ttlMs` from now (0: expired at once). */
  add(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs: this.clock() + ttlMs });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
