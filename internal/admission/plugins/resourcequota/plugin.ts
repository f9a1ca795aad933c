// The ResourceQuota admission plugin (k8s.io/apiserver's resourcequota plugin, kube 1.28): on
// create, and on updates that may grow usage, it checks the request against every quota of the
// namespace that applies, refuses what would exceed one, and charges the rest to the quotas'
// status.used before admitting. Sub-resources, cluster-scoped objects, new namespaces and
// resources quota never counts are let through.
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { internalError } from '../../../registry/errors/status-error.ts';
import { evaluatorFor, isIgnoredResource } from '../../../quota/registry.ts';
import { checkBatch, type QuotaAccess, type QuotaWaiter } from './check-batch.ts';
import { parseQuotaConfiguration, type QuotaConfiguration } from './configuration.ts';
import { liveLookupEntriesMax, liveLookupTtlMs, quotaEvaluationTimeoutMs, quotaWriteRetriesMax } from './limits.ts';
import { KeyedBatches } from './namespace-batches.ts';
import type { QuotaPresence } from './quota-namespaces.ts';

/** The plugin's registered name. */
export const resourceQuotaPluginName = 'ResourceQuota';

const quotas = { group: '', resource: 'resourcequotas' } as const;

/**
 * The quotas of a namespace, as kube's quota accessor finds them: a namespace this replica holds
 * quotas for is read at the leader (its status.used must be current to charge it); one it holds
 * none for is confirmed at the leader at most once per liveLookupTtlMs (kube's live lookup cache),
 * so a namespace without quotas costs a create no ReadIndex round. A charge is a compare-and-swap
 * on the quota's resourceVersion either way: a stale read only costs a retry, never an overshoot.
 * `presence` (the replica's quota index, when it runs) answers "none here" without a store read.
 */
function quotaAccess(deps: AdmissionDeps, presence: QuotaPresence | undefined): QuotaAccess & { knownEmpty(namespace: string): boolean } {
  const confirmedEmpty = new Map<string, number>();
  const confirmedLately = (namespace: string): boolean => {
    const confirmedAt = confirmedEmpty.get(namespace);
    return confirmedAt !== undefined && deps.clock() - confirmedAt < liveLookupTtlMs;
  };
  return {
    /** What `list` would answer with no quota and no read: the index holds none here and the leader said so lately. */
    knownEmpty(namespace) {
      return presence?.holdsNone(namespace) === true && confirmedLately(namespace);
    },
    async list(namespace) {
      const local = presence?.holdsNone(namespace) === true ? [] : await deps.objects.list(quotas, namespace);
      if (local.length === 0 && confirmedLately(namespace)) return local;
      const live = await deps.objects.list(quotas, namespace, { consistent: true });
      if (live.length === 0) {
        if (confirmedEmpty.size >= liveLookupEntriesMax) confirmedEmpty.clear();
        confirmedEmpty.set(namespace, deps.clock());
      } else confirmedEmpty.delete(namespace);
      return live;
    },
    async updateStatus(namespace, quota) {
      await deps.writer.update(quotas, namespace, quota, { subresource: 'status' });
    },
  };
}

/** Whether the request cannot change any quota's usage. */
function skipped(a: AdmissionAttributes): boolean {
  if (a.subresource !== '' || a.namespace === '' || a.object === undefined) return true;
  if (a.operation === 'CREATE' && a.kind.group === '' && a.kind.kind === 'Namespace') return true;
  return isIgnoredResource(a.resource.group, a.resource.resource);
}

/** Checks and charges one namespace's batch: no quotas and nothing limited by configuration admits at once. */
async function processBatch(access: QuotaAccess, config: QuotaConfiguration, namespace: string, batch: QuotaWaiter[]): Promise<void> {
  let current: readonly KObject[];
  try {
    current = await access.list(namespace);
  } catch (err) {
    for (const w of batch) w.settle(err);
    return;
  }
  if (current.length === 0 && config.limitedResources.length === 0) {
    for (const w of batch) w.settle(undefined);
    return;
  }
  await checkBatch(access, namespace, current, batch, quotaWriteRetriesMax);
}

/** Waits for the waiter's batch, or fails with kube's timeout error (the batch may still charge). */
function settled(batches: KeyedBatches<QuotaWaiter>, namespace: string, make: (settle: (e: unknown) => void) => QuotaWaiter): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => finish(internalError('resource quota evaluation timed out')), quotaEvaluationTimeoutMs);
    timer.unref?.();
    function finish(error: unknown): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error === undefined) resolve();
      else reject(error);
    }
    batches.add(namespace, make(finish));
  });
}

/**
 * Makes the ResourceQuota plugin's factory; `presence` tells which namespaces hold no quota on this
 * replica (quota-namespaces.ts), or is absent: the namespace's quotas are then read every time.
 */
export function resourceQuotaPluginWith(presence: QuotaPresence | undefined): PluginFactory {
  return (deps, configuration) => resourceQuota(deps, configuration, presence);
}

/** The ResourceQuota plugin without a quota index (`configuration`: the optional ResourceQuotaConfiguration). */
export const resourceQuotaPlugin: PluginFactory = resourceQuotaPluginWith(undefined);

function resourceQuota(deps: AdmissionDeps, configuration: unknown, presence: QuotaPresence | undefined): AdmissionPlugin {
  const config = parseQuotaConfiguration(configuration);
  const access = quotaAccess(deps, presence);
  const batches = new KeyedBatches<QuotaWaiter>(
    (namespace, batch) => processBatch(access, config, namespace, batch),
    (err, batch) => {
      deps.log('ResourceQuota: batch failed', err);
      for (const w of batch) w.settle(err);
    },
  );
  const plugin: AdmissionPlugin = {
    name: resourceQuotaPluginName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async validate(a) {
      if (skipped(a)) return;
      const evaluator = evaluatorFor(a.resource.group, a.resource.resource);
      if (!evaluator.handles(a.operation)) return;
      // What the namespace's batch would decide at once (no quota, nothing limited), without a batch,
      // a timer and a promise per request: most namespaces hold no quota.
      if (config.limitedResources.length === 0 && access.knownEmpty(a.namespace)) return;
      const input = { attributes: a, evaluator, limited: config.limitedResources, nowMs: deps.clock() };
      await settled(batches, a.namespace, (settle) => ({ input, settle }));
    },
  };
  return plugin;
}
