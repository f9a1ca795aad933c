// Feeds a replica's RbacIndex from its store, as kube-apiserver's RBAC authorizer reads its shared
// informers: list the four RBAC kinds, apply them, then follow each kind's watch from its list's
// revision. A watch that ends (compaction, a slow consumer dropped, the store failing) makes the
// whole index be listed again; the new lists replace the old index in one synchronous step, so an
// authorization never sees half of it.
import type { RbacIndex } from '../../authz/rbac/rbac-index.ts';
import { KindsInformer, type KindChange, type KindList } from '../generic/kinds-informer.ts';
import { rbacRelistDelayMs } from './limits.ts';
import type { RbacStores } from './rbac-stores.ts';

type Kind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

/** The index's feed. `start` once; `synced` says whether the first lists are in; `stop` ends it. */
export class RbacInformer {
  private hasSynced = false;
  private stopped = false;
  private readonly syncWaiters: (() => void)[] = [];
  private readonly informer: KindsInformer<Kind>;

  constructor(stores: RbacStores, index: RbacIndex, log: (message: string, err?: unknown) => void) {
    this.informer = new KindsInformer<Kind>({
      name: 'rbac informer',
      stores: [['ClusterRole', stores.clusterRoles], ['Role', stores.roles], ['ClusterRoleBinding', stores.clusterRoleBindings], ['RoleBinding', stores.roleBindings]],
      relistDelayMs: rbacRelistDelayMs,
      log,
      handler: {
        replaced: (lists: readonly KindList<Kind>[]) => {
          index.clear();
          for (const l of lists) for (const object of l.items) index.apply({ type: 'ADDED', kind: l.kind, object });
          this.markSynced();
        },
        changed: (kind: Kind, event: KindChange) => index.apply({ type: event.type, kind, object: event.object }),
      },
    });
  }

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
    this.informer.start();
  }

  /** Stops the watches and the loop; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const waiter of this.syncWaiters.splice(0)) waiter();
    await this.informer.stop();
  }

  private markSynced(): void {
    this.hasSynced = true;
    for (const waiter of this.syncWaiters.splice(0)) waiter();
  }
}
