// A reflector and informer: lists a collection (in pages), then watches from the list's
// resourceVersion, keeping a local cache keyed by namespace/name and calling handlers for each
// change. After a 410 the watch relists and the cache is replaced: objects that vanished get a
// synthesized delete, changed ones an update, new ones an add.
import type { OrchClient, Query } from './client.ts';
import { listAll } from './list-pager.ts';
import { objectKey, resourceVersionOf, type KubeObject } from './objects.ts';
import { watch, type WatchEvent } from './watch.ts';

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
  /** Called when the watch loop stops with an error it cannot recover from. */
  readonly onError?: (error: unknown) => void;
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

  /** Lists, fills the cache (calling onAdd), then starts watching; resolves once the cache is synced. */
  async start(): Promise<void> {
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

  private async run(): Promise<void> {
    const events = watch<T>(this.client, {
      path: this.options.path,
      resourceVersion: this.lastResourceVersion,
      allowBookmarks: this.options.allowBookmarks ?? true,
      signal: this.abort.signal,
      ...(this.options.pageSize === undefined ? {} : { relistPageSize: this.options.pageSize }),
      ...(this.options.query === undefined ? {} : { query: this.options.query }),
    });
    for await (const event of events) this.apply(event);
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
