import { revision, StorageError, type GetOptions, type KeyValue, type ListOptions, type ListResult, type Revision, type Storage, type WatchEvent, type WatchOptions, type Watcher, type WritePrecondition } from '../../../internal/storage/storage.ts';

interface HistoryEntry {
  readonly rev: number;
  readonly key: string;
  readonly kv: KeyValue | null;
  readonly event: WatchEvent;
}

/** An in-memory Storage for API tests: full history, no compaction unless asked, no Raft. */
export class FakeStorage implements Storage {
  private rev = 0;
  private compacted = 0;
  private readonly history: HistoryEntry[] = [];
  /** The state at `rev`, kept as writes commit: replaying the history for every read made each write cost O(writes so far). */
  private readonly latest = new Map<string, KeyValue>();
  private readonly listeners = new Set<(e: HistoryEntry) => void>();
  /** The stop of every open watch (endWatches). */
  private readonly openWatches = new Set<() => void>();
  /** Changes of keys `lagging` matches, held back from the open watches (see lagWatches). */
  private lagging: ((key: string) => boolean) | null = null;
  private readonly held: HistoryEntry[] = [];

  /**
   * Makes the open watches lag, as a replica's informers do that have not applied a change yet:
   * changes of the keys `matches` selects reach them only at `catchUp`.
   */
  lagWatches(matches: (key: string) => boolean): { catchUp(): void } {
    this.lagging = matches;
    return {
      catchUp: () => {
        this.lagging = null;
        for (const entry of this.held.splice(0)) for (const l of this.listeners) l(entry);
      },
    };
  }

  private stateAt(rev: number): ReadonlyMap<string, KeyValue> {
    if (rev < this.compacted) throw new StorageError('Compacted', `revision ${rev} is compacted`);
    if (rev > this.rev) throw new StorageError('RevisionTooLarge', `Too large resource version: ${rev}, current: ${this.rev}`);
    if (rev === this.rev) return this.latest;
    const state = new Map<string, KeyValue>();
    for (const h of this.history) {
      if (h.rev > rev) break;
      if (h.kv) state.set(h.key, h.kv);
      else state.delete(h.key);
    }
    return state;
  }

  async get(key: string, options?: GetOptions): Promise<KeyValue | null> {
    return this.stateAt(options?.revision ?? this.rev).get(key) ?? null;
  }

  async list(options: ListOptions): Promise<ListResult> {
    const at = options.revision ?? this.rev;
    const all = [...this.stateAt(at).values()].filter((kv) => kv.key.startsWith(options.prefix) && (!options.startKey || kv.key >= options.startKey)).sort((a, b) => (a.key < b.key ? -1 : 1));
    const limit = options.limit ?? 0;
    const items = limit > 0 ? all.slice(0, limit) : all;
    const rest = all.length - items.length;
    return { items, revision: revision(at), nextKey: rest > 0 ? (all[items.length]?.key ?? null) : null, remainingCount: rest };
  }

  private commit(key: string, kv: KeyValue | null, event: WatchEvent): void {
    const entry = { rev: this.rev, key, kv, event };
    this.history.push(entry);
    if (kv) this.latest.set(key, kv);
    else this.latest.delete(key);
    if (this.lagging?.(key) === true) this.held.push(entry);
    else for (const l of this.listeners) l(entry);
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    if (this.stateAt(this.rev).has(key)) throw new StorageError('KeyExists', key, revision(this.rev));
    const r = revision(++this.rev);
    const kv = { key, value, createRevision: r, modRevision: r };
    this.commit(key, kv, { type: 'create', kv });
    return kv;
  }

  async update(key: string, value: Uint8Array, precondition?: WritePrecondition): Promise<KeyValue> {
    const prev = this.stateAt(this.rev).get(key);
    if (!prev) throw new StorageError('KeyNotFound', key);
    if (precondition?.expectedRevision !== undefined && precondition.expectedRevision !== prev.modRevision) throw new StorageError('Conflict', key, prev.modRevision);
    const kv = { key, value, createRevision: prev.createRevision, modRevision: revision(++this.rev) };
    this.commit(key, kv, { type: 'update', kv, prevKv: prev });
    return kv;
  }

  async delete(key: string, precondition?: WritePrecondition): Promise<KeyValue> {
    const prev = this.stateAt(this.rev).get(key);
    if (!prev) throw new StorageError('KeyNotFound', key);
    if (precondition?.expectedRevision !== undefined && precondition.expectedRevision !== prev.modRevision) throw new StorageError('Conflict', key, prev.modRevision);
    const tomb = { ...prev, modRevision: revision(++this.rev) };
    this.commit(key, null, { type: 'delete', kv: tomb, prevKv: prev });
    return prev;
  }

  watch(options: WatchOptions): Watcher {
    if (options.afterRevision < this.compacted) throw new StorageError('Compacted', `revision ${options.afterRevision} is compacted`);
    const queue: WatchEvent[] = this.history.filter((h) => h.rev > options.afterRevision && h.key.startsWith(options.prefix)).map((h) => h.event);
    let wake: (() => void) | null = null;
    let stopped = false;
    let markEnded!: (error: null) => void;
    const ended = new Promise<null>((resolve) => (markEnded = resolve));
    const listener = (h: HistoryEntry) => {
      if (!h.key.startsWith(options.prefix)) return;
      queue.push(h.event);
      wake?.();
    };
    this.listeners.add(listener);
    const stop = () => {
      stopped = true;
      this.listeners.delete(listener);
      this.openWatches.delete(stop);
      wake?.();
      markEnded(null);
    };
    this.openWatches.add(stop);
    async function* iterate(): AsyncGenerator<WatchEvent> {
      while (!stopped) {
        const next = queue.shift();
        if (next) yield next;
        else await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    }
    const it = iterate();
    // The listener queues every change as it commits, so the queue covers this.rev.
    const requestProgress = () => {
      if (stopped) return;
      queue.push({ type: 'progress', revision: revision(this.rev) });
      wake?.();
    };
    return { stop, ended, requestProgress, [Symbol.asyncIterator]: () => it };
  }

  /** Ends every open watch, as a replica's store does when it installs a snapshot or drops a slow watcher. */
  endWatches(): void {
    for (const stop of [...this.openWatches]) stop();
  }

  async currentRevision(): Promise<Revision> {
    return revision(this.rev);
  }

  localRevision(): Revision {
    return revision(this.rev);
  }

  compactedRevision(): Revision {
    return revision(this.compacted);
  }

  async compact(rev: Revision): Promise<void> {
    this.compacted = rev;
  }

  async waitForRevision(rev: Revision, _timeoutMs: number): Promise<void> {
    if (rev > this.rev) throw new StorageError('RevisionTooLarge', `Too large resource version: ${rev}, current: ${this.rev}`);
  }

  async close(): Promise<void> {
    for (const l of [...this.listeners]) this.listeners.delete(l);
  }
}
