// A bounded cache whose entries expire: the webhook authorizer's answer cache.

/** Maps keys to values for a per-entry time to live; holds at most `entriesMax`, dropping the oldest. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();

  constructor(
    private readonly entriesMax: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** The live value of `key`, or undefined when absent or expired. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs <= this.nowMs()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores `value` for `ttlMs` (0 or less stores nothing). */
  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs: this.nowMs() + ttlMs });
    while (this.entries.size > this.entriesMax) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
