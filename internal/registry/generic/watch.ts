import { StorageError, type Revision, type WatchEvent, type Watcher } from '../../storage/storage.ts';
import type { KObject } from '../schema/declaration.ts';
import { collectionPrefix, keyNamesObject, objectKey } from './keys.ts';
import { fieldSelectorNaming, parseFieldSelector, selectedName } from './field-selector.ts';
import { selectorPredicate, type ListQuery } from './list.ts';
import { watchDecodedChangesMax, watchProgressIntervalMs } from './limits.ts';
import { planWatch, type WatchPlan } from './resource-version.ts';
import { readInitialObjects } from './initial-events.ts';
import { toStatusError } from './storage-errors.ts';
import { gone, StatusError } from '../errors/status-error.ts';
import type { GenericStore } from './store.ts';

/**
 * One event of an API watch stream. `object` may be shared with other watchers of the same change
 * (decoded once per event): consumers must treat it as immutable.
 */
export interface ApiWatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: Record<string, unknown>;
}

/** The query of a watch. */
export interface WatchQuery extends Pick<ListQuery, 'labelSelector' | 'fieldSelector' | 'resourceVersion' | 'resourceVersionMatch'> {
  readonly allowWatchBookmarks?: boolean;
  /** true: start with ADDED events for the current objects; false: none; absent: per resourceVersion. */
  readonly sendInitialEvents?: boolean;
  /** The one object the request's path names: the field selector must be empty or pin metadata.name to it (else 400). */
  readonly name?: string;
}

/** Knobs of one watch, for tests; production watches take the defaults. */
export interface WatchTuning {
  /** Objects read per page of the initial events (default initialEventsPageItemsDefault). */
  readonly initialPageItems?: number;
}

/** The annotation of the BOOKMARK that ends the initial events of `sendInitialEvents`. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/** A running watch: iterate `events`; `stop()` ends it (iteration then finishes). */
export interface ApiWatch {
  readonly events: AsyncIterable<ApiWatchEvent>;
  stop(): void;
  /** Asks for a BOOKMARK at the revision delivered so far, after what is queued; none unless the watch allows bookmarks. */
  requestBookmark(): void;
  /**
   * Settles when the store closes the watch (it fell too far behind, its history went away), whether
   * or not `events` is being read; never after `stop()`.
   */
  readonly givenUp: Promise<void>;
}

/** The objects of one change, decoded once and shared by every watcher that receives it. */
interface DecodedChange {
  readonly obj: KObject;
  /** The previous value (updates only), for selector transitions. */
  readonly prev?: KObject;
}

// Per store (stores of one storage prefix may serve different apiVersions), keyed by key and
// revision: with N watchers one write costs one JSON.parse, not N, whether the watchers receive
// the change live (one shared event object) or replay it from history. Bounded, oldest out first.
const decodedChanges = new WeakMap<GenericStore, Map<string, DecodedChange | Promise<DecodedChange>>>();

function decodeChange(store: GenericStore, ev: Exclude<WatchEvent, { type: 'progress' }>): DecodedChange | Promise<DecodedChange> {
  let cache = decodedChanges.get(store);
  if (cache === undefined) decodedChanges.set(store, (cache = new Map()));
  const id = `${ev.kv.modRevision}:${ev.kv.key}`;
  let decoded = cache.get(id);
  if (decoded === undefined) {
    const obj = ev.type === 'delete' ? store.load(ev.prevKv, ev.kv.modRevision) : store.load(ev.kv);
    const prev = ev.type === 'update' ? store.load(ev.prevKv) : undefined;
    if (obj instanceof Promise || prev instanceof Promise) {
      // A converting store (a custom kind's webhook): one conversion shared by the change's watchers.
      const shared = Promise.all([obj, prev]).then(([o, p]) => (p === undefined ? { obj: o } : { obj: o, prev: p }));
      shared.catch(() => cache.delete(id));
      decoded = shared;
    } else decoded = prev === undefined ? { obj } : { obj, prev };
    cache.set(id, decoded);
    if (cache.size > watchDecodedChangesMax) cache.delete(cache.keys().next().value as string);
  }
  return decoded;
}

function bookmark(store: GenericStore, rev: Revision, annotations?: Record<string, string>): ApiWatchEvent {
  const metadata = { resourceVersion: String(rev), ...(annotations ? { annotations } : {}) };
  return { type: 'BOOKMARK', object: { kind: store.decl.kind, apiVersion: store.served.apiVersion, metadata } };
}

function translate(store: GenericStore, ev: WatchEvent, matches: (o: KObject) => boolean, bookmarks: boolean): ApiWatchEvent | null | Promise<ApiWatchEvent | null> {
  if (ev.type === 'progress') return bookmarks ? bookmark(store, ev.revision) : null;
  const change = decodeChange(store, ev);
  return change instanceof Promise ? change.then((c) => translateChange(ev, c, matches)) : translateChange(ev, change, matches);
}

function translateChange(ev: Exclude<WatchEvent, { type: 'progress' }>, change: DecodedChange, matches: (o: KObject) => boolean): ApiWatchEvent | null {
  const { obj, prev } = change;
  if (ev.type === 'create') return matches(obj) ? { type: 'ADDED', object: obj } : null;
  if (ev.type === 'delete') return matches(obj) ? { type: 'DELETED', object: obj } : null;
  const before = prev !== undefined && matches(prev);
  const now = matches(obj);
  if (before && now) return { type: 'MODIFIED', object: obj };
  if (now) return { type: 'ADDED', object: obj };
  return before ? { type: 'DELETED', object: obj } : null;
}

/** The initial objects (when the plan wants them, read page by page) and the revision the watch starts after. */
async function startingPoint(store: GenericStore, namespace: string | undefined, query: WatchQuery, plan: WatchPlan, pageItems: number | undefined): Promise<{ initial: AsyncIterable<readonly KObject[]> | null; after: Revision }> {
  if (plan.initialEvents) {
    const { revision, pages } = await readInitialObjects(store, namespace, query, plan.read, pageItems);
    return { initial: pages, after: revision };
  }
  switch (plan.read.kind) {
    case 'most-recent':
      return { initial: null, after: await store.guard('', () => store.storage.currentRevision()) };
    case 'any':
      return { initial: null, after: store.storage.localRevision() };
    default:
      // A start beyond this replica's revision is not an error: the watch waits for it.
      return { initial: null, after: plan.read.revision };
  }
}

/** A watch whose one event is kube-apiserver's 410 for a start older than history. */
function tooOldWatch(store: GenericStore, after: Revision): ApiWatch {
  const status = gone(`too old resource version: ${after} (${store.storage.compactedRevision()})`).toStatus();
  async function* events(): AsyncGenerator<ApiWatchEvent> {
    yield { type: 'ERROR', object: { ...status } };
  }
  return { events: events(), stop: () => undefined, requestBookmark: () => undefined, givenUp: Promise.resolve() };
}

/**
 * Starts a watch of a collection per the watch table (see `planWatch`): initial ADDED events when
 * planned (read a page at a time as the stream takes them: initial-events.ts), the
 * `initial-events-end` BOOKMARK when requested, then changes. As kube-apiserver does,
 * a start older than retained history is a 200 stream with one ERROR event (410 Expired), and
 * errors that end the stream later arrive the same way.
 */
export async function startWatch(store: GenericStore, namespace: string | undefined, request: WatchQuery, tuning: WatchTuning = {}): Promise<ApiWatch> {
  const query = request.name === undefined ? request : { ...request, fieldSelector: fieldSelectorNaming(request.fieldSelector, store.decl, request.name) };
  const matches = selectorPredicate(store.decl, query);
  const name = selectedName(parseFieldSelector(query.fieldSelector, store.decl));
  const plan = planWatch(query);
  const { initial, after } = await startingPoint(store, namespace, query, plan, tuning.initialPageItems);
  const prefix = name !== undefined && (namespace !== undefined || !store.decl.namespaced) ? objectKey(store.decl, namespace, name) : collectionPrefix(store.decl, namespace);
  let watcher: Watcher;
  try {
    watcher = store.storage.watch({ prefix, afterRevision: after, progressIntervalMs: watchProgressIntervalMs });
  } catch (err) {
    if (err instanceof StorageError && err.code === 'Compacted') return tooOldWatch(store, after);
    throw toStatusError(err, store.gr, '');
  }
  const bookmarks = query.allowWatchBookmarks === true;
  // An object's name never changes: its key tells whether it is the one watched.
  const otherName = (ev: WatchEvent): boolean => name !== undefined && ev.type !== 'progress' && !keyNamesObject(ev.kv.key, name);
  let stopped = false;
  async function* events(): AsyncGenerator<ApiWatchEvent> {
    try {
      // The watcher already exists (at `after`) but replays nothing until iterated: no change is
      // queued while the initial pages go out, and none is missed or repeated after them.
      if (initial !== null) {
        for await (const page of initial) {
          for (const obj of page) yield { type: 'ADDED', object: obj };
          // A stopped watch (timeout, client gone) reads no further page.
          if (stopped) return;
        }
      }
      if (plan.initialEventsEndBookmark) yield bookmark(store, after, { [initialEventsEndAnnotation]: 'true' });
      let lastSentMs = Date.now();
      for await (const ev of watcher) {
        // An exact-key prefix also matches longer names; the selector filters them out. A watch
        // of one name in every namespace skips the other names by key, without decoding them.
        const translated = otherName(ev) ? null : translate(store, ev, matches, bookmarks);
        const out = translated instanceof Promise ? await translated : translated;
        if (out) {
          lastSentMs = Date.now();
          yield out;
        } else if (bookmarks && ev.type !== 'progress' && Date.now() - lastSentMs >= watchProgressIntervalMs) {
          // The store counts filtered-out changes as announced and sends no progress for them, so
          // a selective watch says here how far it got (a resume then skips those changes).
          lastSentMs = Date.now();
          yield bookmark(store, ev.kv.modRevision);
        }
      }
    } catch (err) {
      // A conversion webhook's failure ends the stream as kube's watch does: an ERROR event with its Status.
      if (err instanceof StatusError) {
        yield { type: 'ERROR', object: { ...err.toStatus() } };
        return;
      }
      if (!(err instanceof StorageError)) throw err;
      yield { type: 'ERROR', object: { ...toStatusError(err, store.gr, '').toStatus() } };
    }
  }
  const givenUp = watcher.ended.then((error) => (error === null ? new Promise<void>(() => undefined) : undefined));
  const requestBookmark = () => {
    if (bookmarks) watcher.requestProgress();
  };
  const untrack = store.trackWatch(() => watcher.stop());
  void watcher.ended.then(untrack);
  return {
    events: events(),
    stop: () => {
      stopped = true;
      untrack();
      watcher.stop();
    },
    requestBookmark,
    givenUp,
  };
}
