import { StorageError, type Revision, type WatchEvent } from '../../storage/storage.ts';
import type { KObject } from '../schema/declaration.ts';
import { decodeKeyValue } from './codec.ts';
import { collectionPrefix, objectKey } from './keys.ts';
import { selectedName } from './field-selector.ts';
import { parseFieldSelector } from './field-selector.ts';
import { selectorPredicate, type ListQuery } from './list.ts';
import { watchProgressIntervalMs } from './limits.ts';
import { parseResourceVersion } from './resource-version.ts';
import { toStatusError } from './storage-errors.ts';
import { badRequest } from '../errors/status-error.ts';
import type { GenericStore } from './store.ts';

/** One event of an API watch stream. */
export interface ApiWatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: Record<string, unknown>;
}

/** The query of a watch. */
export interface WatchQuery extends Pick<ListQuery, 'labelSelector' | 'fieldSelector' | 'resourceVersion' | 'resourceVersionMatch'> {
  readonly allowWatchBookmarks?: boolean;
  /** Start with ADDED events for the current objects, then a BOOKMARK marking their end. */
  readonly sendInitialEvents?: boolean;
}

/** The annotation of the BOOKMARK that ends the initial events of `sendInitialEvents`. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

function checkInitialEvents(query: WatchQuery): void {
  if (!query.sendInitialEvents) return;
  if (query.resourceVersionMatch !== 'NotOlderThan') throw badRequest('sendInitialEvents requires resourceVersionMatch=NotOlderThan');
  if (!query.allowWatchBookmarks) throw badRequest('sendInitialEvents requires allowWatchBookmarks=true');
}

/** A running watch: iterate `events`; `stop()` ends it (iteration then finishes). */
export interface ApiWatch {
  readonly events: AsyncIterable<ApiWatchEvent>;
  stop(): void;
}

function translate(store: GenericStore, ev: WatchEvent, matches: (o: KObject) => boolean, bookmarks: boolean): ApiWatchEvent | null {
  if (ev.type === 'progress') {
    if (!bookmarks) return null;
    return { type: 'BOOKMARK', object: { kind: store.decl.kind, apiVersion: store.served.apiVersion, metadata: { resourceVersion: String(ev.revision) } } };
  }
  const obj = store.withType(ev.type === 'delete' ? decodeKeyValue(ev.prevKv, ev.kv.modRevision) : decodeKeyValue(ev.kv));
  if (ev.type === 'create') return matches(obj) ? { type: 'ADDED', object: obj } : null;
  if (ev.type === 'delete') return matches(obj) ? { type: 'DELETED', object: obj } : null;
  const before = matches(decodeKeyValue(ev.prevKv));
  const now = matches(obj);
  if (before && now) return { type: 'MODIFIED', object: obj };
  if (now) return { type: 'ADDED', object: obj };
  return before ? { type: 'DELETED', object: obj } : null;
}

/**
 * Starts a watch of a collection. Without a resourceVersion (or with "0") it first sends the
 * current objects as ADDED events, then changes; with one, changes after it. Errors that end the
 * stream arrive as one ERROR event carrying a Status.
 */
export async function startWatch(store: GenericStore, namespace: string | undefined, query: WatchQuery): Promise<ApiWatch> {
  const matches = selectorPredicate(store.decl, query);
  const name = selectedName(parseFieldSelector(query.fieldSelector, store.decl));
  checkInitialEvents(query);
  const rv = query.resourceVersion ?? '';
  let initial: KObject[] = [];
  let after: Revision;
  if (rv === '' || rv === '0' || query.sendInitialEvents) {
    const { labelSelector, fieldSelector } = query;
    const list = await store.list(namespace, { labelSelector, fieldSelector, ...(rv === '' ? {} : { resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' }) });
    initial = list.items;
    after = parseResourceVersion(list.metadata.resourceVersion);
  } else after = parseResourceVersion(rv);
  const prefix = name !== undefined && (namespace !== undefined || !store.decl.namespaced) ? objectKey(store.decl, namespace, name) : collectionPrefix(store.decl, namespace);
  const watcher = await store.guard('', async () => store.storage.watch({ prefix, afterRevision: after, progressIntervalMs: watchProgressIntervalMs }));
  const bookmarks = query.allowWatchBookmarks === true;
  async function* events(): AsyncGenerator<ApiWatchEvent> {
    for (const obj of initial) yield { type: 'ADDED', object: obj };
    if (query.sendInitialEvents) {
      const metadata = { resourceVersion: String(after), annotations: { [initialEventsEndAnnotation]: 'true' } };
      yield { type: 'BOOKMARK', object: { kind: store.decl.kind, apiVersion: store.served.apiVersion, metadata } };
    }
    try {
      for await (const ev of watcher) {
        // An exact-key prefix also matches longer names; the selector filters them out.
        const out = translate(store, ev, matches, bookmarks);
        if (out) yield out;
      }
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      yield { type: 'ERROR', object: { ...toStatusError(err, store.gr, '').toStatus() } };
    }
  }
  return { events: events(), stop: () => watcher.stop() };
}
