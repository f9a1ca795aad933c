// Follows the FlowSchema and PriorityLevelConfiguration objects as kube's APF config controller
// follows its informers (list both kinds, then watch each from its list's revision; a watch that
// ends makes both be listed again); every change hands the whole current set to `onChange`,
// coalesced to one call per turn of the event loop, since a bootstrap writes a dozen objects at once.
import type { KObject } from '../registry/schema/declaration.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import { KindsInformer, type KindChange, type KindList } from '../registry/generic/kinds-informer.ts';
import { configRelistDelayMs } from './limits.ts';

/** The two stores followed (their v1beta3 resources). */
export interface FlowControlObjectStores {
  readonly flowSchemas: GenericStore;
  readonly priorityLevels: GenericStore;
}

/** The objects as last seen. */
export interface FlowControlObjects {
  readonly flowSchemas: readonly KObject[];
  readonly priorityLevels: readonly KObject[];
}

type Kind = keyof FlowControlObjects;

export class FlowControlConfigInformer {
  private stopped = false;
  private readonly objects = { flowSchemas: new Map<string, KObject>(), priorityLevels: new Map<string, KObject>() };
  private changeQueued = false;
  private readonly informer: KindsInformer<Kind>;

  constructor(
    stores: FlowControlObjectStores,
    private readonly onChange: (objects: FlowControlObjects) => void,
    log: (message: string, err?: unknown) => void,
  ) {
    this.informer = new KindsInformer<Kind>({
      name: 'flow control informer',
      stores: [['flowSchemas', stores.flowSchemas], ['priorityLevels', stores.priorityLevels]],
      relistDelayMs: configRelistDelayMs,
      log,
      handler: {
        replaced: (lists: readonly KindList<Kind>[]) => {
          for (const { kind, items } of lists) {
            this.objects[kind].clear();
            for (const item of items) this.objects[kind].set(item.metadata.name ?? '', item);
          }
          this.changed();
        },
        changed: (kind: Kind, event: KindChange) => {
          const object = event.object as KObject;
          if (event.type === 'DELETED') this.objects[kind].delete(object.metadata.name ?? '');
          else this.objects[kind].set(object.metadata.name ?? '', object);
          this.changed();
        },
      },
    });
  }

  /** Starts listing and watching in the background. Idempotent. */
  start(): void {
    if (!this.stopped) this.informer.start();
  }

  /** Stops the watches and the loop; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.informer.stop();
  }

  private changed(): void {
    if (this.changeQueued) return;
    this.changeQueued = true;
    setImmediate(() => {
      this.changeQueued = false;
      if (this.stopped) return;
      this.onChange({ flowSchemas: [...this.objects.flowSchemas.values()], priorityLevels: [...this.objects.priorityLevels.values()] });
    });
  }
}
