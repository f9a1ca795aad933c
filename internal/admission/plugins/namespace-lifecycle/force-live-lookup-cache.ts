// The namespaces NamespaceLifecycle has seen a DELETE for: for a while after one, this replica's
// copy may still say Active, so creates in them are checked with a linearizable read
// (kube's forceLiveLookupCache, an LRU of 100 entries that expire after 30 s).

/** How many namespaces the cache remembers (kube's LRU size). */
export const forceLiveLookupEntriesMax = 100;
/** How long a namespace stays in the cache after its DELETE (kube's forceLiveLookupTTL). */
export const forceLiveLookupTtlMs = 30_000;

/** A bounded set of names that expire; the least recently added or read goes first when full. */
export class ForceLiveLookupCache {
  // A Map iterates in insertion order: re-inserting on use keeps the oldest first.
  private readonly expiresAtMs = new Map<string, number>();

  constructor(private readonly clock: () => number) {}

  /** Remembers `name` for the TTL from now. */
  add(name: string): void {
    this.expiresAtMs.delete(name);
    this.expiresAtMs.set(name, this.clock() + forceLiveLookupTtlMs);
    while (this.expiresAtMs.size > forceLiveLookupEntriesMax) {
      const oldest = this.expiresAtMs.keys().next().value;
      if (oldest === undefined) break;
      this.expiresAtMs.delete(oldest);
    }
  }

  /** Whether `name` was added within the TTL (an expired entry is dropped). */
  has(name: string): boolean {
    const expiresAtMs = this.expiresAtMs.get(name);
    if (expiresAtMs === undefined) return false;
    this.expiresAtMs.delete(name);
    if (this.clock() >= expiresAtMs) return false;
    this.expiresAtMs.set(name, expiresAtMs);
    return true;
  }
}
