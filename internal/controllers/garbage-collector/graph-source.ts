import type { Revision, WatchEvent } from '../../storage/storage.ts';
import { decodeKeyValue } from '../../registry/generic/codec.ts';
import { waitForRevisionMs } from '../../registry/generic/limits.ts';
import { listPageItemsMax } from './limits.ts';
import { nodeOf, type ObjectGraph } from './object-graph.ts';
import type { ResourceIndex, StorageSource } from './resource-index.ts';

/**
 * Loads every object of the source's stores into the graph, all as of one revision (the
 * source's latest, confirmed with the leader), and returns that revision: the watch resumes
 * after it, so the graph misses no change and applies none twice.
 */
export async function loadSource(source: StorageSource, graph: ObjectGraph): Promise<Revision> {
  const revision = await source.storage.currentRevision();
  // Nothing exists at revision 0 (and an exact list of it is refused).
  if (revision === 0) return revision;
  await source.storage.waitForRevision(revision, waitForRevisionMs);
  for (const store of source.stores) {
    let next: string | undefined;
    do {
      const query = next === undefined ? { limit: listPageItemsMax, resourceVersion: String(revision), resourceVersionMatch: 'Exact' } : { limit: listPageItemsMax, continue: next };
      const page = await store.list(undefined, query);
      for (const obj of page.items) {
        const node = nodeOf(store, obj);
        if (node) graph.upsert(node);
      }
      next = page.metadata.continue;
    } while (next !== undefined && next !== '');
  }
  return revision;
}

/**
 * Applies one storage event to the graph and returns the uids to look at again. Keys of
 * resources the collector does not track, and progress events, change nothing.
 */
export function applyEvent(index: ResourceIndex, graph: ObjectGraph, event: WatchEvent): string[] {
  if (event.type === 'progress') return [];
  const store = index.storeOfKey(event.kv.key);
  if (!store) return [];
  if (event.type === 'delete') {
    const gone = nodeOf(store, decodeKeyValue(event.prevKv));
    return gone ? graph.remove(gone.uid) : [];
  }
  const node = nodeOf(store, decodeKeyValue(event.kv));
  return node ? graph.upsert(node) : [];
}
