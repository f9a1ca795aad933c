// The per-replica watch hub. A watcher first replays history from SQLite in bounded pages, then
// follows live events. The switch is gap- and duplicate-free because apply commits and publishes
// in one synchronous step: when a replay page comes back short, the database holds every event up
// to the current revision and every later event will be published to the (now live) watcher.
import type { ChangeEvent } from './change-event.ts';
import { watchBufferBytesMax, watchBufferEventsMax, watchReplayPageRows } from './limits.ts';
import { revision, StorageError, type WatchEvent, type Watcher, type WatchOptions } from './storage.ts';

/** Where the hub reads history and the store's revisions (the state machine). */
export interface HistorySource {
  currentRevision(): number;
  compactedRevision(): number;
  /** Changes after `after` to keys with `prefix`, oldest first, at most `limit`. Throws `Compacted`. */
  history(after: number, prefix: string, limit: number): ChangeEvent[];
}

/** Bounds of one watcher's queue (defaults from limits.ts). */
export interface WatchBufferLimits {
  readonly eventsMax: number;
  readonly bytesMax: number;
}

/** Fans applied changes out to watchers; one per replica. */
export class WatchHub {
  private readonly watchers = new Set<HubWatcher>();
  private readonly limits: WatchBufferLimits;

  constructor(
    private readonly source: HistorySource,
    limits?: Partial<WatchBufferLimits>,
  ) {
    this.limits = { eventsMax: limits?.eventsMax ?? watchBufferEventsMax, bytesMax: limits?.bytesMax ?? watchBufferBytesMax };
  }

  /** Starts a watch after `afterRevision`. Throws `Compacted` when that history is gone. */
  watch(options: WatchOptions): Watcher {
    const compacted = this.source.compactedRevision();
    if (options.afterRevision < compacted) {
      throw new StorageError('Compacted', `watch from revision ${options.afterRevision}: history is compacted to ${compacted}`);
    }
    const watcher = new HubWatcher(this.source, options, this.limits, () => this.watchers.delete(watcher));
    this.watchers.add(watcher);
    return watcher;
  }

  /** Delivers changes just committed, in revision order. Must run in the same synchronous step as the commit. */
  publish(events: readonly ChangeEvent[]): void {
    if (events.length === 0) return;
    for (const watcher of this.watchers) watcher.offer(events);
  }

  /** After the database was replaced (snapshot restore): every watcher catches up from SQLite again. */
  resync(): void {
    for (const watcher of this.watchers) watcher.replayAgain();
  }

  /** Closes every watcher with `error` (their iteration throws it). */
  closeAll(error: StorageError): void {
    for (const watcher of [...this.watchers]) watcher.close(error);
  }

  /** How many watchers are open. */
  size(): number {
    return this.watchers.size;
  }
}

class HubWatcher implements Watcher {
  private mode: 'replay' | 'live' | 'done' = 'replay';
  /** Every matching change at or below this revision is queued or delivered. */
  private coveredRevision: number;
  /** The highest revision announced to the consumer (event or progress). */
  private announcedRevision: number;
  private queue: WatchEvent[] = [];
  private head = 0;
  private queuedBytes = 0;
  private error: StorageError | null = null;
  private wake: (() => void) | null = null;
  private readonly timer: NodeJS.Timeout | null = null;
  /** Whether anything was queued since the last progress tick (a quiet watcher still gets progress). */
  private queuedSinceTick = false;
  private markEnded!: (error: StorageError | null) => void;
  readonly ended = new Promise<StorageError | null>((resolve) => (this.markEnded = resolve));

  constructor(
    private readonly source: HistorySource,
    private readonly options: WatchOptions,
    private readonly limits: WatchBufferLimits,
    private readonly unregister: () => void,
  ) {
    this.coveredRevision = options.afterRevision;
    this.announcedRevision = options.afterRevision;
    if (options.progressIntervalMs !== undefined && options.progressIntervalMs > 0) {
      this.timer = setInterval(() => this.maybeProgress(), options.progressIntervalMs);
      this.timer.unref();
    }
  }

  /** Takes the live events it matches; overflowing the buffer closes the watcher. */
  offer(events: readonly ChangeEvent[]): void {
    if (this.mode !== 'live') return;
    for (const event of events) {
      const rev = event.kv.modRevision;
      if (rev <= this.coveredRevision) continue;
      this.coveredRevision = rev;
      if (event.kv.key.startsWith(this.options.prefix) && !this.enqueue(event)) return;
    }
  }

  replayAgain(): void {
    if (this.mode !== 'live') return;
    this.mode = 'replay';
    this.notify();
  }

  close(error: StorageError | null): void {
    if (this.mode === 'done') return;
    this.mode = 'done';
    this.error = error;
    this.queue = [];
    this.head = 0;
    this.queuedBytes = 0;
    if (this.timer !== null) clearInterval(this.timer);
    this.unregister();
    this.notify();
    this.markEnded(error);
  }

  stop(): void {
    this.close(null);
  }

  requestProgress(): void {
    if (this.mode === 'done') return;
    // Every matching change at or below coveredRevision is queued already (replay and live alike).
    this.enqueue({ type: 'progress', revision: revision(this.coveredRevision) });
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return {
      next: () => this.next(),
      return: () => {
        this.stop();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  private async next(): Promise<IteratorResult<WatchEvent>> {
    for (;;) {
      if (this.head < this.queue.length) return { done: false, value: this.dequeue() };
      if (this.mode === 'done') {
        const error = this.error;
        this.error = null;
        if (error !== null) throw error;
        return { done: true, value: undefined };
      }
      if (this.mode === 'replay') {
        this.replayPage();
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private replayPage(): void {
    let events: ChangeEvent[];
    try {
      events = this.source.history(this.coveredRevision, this.options.prefix, watchReplayPageRows);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      this.close(error);
      return;
    }
    for (const event of events) {
      this.coveredRevision = event.kv.modRevision;
      this.enqueue(event);
    }
    if (events.length < watchReplayPageRows) {
      // Caught up with the database in this synchronous step: later changes arrive by `offer`.
      this.coveredRevision = Math.max(this.coveredRevision, this.source.currentRevision());
      this.mode = 'live';
    }
  }

  private enqueue(event: WatchEvent): boolean {
    this.queue.push(event);
    this.queuedSinceTick = true;
    if (event.type !== 'progress') {
      this.queuedBytes += event.kv.value.byteLength + (event.type === 'create' ? 0 : event.prevKv.value.byteLength);
      this.announcedRevision = event.kv.modRevision;
    } else {
      this.announcedRevision = event.revision;
    }
    if (this.queue.length - this.head > this.limits.eventsMax || this.queuedBytes > this.limits.bytesMax) {
      const bound = `${this.limits.eventsMax} events or ${this.limits.bytesMax} bytes`;
      this.close(new StorageError('WatcherTooSlow', `watcher on ${this.options.prefix} fell more than ${bound} behind`));
      return false;
    }
    this.notify();
    return true;
  }

  private dequeue(): WatchEvent {
    const event = this.queue[this.head] as WatchEvent;
    this.head += 1;
    if (event.type !== 'progress') {
      this.queuedBytes -= event.kv.value.byteLength + (event.type === 'create' ? 0 : event.prevKv.value.byteLength);
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return event;
  }

  /**
   * On each tick: progress when the store moved past what was announced, or, as kube-apiserver's
   * periodic bookmarks do, when the watcher heard nothing for a whole interval (so a client can
   * tell a quiet watch from a dead connection).
   */
  private maybeProgress(): void {
    if (this.mode !== 'live') return;
    const current = this.source.currentRevision();
    const quiet = !this.queuedSinceTick;
    if (current <= this.coveredRevision && (current > this.announcedRevision || (quiet && current === this.announcedRevision))) {
      this.enqueue({ type: 'progress', revision: revision(current) });
    }
    this.queuedSinceTick = false;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
