// How many objects each resource holds, for the LIST work estimate (kube's storage object counts,
// apiserver_storage_objects, refreshed in the background). A count is read from the store (a
// page of one with its remaining count) at most once per objectCountTtlMs per resource; a request
// never waits for it: until the first count is in, the estimate has none.
import type { GenericStore } from '../registry/generic/store.ts';
import { objectCountTtlMs } from './limits.ts';

export class ObjectCounts {
  private readonly counts = new Map<string, { value: number | undefined; at: number; counting: boolean }>();

  constructor(
    private readonly storeOf: (apiGroup: string, resource: string) => GenericStore | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last count of the resource's objects (undefined before the first), refreshed when stale. */
  get(apiGroup: string, resource: string): number | undefined {
    const key = `${apiGroup}/${resource}`;
    let entry = this.counts.get(key);
    if (entry === undefined) {
      if (this.storeOf(apiGroup, resource) === undefined) return undefined;
      entry = { value: undefined, at: -Infinity, counting: false };
      this.counts.set(key, entry);
    }
    if (!entry.counting && this.now() - entry.at >= objectCountTtlMs) void this.count(apiGroup, resource, entry);
    return entry.value;
  }

  private async count(apiGroup: string, resource: string, entry: { value: number | undefined; at: number; counting: boolean }): Promise<void> {
    const store = this.storeOf(apiGroup, resource);
    if (store === undefined) return;
    entry.counting = true;
    try {
      const page = await store.list(undefined, { limit: 1 });
      entry.value = page.items.length + (page.metadata.remainingItemCount ?? 0);
    } catch {
      // A count that failed (no quorum, a store closing) is tried again later; the old one stays.
    } finally {
      entry.at = this.now();
      entry.counting = false;
    }
  }
}
