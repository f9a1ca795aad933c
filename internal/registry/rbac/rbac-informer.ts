// Feeds a replica's RbacIndex from its store, as kube-apiserver's RBAC authorizer reads its shared
// informers: list the four RBAC kinds, apply them, then follow each kind's watch from its list's
// revision. A watch that ends (compaction, a slow consumer dropped, the store failing) makes the
// whole index be listed again; the new lists replace the old index in one synchronous step, so an
// authorization never sees half of it.
import type { RbacIndex } from '../../authz/rbac/rbac-index.ts';
import type { KObject } from '../schema/declaration.ts';
import { startWatch, type ApiWatch } from '../generic/watch.ts';
import type { GenericStore } from '../generic/store.ts';
import { rbacRelistDelayMs } from './limits.ts';
import type { RbacStores } from './rbac-stores.ts';

type Kind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

/** The index's feed. `start` once; `synced` says whether the first lists are in; `stop` ends it. */
export class RbacInformer {
  private hasSynced = false;
  private stopped = false;
  private readonly watches = new Set<ApiWatch>();
  private readonly syncWaiters: (() => void)[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly stores: RbacStores,
    private readonly index: RbacIndex,
    private readonly log: (message: string, err?: unknown) => void,
  ) {}

  /** Whether the index holds the store's RBAC objects (after the first full list); stays true after a relist starts. */
  synced(): boolean {
    return this.hasSynced;
  }

  /** Resolves true once synced, or false after `ms` (or on stop) without. */
  async waitSynced(ms: number): Promise<boolean> {
    if (this.hasSynced) return true;
    // After stop() nothing resolves a new waiter: it would hold the process open for `ms`.
    if (this.stopped) return false;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.syncWaiters.push(resolve);
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    return this.hasSynced;
  }

  /** Starts listing and watching in the background. Idempotent. */
  start(): void {
    if (this.stopped) return;
    this.running ??= this.loop();
  }

  /** Stops the watches and the loop; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.watches) w.stop();
    for (const waiter of this.syncWaiters.splice(0)) waiter();
    await this.running;
  }

  private kinds(): [Kind, GenericStore][] {
    return [['ClusterRole', this.stores.clusterRoles], ['Role', this.stores.roles], ['ClusterRoleBinding', this.stores.clusterRoleBindings], ['RoleBinding', this.stores.roleBindings]];
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.listAndWatch();
      } catch (err) {
        if (!this.stopped) this.log('rbac informer: list or watch failed; listing again', err);
      }
      for (const w of this.watches) w.stop();
      this.watches.clear();
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, rbacRelistDelayMs));
    }
  }

  /** One generation: list all kinds, swap them into the index, watch until any watch ends. */
  private async listAndWatch(): Promise<void> {
    const lists: { kind: Kind; store: GenericStore; items: KObject[]; revision: string }[] = [];
    for (const [kind, store] of this.kinds()) {
      const list = await store.list(undefined, {});
      lists.push({ kind, store, items: list.items, revision: list.metadata.resourceVersion });
    }
    const watches: { kind: Kind; watch: ApiWatch }[] = [];
    for (const l of lists) {
      const watch = await startWatch(l.store, undefined, { resourceVersion: l.revision });
      this.watches.add(watch);
      watches.push({ kind: l.kind, watch });
    }
    if (this.stopped) return;
    // One synchronous step: readers see the old index or the new one, never a mix.
    this.index.clear();
    for (const l of lists) for (const object of l.items) this.index.apply({ type: 'ADDED', kind: l.kind, object });
    this.markSynced();
    // Any watch ending ends the generation: the others are stopped and everything is listed again.
    await Promise.race(watches.map((w) => this.follow(w.kind, w.watch)));
  }

  private async follow(kind: Kind, watch: ApiWatch): Promise<void> {
    for await (const event of watch.events) {
      if (event.type === 'BOOKMARK') continue;
      if (event.type === 'ERROR') throw new Error(`watch of ${kind} objects ended: ${JSON.stringify(event.object.message ?? event.object)}`);
      this.index.apply({ type: event.type, kind, object: event.object });
    }
  }

  private markSynced(): void {
    this.hasSynced = true;
    for (const waiter of this.syncWaiters.splice(0)) waiter();
  }
}
