// Follows several kinds of a replica's own stores as kube's shared informers do: list every kind,
// then watch each from its list's revision. Any watch ending (compaction, a slow consumer dropped,
// the store failing) ends the generation: the other watches are stopped and everything is listed
// again after a pause. The lists are handed over in one synchronous call, so a reader never sees
// half of a generation.
import type { KObject } from '../schema/declaration.ts';
import { startWatch, type ApiWatch } from './watch.ts';
import type { GenericStore } from './store.ts';

/** One kind's complete list in a generation. */
export interface KindList<K extends string> {
  readonly kind: K;
  readonly items: readonly KObject[];
}

/** A watch event other than BOOKMARK and ERROR. */
export interface KindChange {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: Record<string, unknown>;
}

/** What the informer does with what it reads. */
export interface KindsInformerHandler<K extends string> {
  /** A new generation's lists: replace everything known. */
  replaced(lists: readonly KindList<K>[]): void;
  /** One change of `kind`, after `replaced`. */
  changed(kind: K, event: KindChange): void;
  /**
   * The generation ended (a watch ended or failed, or the lists did): what was handed over is no
   * longer followed until the next `replaced`, a pause and a list later.
   */
  ended?(): void;
}

export interface KindsInformerOptions<K extends string> {
  /** Named in log lines. */
  readonly name: string;
  readonly stores: readonly (readonly [K, GenericStore])[];
  readonly handler: KindsInformerHandler<K>;
  /** The pause before listing again after a watch ended; doubled after each failure in a row, up to relistDelayMsMax. */
  readonly relistDelayMs: number;
  readonly log: (message: string, err?: unknown) => void;
  /** Waits `ms` (tests record the pauses instead). */
  readonly wait?: (ms: number) => Promise<void>;
}

/** The longest pause between lists while they keep failing (kube's reflector backs off to 30 s). */
export const relistDelayMsMax = 30_000;
/** A list and watch that held this long before failing starts the backoff over (kube's reflector: 2 min). */
export const relistBackoffResetMs = 120_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class KindsInformer<K extends string> {
  private stopped = false;
  private readonly watches = new Set<ApiWatch>();
  private running: Promise<void> | undefined;

  constructor(private readonly options: KindsInformerOptions<K>) {}

  /** Starts listing and watching in the background. Idempotent. */
  start(): void {
    if (this.stopped) return;
    this.running ??= this.loop();
  }

  /** Stops the watches and the loop; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.watches) w.stop();
    await this.running;
  }

  private async loop(): Promise<void> {
    // Failures in a row: a list refused again and again (a replica cut off from its leader) is
    // retried ever less often, as kube's reflector backs off, instead of every relistDelayMs.
    let failures = 0;
    while (!this.stopped) {
      const started = Date.now();
      try {
        await this.listAndWatch();
        failures = 0;
      } catch (err) {
        if (Date.now() - started >= relistBackoffResetMs) failures = 0;
        failures += 1;
        if (!this.stopped) this.options.log(`${this.options.name}: list or watch failed; listing again`, err);
      }
      for (const w of this.watches) w.stop();
      this.watches.clear();
      if (!this.stopped) this.options.handler.ended?.();
      const delayMs = Math.min(this.options.relistDelayMs * 2 ** Math.max(0, failures - 1), relistDelayMsMax);
      if (!this.stopped) await (this.options.wait ?? sleep)(delayMs);
    }
  }

  private async listAndWatch(): Promise<void> {
    const lists: { kind: K; store: GenericStore; items: KObject[]; revision: string }[] = [];
    for (const [kind, store] of this.options.stores) {
      const list = await store.list(undefined, {});
      lists.push({ kind, store, items: list.items, revision: list.metadata.resourceVersion });
    }
    const watches: { kind: K; watch: ApiWatch }[] = [];
    for (const l of lists) {
      const watch = await startWatch(l.store, undefined, { resourceVersion: l.revision });
      this.watches.add(watch);
      watches.push({ kind: l.kind, watch });
    }
    if (this.stopped) return;
    this.options.handler.replaced(lists.map(({ kind, items }) => ({ kind, items })));
    await Promise.race(watches.map((w) => this.follow(w.kind, w.watch)));
  }

  private async follow(kind: K, watch: ApiWatch): Promise<void> {
    for await (const event of watch.events) {
      if (event.type === 'BOOKMARK') continue;
      if (event.type === 'ERROR') throw new Error(`watch of ${kind} ended: ${JSON.stringify(event.object.message ?? event.object)}`);
      this.options.handler.changed(kind, { type: event.type, object: event.object });
    }
  }
}
