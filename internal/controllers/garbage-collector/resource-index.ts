import type { Storage } from '../../storage/storage.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import { collectionPrefix } from '../../registry/generic/keys.ts';
import type { ControllerDeps } from '../controller.ts';
import { groupOf } from './owner-reference.ts';

/** The stores that share one Storage: they are listed at one revision and watched as one stream. */
export interface StorageSource {
  readonly storage: Storage;
  readonly stores: readonly GenericStore[];
  /** The longest key prefix common to every store's collection (one watch covers them all). */
  readonly prefix: string;
}

function commonPrefix(prefixes: readonly string[]): string {
  let out = prefixes[0] ?? '';
  for (const p of prefixes) while (!p.startsWith(out)) out = out.slice(0, -1);
  return out;
}

/**
 * Every served resource the collector tracks, found by storage key (for watch events) and by
 * group and kind (for owner references, whatever version they name). When two served resources
 * share a collection (one kind served at several versions), the first one stands for it.
 */
export class ResourceIndex {
  readonly sources: readonly StorageSource[];
  private readonly byPrefix = new Map<string, GenericStore>();
  private readonly byGroupKind = new Map<string, GenericStore>();

  constructor(deps: Pick<ControllerDeps, 'stores'>) {
    const byStorage = new Map<Storage, GenericStore[]>();
    for (const store of deps.stores.values()) {
      const prefix = collectionPrefix(store.decl, undefined);
      if (this.byPrefix.has(prefix)) continue;
      this.byPrefix.set(prefix, store);
      const groupKind = `${store.served.group}/${store.decl.kind}`;
      if (!this.byGroupKind.has(groupKind)) this.byGroupKind.set(groupKind, store);
      const list = byStorage.get(store.storage) ?? [];
      list.push(store);
      byStorage.set(store.storage, list);
    }
    this.sources = [...byStorage].map(([storage, stores]) => ({ storage, stores, prefix: commonPrefix(stores.map((s) => collectionPrefix(s.decl, undefined))) }));
  }

  /** The store holding `key` (`/<group>/<plural>/...`), or undefined for keys of no tracked resource. */
  storeOfKey(key: string): GenericStore | undefined {
    const second = key.indexOf('/', 1);
    const third = second < 0 ? -1 : key.indexOf('/', second + 1);
    return third < 0 ? undefined : this.byPrefix.get(key.slice(0, third + 1));
  }

  /** The store of the kind an owner reference names, or undefined when no served resource has it. */
  storeOfOwner(apiVersion: string, kind: string): GenericStore | undefined {
    return this.byGroupKind.get(`${groupOf(apiVersion)}/${kind}`);
  }
}
