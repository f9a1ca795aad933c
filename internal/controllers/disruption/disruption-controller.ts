import { hasStatus } from '../../registry/errors/status-error.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { disruptedPodTimeoutMs, disruptionBatchMs, disruptionResyncMs } from '../limits.ts';
import { runWatchedLoop } from '../watched-loop.ts';
import { desiredBudgetStatus } from './budget-status.ts';

/** The controller's name, as logs and metrics show it. */
export const disruptionControllerName = 'disruption';

/** The field manager of the status writes (kube-controller-manager's, whose controller this is). */
const manager = 'kube-controller-manager';

/** Tuning of the disruption controller (tests shorten the periods). */
export interface DisruptionControllerOptions {
  readonly resyncIntervalMs?: number;
  readonly disruptedPodTimeoutMs?: number;
}

interface Stores {
  readonly pods: GenericStore;
  readonly budgets: GenericStore;
}

function storesOf(deps: ControllerDeps): Stores {
  const find = (group: string, plural: string): GenericStore => {
    const served = deps.registry.find(group, 'v1', plural);
    const store = served && deps.stores.get(served);
    if (store === undefined) throw new Error(`assert: no ${plural} store`);
    return store;
  };
  return { pods: find('', 'pods'), budgets: find('policy', 'poddisruptionbudgets') };
}

/** One pass: every budget's status recomputed from the pods it selects; a lost race waits for the next pass. */
async function pass(deps: ControllerDeps, stores: Stores, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const budgets = await stores.budgets.list(undefined, {});
  if (budgets.items.length === 0) return;
  const pods = (await stores.pods.list(undefined, {})).items;
  const now = new Date();
  for (const pdb of budgets.items) {
    if (signal.aborted) return;
    const status = desiredBudgetStatus(pdb, pods, now, timeoutMs);
    if (status === undefined) continue;
    try {
      await stores.budgets.update(pdb.metadata.namespace, pdb.metadata.name ?? '', { ...pdb, status }, { fieldManager: manager, subresource: 'status' });
    } catch (err) {
      // Changed (an eviction spent a disruption) or gone meanwhile: the next pass sees it.
      if (!hasStatus(err, 409) && !hasStatus(err, 404)) deps.log(`disruption controller: status of ${pdb.metadata.namespace ?? ''}/${pdb.metadata.name ?? ''} not written`, err);
    }
  }
}

/**
 * The disruption controller: keeps every PodDisruptionBudget's status current (expectedPods,
 * currentHealthy, desiredHealthy, disruptionsAllowed, observedGeneration, the DisruptionAllowed
 * condition, and disruptedPods pruned after their timeout), so that pods/eviction can spend
 * disruptions. Level-triggered: each pass lists budgets and pods; watches on both wake it early,
 * events gathered for a moment first, and it resyncs periodically (which also expires disruptedPods).
 */
export function createDisruptionController(deps: ControllerDeps, options: DisruptionControllerOptions = {}): Controller {
  const resyncMs = options.resyncIntervalMs ?? disruptionResyncMs;
  const timeoutMs = options.disruptedPodTimeoutMs ?? disruptedPodTimeoutMs;
  return {
    name: disruptionControllerName,
    async run(signal) {
      const stores = storesOf(deps);
      await runWatchedLoop({
        watched: [{ store: stores.budgets }, { store: stores.pods }],
        pass: (passSignal) => pass(deps, stores, timeoutMs, passSignal),
        resyncMs,
        batchMs: disruptionBatchMs,
        failureMessage: 'disruption controller: pass failed',
        log: deps.log,
      }, signal);
    },
  };
}
