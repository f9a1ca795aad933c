// A map of at most N entries that drops its oldest when full: values worth computing once (a
// compiled expression, a flow's hash, a dealt hand), whose keys the clients choose, so that the
// memory they hold stays bounded.

/** A bounded map that drops its oldest entry when full. */
export class BoundedCache<V, K = string> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly entriesMax: number) {}

  /** The value under `key`, made by `make` (and kept) on a miss. */
  get(key: K, make: () => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const made = make();
    if (this.entries.size >= this.entriesMax) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, made);
    return made;
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }
}
