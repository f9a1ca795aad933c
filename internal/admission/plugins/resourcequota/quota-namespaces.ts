// Which namespaces hold ResourceQuotas on this replica, followed from its store as kube's quota
// admission follows its ResourceQuota informer: list every quota, then watch from the list's
// revision. The plugin asks it before reading a namespace's quotas, so a create in a namespace
// without quotas (the common case) costs no store read: that read was a SQLite read transaction per
// create. A watch that ends makes the index unknown until it is listed again; meanwhile the plugin
// reads the store as before.
import type { GenericStore } from '../../../registry/generic/store.ts';
import { startWatch, type ApiWatch } from '../../../registry/generic/watch.ts';
import { quotaIndexRelistDelayMs } from './limits.ts';

/** What the plugin asks: whether this replica's state holds no quota in `namespace`. */
export interface QuotaPresence {
  /**
   * True when the index is in step with the store and knows no quota in `namespace`; false when it
   * knows one, or does not know (not listed yet, or relisting): the caller then reads the store.
   */
  holdsNone(namespace: string): boolean;
}

/** The quota names of each namespace, from a list and a watch of the ResourceQuota store. */
export class QuotaNamespaces implements QuotaPresence {
  private readonly names = new Map<string, Set<string>>();
  private synced = false;
  private stopped = false;
  private watch: ApiWatch | undefined;
  private running: Promise<void> | undefined;
  /** Ends the wait before a relist early (stop must not wait for it, nor its timer hold the process). */
  private wakeRelist: (() => void) | undefined;

  constructor(
    private readonly store: GenericStore,
    private readonly log: (message: string, err?: unknown) => void,
    /** The wait before listing again after a failure (tests give their own). */
    private readonly relistDelayMs = quotaIndexRelistDelayMs,
  ) {}

  holdsNone(namespace: string): boolean {
    return this.synced && !this.names.has(namespace);
  }

  /** Starts listing and watching in the background. Idempotent. */
  start(): void {
    if (this.stopped) return;
    this.running ??= this.loop();
  }

  /** Stops the watch and the loop; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.synced = false;
    this.watch?.stop();
    this.wakeRelist?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.listAndWatch();
      } catch (err) {
        if (!this.stopped) this.log('ResourceQuota: listing or watching the quotas failed; listing again', err);
      }
      this.synced = false;
      this.watch?.stop();
      this.watch = undefined;
      if (!this.stopped) await this.relistDelay();
    }
  }

  private async relistDelay(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wakeRelist = resolve;
      timer = setTimeout(resolve, this.relistDelayMs);
    });
    clearTimeout(timer);
    this.wakeRelist = undefined;
  }

  /** One generation: list every quota, then follow the watch until it ends. */
  private async listAndWatch(): Promise<void> {
    const list = await this.store.list(undefined, {});
    const watch = await startWatch(this.store, undefined, { resourceVersion: list.metadata.resourceVersion });
    this.watch = watch;
    if (this.stopped) return;
    // One synchronous step: a reader sees the old index (unknown) or the new one, never half of it.
    this.names.clear();
    for (const quota of list.items) this.add(quota.metadata.namespace, quota.metadata.name);
    this.synced = true;
    for await (const event of watch.events) {
      if (event.type === 'BOOKMARK') continue;
      if (event.type === 'ERROR') throw new Error(`the watch of ResourceQuotas ended: ${JSON.stringify(event.object['message'] ?? event.object)}`);
      const metadata = event.object['metadata'] as { namespace?: unknown; name?: unknown } | undefined;
      if (event.type === 'DELETED') this.remove(metadata?.namespace, metadata?.name);
      else this.add(metadata?.namespace, metadata?.name);
    }
  }

  private add(namespace: unknown, name: unknown): void {
    if (typeof namespace !== 'string' || typeof name !== 'string') return;
    let set = this.names.get(namespace);
    if (set === undefined) this.names.set(namespace, (set = new Set()));
    set.add(name);
  }

  private remove(namespace: unknown, name: unknown): void {
    if (typeof namespace !== 'string' || typeof name !== 'string') return;
    const set = this.names.get(namespace);
    if (set === undefined) return;
    set.delete(name);
    if (set.size === 0) this.names.delete(namespace);
  }
}
