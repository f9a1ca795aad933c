// Serving custom kinds on one replica: the CustomResourceDefinitions are listed and watched (not
// polled), and every established definition's served versions join the registry and the stores
// (a definition removed, or no longer established, leaves them). Each replica runs this, so a
// kind is served everywhere within a watch event's delay of its definition being established.
import type { KObject } from '../schema/declaration.ts';
import { startWatch, type ApiWatch } from '../generic/watch.ts';
import type { GenericStore } from '../generic/store.ts';
import type { ResourceRegistry, ServedResource } from '../resource-registry.ts';
import type { Storage } from '../../storage/storage.ts';
import { CustomResourceStore } from './custom-resource-store.ts';
import { ConvertingStore } from './converting-store.ts';
import { makeConverter, type ConverterDeps } from './conversion/index.ts';
import { crdSpec, storageVersionOf } from './crd-versions.ts';
import { customResourceDeclarations, servingKey } from './custom-resource-declarations.ts';
import { crdConditionTrue } from './crd-versions.ts';
import { crdRelistDelayMs } from './limits.ts';

/** What serving needs: the server's registry and its (mutable) stores over `storage`. */
export interface CrdServingDeps {
  readonly registry: ResourceRegistry;
  readonly stores: Map<ServedResource, GenericStore>;
  readonly storage: Storage;
  /** Where a conversion webhook's `clientConfig.service` is reached (absent: its DNS name). */
  readonly resolveService?: ConverterDeps['resolveService'];
  readonly log: (message: string, err?: unknown) => void;
}

/** The store of one served version: converting through the webhook when the definition says so. */
function storeOf(deps: CrdServingDeps, crd: KObject, served: ServedResource, terminating: boolean): GenericStore {
  const conversion = crdSpec(crd).conversion as { strategy?: unknown } | undefined;
  if (conversion?.strategy !== 'Webhook') return new CustomResourceStore(deps.storage, served, terminating);
  const converter = makeConverter(crd, { apiDomain: deps.registry.apiDomain, log: deps.log, ...(deps.resolveService ? { resolveService: deps.resolveService } : {}) });
  return new ConvertingStore(deps.storage, served, terminating, converter, `${served.group}/${storageVersionOf(crd) ?? served.version}`);
}

/** The running feed; `synced` once the first list is served; `stop` ends it. */
export interface CrdServing {
  synced(): boolean;
  stop(): Promise<void>;
}

/** Starts serving the established CustomResourceDefinitions of the store. */
export function startCrdServing(deps: CrdServingDeps): CrdServing {
  const crdServed = deps.registry.find(`apiextensions.${deps.registry.apiDomain}`, 'v1', 'customresourcedefinitions');
  const crdStore = crdServed && deps.stores.get(crdServed);
  if (crdStore === undefined) return { synced: () => false, stop: () => Promise.resolve() };
  const keys = new Map<string, string>();
  const servedBy = new Map<string, readonly ServedResource[]>();
  let stopped = false;
  let hasSynced = false;
  let watch: ApiWatch | undefined;

  /** Drops the stores `name` served, ending their watches. */
  const dropStores = (name: string): void => {
    for (const served of servedBy.get(name) ?? []) {
      const store = deps.stores.get(served);
      if (store instanceof CustomResourceStore) store.retire();
      deps.stores.delete(served);
    }
  };

  const unserve = (name: string): void => {
    dropStores(name);
    servedBy.delete(name);
    keys.delete(name);
    deps.registry.removeCustom(name);
  };

  const serve = (crd: KObject): void => {
    const name = crd.metadata.name ?? '';
    if (!crdConditionTrue(crd, 'Established')) {
      unserve(name);
      return;
    }
    const terminating = crd.metadata.deletionTimestamp !== undefined;
    const key = servingKey(crd, terminating);
    if (keys.get(name) === key) return;
    try {
      const declarations = customResourceDeclarations(crd);
      // Registry and stores change in one synchronous step: no request sees a resource without its store.
      dropStores(name);
      const served = deps.registry.setCustom(name, declarations);
      for (const s of served) deps.stores.set(s, storeOf(deps, crd, s, terminating));
      servedBy.set(name, served);
      keys.set(name, key);
    } catch (err) {
      deps.log(`could not serve the kinds of CustomResourceDefinition ${name}`, err);
      unserve(name);
    }
  };

  const listAndWatch = async (): Promise<void> => {
    const list = await crdStore.list(undefined, {});
    const seen = new Set<string>();
    for (const crd of list.items) {
      seen.add(crd.metadata.name ?? '');
      serve(crd);
    }
    for (const name of [...keys.keys(), ...servedBy.keys()]) if (!seen.has(name)) unserve(name);
    hasSynced = true;
    watch = await startWatch(crdStore, undefined, { resourceVersion: list.metadata.resourceVersion });
    if (stopped) watch.stop();
    for await (const event of watch.events) {
      if (event.type === 'BOOKMARK') continue;
      if (event.type === 'ERROR') return;
      const crd = event.object as KObject;
      if (event.type === 'DELETED') unserve(crd.metadata.name ?? '');
      else serve(crd);
    }
  };

  const running = (async () => {
    while (!stopped) {
      try {
        await listAndWatch();
      } catch (err) {
        if (!stopped) deps.log('custom resources: listing or watching CustomResourceDefinitions failed; listing again', err);
      }
      watch?.stop();
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, crdRelistDelayMs));
    }
  })();

  return {
    synced: () => hasSynced,
    async stop() {
      stopped = true;
      watch?.stop();
      await running;
    },
  };
}
