// This replica's namespaces in memory, followed as kube's namespace informer is (list, then watch
// from the list's revision): NamespaceLifecycle, the webhooks' namespace selectors and the
// namespace plugins read the namespace of every namespaced write, and a read of this replica's
// state would fetch and decode it from SQLite each time. The objects are frozen copies: every
// reader shares them. A name missing here (not listed yet, created a moment ago and its event not
// delivered, or anything while the watch is down) is no answer: the reader asks the store, as
// before.
import { KindsInformer, type KindChange, type KindList } from '../registry/generic/kinds-informer.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import type { KObject } from '../registry/schema/declaration.ts';

/** The pause before listing again after the watch ended (compaction, a slow consumer dropped). */
const relistDelayMs = 1000;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export class NamespaceCache {
  private readonly byName = new Map<string, KObject>();
  private readonly informer: KindsInformer<'namespaces'>;

  constructor(store: GenericStore, log: (message: string, err?: unknown) => void) {
    this.informer = new KindsInformer<'namespaces'>({
      name: 'admission namespace informer',
      stores: [['namespaces', store]],
      relistDelayMs,
      log,
      handler: {
        replaced: (lists: readonly KindList<'namespaces'>[]) => {
          this.byName.clear();
          for (const { items } of lists) for (const item of items) this.byName.set(item.metadata.name ?? '', deepFreeze(item));
        },
        changed: (_kind, event: KindChange) => {
          const object = event.object as KObject;
          if (event.type === 'DELETED') this.byName.delete(object.metadata.name ?? '');
          // A copy: the event's object is shared with this replica's other watchers.
          else this.byName.set(object.metadata.name ?? '', deepFreeze(structuredClone(object)));
        },
        // Not followed until listed again (a snapshot installed, a watch dropped as too slow):
        // nothing is answered from memory meanwhile, so a deleted or relabelled namespace is not.
        ended: () => this.byName.clear(),
      },
    });
  }

  /** Starts listing and watching in the background. */
  start(): void {
    this.informer.start();
  }

  /** Stops the watch; resolves when it has ended. */
  stop(): Promise<void> {
    return this.informer.stop();
  }

  /** The namespace as this replica last saw it, or undefined when it is not known here (ask the store). */
  get(name: string): KObject | undefined {
    return this.byName.get(name);
  }
}
