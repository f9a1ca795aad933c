// A resumable watch: reads the chunked stream of watch events, and when the stream breaks it
// resumes on another endpoint from the last resourceVersion it delivered (an event's or a
// bookmark's), so no event is missed or repeated. When the server answers 410 Gone (as the HTTP
// status or as an ERROR event carrying a Status with code 410) history is gone: it lists the
// collection again and emits one RESYNC event so the consumer can replace its state.
import { jitteredBackoffMs } from './backoff.ts';
import type { OrchClient, OpenStream, Query } from './client.ts';
import type { Endpoint } from './endpoints.ts';
import { ApiError, ExecPluginError, WatchError, type StatusObject } from './errors.ts';
import { JsonDocumentSplitter } from './json-stream.ts';
import * as limits from './limits.ts';
import { listAll } from './list-pager.ts';
import { resourceVersionOf, type KubeObject } from './objects.ts';
import { isAbortError } from './transport.ts';

/** A change to one object, at the resourceVersion the server gave it. */
export interface ObjectEvent<T extends KubeObject> {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: T;
  readonly resourceVersion: string;
}

/** All changes up to `resourceVersion` have been delivered. */
export interface BookmarkEvent {
  readonly type: 'BOOKMARK';
  readonly resourceVersion: string;
}

/** History was lost (410): the full current state; consumers replace theirs with it. */
export interface ResyncEvent<T extends KubeObject> {
  readonly type: 'RESYNC';
  readonly objects: readonly T[];
  readonly resourceVersion: string;
}

/** What a resumable watch yields, in resourceVersion order. */
export type WatchEvent<T extends KubeObject = KubeObject> = ObjectEvent<T> | BookmarkEvent | ResyncEvent<T>;

/** Options of `watch`. */
export interface WatchOptions {
  /** Collection path (e.g. /api/v1/namespaces/default/configmaps). */
  readonly path: string;
  /** Start after this version; unset starts with synthetic ADDED events for the current state. */
  readonly resourceVersion?: string;
  readonly allowBookmarks?: boolean;
  /** Extra query parameters (selectors). */
  readonly query?: Query;
  /** Page size of the list made after a 410. */
  readonly relistPageSize?: number;
  readonly signal?: AbortSignal;
  readonly reconnectAttemptsMax?: number;
  /**
   * Lifetime in seconds the server is asked to give each stream (default: random in
   * [watchTimeoutSecondsMin, watchTimeoutSecondsMax]). A stream silent for longer than this plus
   * `watchSilenceMarginMs` is treated as broken and the watch resumes on another endpoint.
   */
  readonly timeoutSeconds?: number;
  /** Silence after which a stream counts as broken (default: the lifetime plus `watchSilenceMarginMs`). */
  readonly silenceTimeoutMs?: number;
  /**
   * Called each time a stream opens, before its first event: which endpoint serves it, the version
   * it starts after, and whether it follows a relist. Chaos tests record watch segments with it.
   */
  readonly onStream?: (stream: WatchStreamInfo) => void;
}

/** Where one stream of a resumable watch came from. */
export interface WatchStreamInfo {
  readonly endpoint: string;
  readonly resourceVersion: string | undefined;
  readonly afterRelist: boolean;
}

type StreamEnd = { kind: 'gone' } | { kind: 'ended'; delivered: boolean } | { kind: 'broken'; delivered: boolean; error: unknown };

/** The state a watch carries from one stream to the next. */
interface Cursor {
  resourceVersion: string | undefined;
  afterRelist: boolean;
  failures: number;
  avoid: Set<Endpoint>;
}

/**
 * Watches `options.path` until the signal aborts or the consumer stops iterating. Throws
 * WatchError after `reconnectAttemptsMax` consecutive failures without progress, and ApiError for
 * answers that a retry cannot fix (401, 403, 404, ...).
 */
export async function* watch<T extends KubeObject = KubeObject>(client: OrchClient, options: WatchOptions): AsyncGenerator<WatchEvent<T>> {
  const cursor: Cursor = { resourceVersion: options.resourceVersion, afterRelist: false, failures: 0, avoid: new Set() };
  const attemptsMax = options.reconnectAttemptsMax ?? limits.watchReconnectAttemptsMax;
  while (!isAborted(options.signal)) {
    if (cursor.failures > attemptsMax) throw new WatchError(`watch ${options.path}: ${attemptsMax} reconnection attempts failed`);
    if (cursor.failures > 0) await client.clock.sleep(jitteredBackoffMs(cursor.failures, limits.retryBackoffBaseMs, limits.retryBackoffMaxMs, client.clock.random));
    if (isAborted(options.signal)) return;
    const lifetimeSeconds = options.timeoutSeconds ?? streamLifetimeSeconds(client.clock.random);
    const stream = await openOrNull(client, options, cursor, lifetimeSeconds);
    if (stream === 'gone') {
      // Counted as a failure so a server that keeps answering 410 is met with backoff, not a loop.
      cursor.failures += 1;
      yield* relist<T>(client, options, cursor);
      continue;
    }
    if (stream === undefined) continue;
    cursor.avoid = new Set([stream.endpoint]);
    options.onStream?.({ endpoint: stream.endpoint.url, resourceVersion: cursor.resourceVersion, afterRelist: cursor.afterRelist });
    cursor.afterRelist = false;
    const openedAtMs = client.clock.now();
    const end = yield* readStream<T>(stream, cursor, options.signal);
    if (end.kind === 'gone') {
      cursor.failures += 1;
      yield* relist<T>(client, options, cursor);
    } else if (end.kind === 'broken') {
      if (isAborted(options.signal)) return;
      client.reportStreamFailure(stream.endpoint);
      cursor.failures = end.delivered ? 1 : cursor.failures + 1;
    } else {
      // A clean close is normal (the server ends each stream at the lifetime asked for, or shuts
      // down); only a run of streams that ended early and empty backs off and counts toward giving
      // up, so an idle but healthy collection can be watched forever.
      const healthy = end.delivered || client.clock.now() - openedAtMs >= healthyStreamMs(lifetimeSeconds);
      cursor.failures = healthy ? 0 : cursor.failures + 1;
    }
  }
}

/** A random stream lifetime, so that many watchers started together do not all reconnect together. */
function streamLifetimeSeconds(random: () => number): number {
  const span = limits.watchTimeoutSecondsMax - limits.watchTimeoutSecondsMin;
  return limits.watchTimeoutSecondsMin + Math.floor(random() * (span + 1));
}

/** How long a stream must stay open to count as healthy when it ends cleanly without an event. */
function healthyStreamMs(lifetimeSeconds: number): number {
  return Math.min(lifetimeSeconds * 500, limits.watchStreamHealthyMs);
}

/** Opens the next stream; 'gone' on 410, undefined after a retryable failure (counted in the cursor). */
async function openOrNull(client: OrchClient, options: WatchOptions, cursor: Cursor, timeoutSeconds: number): Promise<OpenStream | 'gone' | undefined> {
  const query: Query = {
    ...options.query,
    watch: 1,
    resourceVersion: cursor.resourceVersion,
    allowWatchBookmarks: options.allowBookmarks === true ? 'true' : undefined,
    timeoutSeconds,
  };
  try {
    return await client.openStream(options.path, query, cursor.avoid, options.signal, options.silenceTimeoutMs ?? timeoutSeconds * 1000 + limits.watchSilenceMarginMs);
  } catch (error) {
    if (isAbortError(error)) return undefined;
    // A plugin that cannot give a credential will not start giving one on another endpoint.
    if (error instanceof ExecPluginError) throw error;
    if (error instanceof ApiError) {
      if (error.status === 410) return 'gone';
      if (![429, 500, 502, 503, 504].includes(error.status)) throw error;
    }
    cursor.failures += 1;
    return undefined;
  }
}

async function* readStream<T extends KubeObject>(stream: OpenStream, cursor: Cursor, signal: AbortSignal | undefined): AsyncGenerator<WatchEvent<T>, StreamEnd> {
  const splitter = new JsonDocumentSplitter();
  let delivered = false;
  try {
    for await (const chunk of stream.body) {
      for (const document of splitter.push(chunk)) {
        const event = decodeEvent<T>(document);
        if (event === 'gone') return { kind: 'gone' };
        if (event instanceof Error) return { kind: 'broken', delivered, error: event };
        cursor.resourceVersion = event.resourceVersion;
        delivered = true;
        cursor.failures = 0;
        yield event;
      }
    }
    if (splitter.hasPartialDocument()) return { kind: 'broken', delivered, error: new WatchError('stream ended inside a document') };
    return { kind: 'ended', delivered };
  } catch (error) {
    if (isAborted(signal) || isAbortError(error)) return { kind: 'ended', delivered };
    return { kind: 'broken', delivered, error };
  } finally {
    stream.body.destroy();
  }
}

/** Turns one JSON document into an event; 'gone' for a 410 ERROR, an Error for anything unusable. */
function decodeEvent<T extends KubeObject>(document: unknown): WatchEvent<T> | 'gone' | Error {
  if (document === null || typeof document !== 'object') return new WatchError('watch document is not an object');
  const { type, object } = document as { type?: unknown; object?: unknown };
  if (object === null || typeof object !== 'object') return new WatchError(`watch event ${String(type)} without an object`);
  if (type === 'ERROR') {
    const status = object as StatusObject;
    if (status.code === 410) return 'gone';
    return new WatchError(`watch ERROR event: ${status.code ?? '?'} ${status.reason ?? ''} ${status.message ?? ''}`);
  }
  const resourceVersion = resourceVersionOf(object as KubeObject);
  if (resourceVersion === '') return new WatchError(`watch event ${String(type)} without metadata.resourceVersion`);
  if (type === 'BOOKMARK') return { type, resourceVersion };
  if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') return { type, object: object as T, resourceVersion };
  return new WatchError(`unknown watch event type ${String(type)}`);
}

async function* relist<T extends KubeObject>(client: OrchClient, options: WatchOptions, cursor: Cursor): AsyncGenerator<WatchEvent<T>> {
  try {
    const snapshot = await listAll<T>(client, options.path, {
      ...(options.relistPageSize === undefined ? {} : { pageSize: options.relistPageSize }),
      ...(options.query === undefined ? {} : { query: options.query }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    cursor.resourceVersion = snapshot.resourceVersion;
    cursor.afterRelist = true;
    yield { type: 'RESYNC', objects: snapshot.items, resourceVersion: snapshot.resourceVersion };
  } catch (error) {
    if (isAbortError(error) || isAborted(options.signal)) return;
    if (error instanceof ExecPluginError) throw error;
    if (error instanceof ApiError && ![410, 429, 500, 502, 503, 504].includes(error.status)) throw error;
    cursor.failures += 1;
  }
}

// A function, not an inline test, so the compiler does not narrow `aborted` across awaits.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
