// The admission chain a running API server uses: its plugins built over the server's stores and
// authorizer, and what they watch to stay current (the webhook configurations).
import type { Registry } from 'prom-client';
import type { Authorizer } from '../authz/authorizer.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import { storesByResource, type ResourceRegistry, type ServedResource } from '../registry/resource-registry.ts';
import { buildAdmissionChain } from './build-chain.ts';
import type { AdmissionChain } from './chain.ts';
import { NamespaceCache } from './namespace-cache.ts';
import { pluginCatalogue } from './plugin-catalogue.ts';
import type { AdmissionDeps } from './plugin.ts';
import { RegistryObjects } from './registry-objects.ts';

export interface AdmissionStartOptions {
  readonly registry: ResourceRegistry;
  readonly stores: ReadonlyMap<ServedResource, GenericStore>;
  readonly authorizer: Authorizer;
  readonly log: (message: string, err?: unknown) => void;
  /** The enabled plugins, in kube's order. */
  readonly plugins: readonly string[];
  readonly configurations: ReadonlyMap<string, unknown>;
  readonly clock?: () => number;
  /** Where the webhook metrics go (the API's /metrics registry). */
  readonly metricsRegistry?: Registry;
}

/** A running admission chain. */
export interface RunningAdmission {
  readonly chain: AdmissionChain;
  /** Stops what the plugins watch. */
  stop(): Promise<void>;
}

export function startAdmission(options: AdmissionStartOptions): RunningAdmission {
  const namespaceStore = storesByResource(options.registry, options.stores).get('/namespaces');
  const namespaces = namespaceStore && new NamespaceCache(namespaceStore, (message, err) => options.log(`admission: ${message}`, err));
  namespaces?.start();
  const objects = new RegistryObjects(options.registry, options.stores, namespaces);
  const deps: AdmissionDeps = {
    apiDomain: options.registry.apiDomain, objects, writer: objects, authorizer: options.authorizer,
    log: (message, err) => options.log(`admission: ${message}`, err), clock: options.clock ?? Date.now,
  };
  const catalogue = pluginCatalogue({ registry: options.registry, stores: options.stores, log: deps.log, ...(options.metricsRegistry ? { metricsRegistry: options.metricsRegistry } : {}) });
  const chain = buildAdmissionChain(options.plugins, options.configurations, deps, catalogue.factories);
  const watching = catalogue.start(options.plugins);
  return {
    chain,
    async stop() {
      await Promise.all([watching.stop(), namespaces?.stop()]);
    },
  };
}
