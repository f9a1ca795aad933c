// A reflector and informer: lists a collection (in pages), then watches from the list's
// resourceVersion, keeping a local cache keyed by namespace/name and calling handlers for each
// change. After a 410 the watch relists and the cache is replaced: objects that vanished get a
// synthesized delete, changed ones an update, new ones an add. When the watch gives up (every
// replica unreachable for its whole reconnection budget) the informer starts it again from the
// last version it holds, after a backoff, until it is stopped: like client-go's reflector, an
// informer outlives any outage; only answers a retry cannot fix (401, 403, 404) stop it.
import { jitteredBackoffMs } from './backoff.ts';
import type { OrchClient, Query } from './client.ts';
import { UnavailableError, WatchError } from './errors.ts';
import { retryBackoffBaseMs, retryBackoffMaxMs } from './limits.ts';
import { listAll } from './list-pager.ts';
import { assert } from './assert.ts';
import { objectKey, resourceVersionOf, type KubeObject } from './objects.ts';
import { watch, type WatchEvent, type WatchStreamInfo } from './watch.ts';

/** Callbacks of an informer; called synchronously, in event order, never concurrently. */
export interface InformerHandlers<T extends KubeObject> {
  onAdd?(object: T): void;
  onUpdate?(oldObject: T, newObject: T): void;
  onDelete?(object: T): void;
}

/** Options of an Informer. */
export interface InformerOptions<T extends KubeObject> {
  readonly path: string;
  readonly pageSize?: number;
  readonly query?: Query;
  readonly allowBookmarks?: boolean;
  readonly handlers?: InformerHandlers<T>;
  /** Called when the watch loop stops with an error it cannot recover from (401, 403, 404, ...). */
  readonly onError?: (error: unknown) => void;
  /** Called each time a watch that gave up is started again (the error it gave up with). */
  readonly onRestart?: (error: unknown) => void;
  /** Called with every event (RESYNC and BOOKMARK included) just before the cache applies it. */
  readonly onEvent?: (event: WatchEvent<T>) => void;
  /** Called each time a watch stream opens (first one, resumptions, after relists). */
  readonly onStream?: (stream: WatchStreamInfo) => void;
  /** Consecutive reconnection failures before the watch gives up (see `watch`). */
  readonly reconnectAttemptsMax?: number;
  /** Lifetime the server is asked to give each watch stream (see `WatchOptions.timeoutSeconds`). */
  readonly timeoutSeconds?: number;
  /** Silence after which a watch stream counts as broken (see `WatchOptions.silenceTimeoutMs`). */
  readonly silenceTimeoutMs?: number;
}

/** Keeps a cache of one collection in sync with the server. */
export class Informer<T extends KubeObject = KubeObject> {
  private readonly cache = new Map<string, T>();
  private readonly abort = new AbortController();
  private lastResourceVersion = '';
  private running: Promise<void> | undefined;

  constructor(
    private readonly client: OrchClient,
    private readonly options: InformerOptions<T>,
  ) {}

  /** Lists, fills the cache (calling onAdd), then starts watching; resolves once the cache is synced. Call once. */
  async start(): Promise<void> {
    assert(this.running === undefined && !this.abort.signal.aborted, 'an informer starts once');
    const snapshot = await listAll<T>(this.client, this.options.path, {
      ...(this.options.pageSize === undefined ? {} : { pageSize: this.options.pageSize }),
      ...(this.options.query === undefined ? {} : { query: this.options.query }),
      signal: this.abort.signal,
    });
    this.replace(snapshot.items, snapshot.resourceVersion);
    this.running = this.run().catch((error: unknown) => this.options.onError?.(error));
  }

  /** Stops the watch; resolves when the loop has ended. The cache stays readable. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** The cached object under `namespace/name` (or `name`), if any. */
  get(key: string): T | undefined {
    return this.cache.get(key);
  }

  /** Every cached object, in key order. */
  list(): T[] {
    return [...this.cache.keys()].sort().map((key) => this.cache.get(key) as T);
  }

  /** The resourceVersion the cache reflects (last list, event or bookmark). */
  get resourceVersion(): string {
    return this.lastResourceVersion;
  }

  /** Watches until stopped, starting the watch again (from the last version) each time it gives up. */
  private async run(): Promise<void> {
    for (let restarts = 0; !this.abort.signal.aborted; restarts += 1) {
      try {
        await this.watchOnce();
        return;
      } catch (error) {
        if (!(error instanceof WatchError || error instanceof UnavailableError) || this.abort.signal.aborted) throw error;
        this.options.onRestart?.(error);
        const clock = this.client.clock;
        await Promise.race([clock.sleep(jitteredBackoffMs(restarts + 1, retryBackoffBaseMs, retryBackoffMaxMs, clock.random)), this.aborted]);
      }
    }
  }

  /** Resolves when `stop()` is called. */
  private readonly aborted = new Promise<void>((resolve) => this.abort.signal.addEventListener('abort', () => resolve(), { once: true }));

  /** One resumable watch from the cache's version; returns when stopped, throws when it gives up. */
  private async watchOnce(): Promise<void> {
    const events = watch<T>(this.client, {
      path: this.options.path,
      resourceVersion: this.lastResourceVersion,
      allowBookmarks: this.options.allowBookmarks ?? true,
      signal: this.abort.signal,
      ...(this.options.pageSize === undefined ? {} : { relistPageSize: this.options.pageSize }),
      ...(this.options.query === undefined ? {} : { query: this.options.query }),
      ...(this.options.onStream === undefined ? {} : { onStream: this.options.onStream }),
      ...(this.options.reconnectAttemptsMax === undefined ? {} : { reconnectAttemptsMax: this.options.reconnectAttemptsMax }),
      ...(this.options.timeoutSeconds === undefined ? {} : { timeoutSeconds: this.options.timeoutSeconds }),
      ...(this.options.silenceTimeoutMs === undefined ? {} : { silenceTimeoutMs: this.options.silenceTimeoutMs }),
    });
    for await (const event of events) {
      this.options.onEvent?.(event);
      this.apply(event);
    }
  }

  private apply(event: WatchEvent<T>): void {
    const handlers = this.options.handlers ?? {};
    if (event.type === 'RESYNC') {
      this.replace(event.objects, event.resourceVersion);
      return;
    }
    this.lastResourceVersion = event.resourceVersion;
    if (event.type === 'BOOKMARK') return;
    const key = objectKey(event.object);
    const old = this.cache.get(key);
    if (event.type === 'DELETED') {
      this.cache.delete(key);
      handlers.onDelete?.(old ?? event.object);
      return;
    }
    this.cache.set(key, event.object);
    if (old === undefined) handlers.onAdd?.(event.object);
    else handlers.onUpdate?.(old, event.object);
  }

  /** Replace semantics: the cache becomes exactly `objects`; handlers see the difference. */
  private replace(objects: readonly T[], resourceVersion: string): void {
    const handlers = this.options.handlers ?? {};
    const fresh = new Map(objects.map((object) => [objectKey(object), object]));
    for (const [key, old] of this.cache) {
      if (!fresh.has(key)) {
        this.cache.delete(key);
        handlers.onDelete?.(old);
      }
    }
    for (const [key, object] of fresh) {
      const old = this.cache.get(key);
      this.cache.set(key, object);
      if (old === undefined) handlers.onAdd?.(object);
      else if (resourceVersionOf(old) !== resourceVersionOf(object)) handlers.onUpdate?.(old, object);
    }
    this.lastResourceVersion = resourceVersion;
  }
}
