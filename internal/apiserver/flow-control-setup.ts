// The flow control an API server applies, from its options: API Priority and Fairness over the
// FlowSchema and PriorityLevelConfiguration objects (followed as they change), or, with
// --enable-priority-and-fairness=false, the two in-flight limits. APF's server concurrency limit
// is the sum of the two flags, as kube-apiserver's.
import type { Registry } from 'prom-client';
import { compileConfiguration } from '../flowcontrol/configuration.ts';
import { FlowControlConfigInformer } from '../flowcontrol/config-informer.ts';
import { FlowControl } from '../flowcontrol/flow-control.ts';
import { maxMutatingRequestsInflightDefault, maxRequestsInflightDefault, requestWaitLimitMs } from '../flowcontrol/limits.ts';
import { MaxInFlight } from '../flowcontrol/max-inflight.ts';
import { FlowControlMetrics } from '../flowcontrol/metrics.ts';
import { ObjectCounts } from '../flowcontrol/object-counts.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels, type BootstrapObject } from '../registry/flowcontrol/bootstrap-configuration.ts';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import type { RequestFlowControl } from './filters/flow-control.ts';

/** `--enable-priority-and-fairness`, `--max-requests-inflight`, `--max-mutating-requests-inflight`. */
export interface FlowControlOptions {
  readonly priorityAndFairness: boolean;
  /** 0: no limit (with APF off). */
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
}

export const flowControlDefaults: FlowControlOptions = { priorityAndFairness: true, maxRequestsInflight: maxRequestsInflightDefault, maxMutatingRequestsInflight: maxMutatingRequestsInflightDefault };

/** A server's flow control, running. */
export interface RunningFlowControl {
  readonly request: RequestFlowControl;
  /** APF when on (its debug dumps are served). */
  readonly apf?: FlowControl;
  stop(): Promise<void>;
}

const asObject = (o: BootstrapObject) => ({ metadata: { name: o.name }, spec: o.spec });

/** Starts the server's flow control (APF's informer runs until `stop`). */
export function startFlowControl(options: FlowControlOptions, deps: { registry: ResourceRegistry; stores: ReadonlyMap<ServedResource, GenericStore>; metricsRegistry?: Registry; log: (message: string, err?: unknown) => void }): RunningFlowControl {
  const { registry, stores } = deps;
  const byResource = new Map<string, GenericStore>();
  for (const [served, store] of stores) {
    const key = `${served.group}/${served.decl.plural}`;
    if (!byResource.has(key)) byResource.set(key, store);
  }
  const objectCounts = new ObjectCounts((group, resource) => byResource.get(`${group}/${resource}`));
  const objectCount = (group: string, resource: string): number | undefined => objectCounts.get(group, resource);
  const metrics = deps.metricsRegistry === undefined ? undefined : new FlowControlMetrics(deps.metricsRegistry);
  if (!options.priorityAndFairness) {
    const maxInFlight = new MaxInFlight(options.maxRequestsInflight, options.maxMutatingRequestsInflight);
    return { request: { maxInFlight, objectCount }, stop: async () => undefined };
  }
  const serverConcurrencyLimit = options.maxRequestsInflight + options.maxMutatingRequestsInflight;
  // Until the objects are read, the bootstrap configuration is in force (kube starts with it too).
  const initial = compileConfiguration([...mandatoryFlowSchemas, ...suggestedFlowSchemas].map(asObject), [...mandatoryPriorityLevels, ...suggestedPriorityLevels].map(asObject), serverConcurrencyLimit);
  const apf = new FlowControl(initial, { requestWaitLimitMs, ...(metrics ? { metrics } : {}) });
  const storeOf = (plural: string) => {
    const served = registry.find(`flowcontrol.apiserver.${registry.apiDomain}`, 'v1beta3', plural);
    return served && stores.get(served);
  };
  const flowSchemas = storeOf('flowschemas');
  const priorityLevels = storeOf('prioritylevelconfigurations');
  const informer = flowSchemas && priorityLevels
    ? new FlowControlConfigInformer({ flowSchemas, priorityLevels }, (objects) => apf.configure(compileConfiguration([...objects.flowSchemas], [...objects.priorityLevels], serverConcurrencyLimit)), deps.log)
    : undefined;
  informer?.start();
  return { request: { apf, objectCount }, apf, stop: async () => informer?.stop() };
}
