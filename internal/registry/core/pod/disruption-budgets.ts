// The PodDisruptionBudget side of an eviction, as kube-apiserver 1.28's EvictionREST
// (pkg/registry/core/pod/storage/eviction.go): which budgets cover a pod, and the
// check-and-decrement of a budget's disruptionsAllowed, written through the budgets' status
// sub-resource with a conflict-retrying update so that two evictions never spend one disruption.
import type { KObject } from '../../schema/declaration.ts';
import { hasStatus, StatusError } from '../../errors/status-error.ts';
import type { GenericStore } from '../../generic/store.ts';
import { labelSelectorMatches } from '../../schema/label-selectors.ts';
import { field } from '../../schema/printers.ts';
import { budgetStatus, updateDisruptionAllowedCondition } from '../../policy/disruption-allowed.ts';
import { nowTimestamp } from '../../generic/object-lifecycle.ts';
import { disruptedPodsMax, evictionRetriesMax } from './limits.ts';

/** The field manager of the budget status writes evictions make. */
const evictionManager = 'orch-apiserver';

const budgetMessage = "Cannot evict pod as it would violate the pod's disruption budget.";

/** 429 whose cause names the budget (upstream's DisruptionBudget cause), with an optional Retry-After. */
function tooManyRequests(causeMessage: string, retryAfterSeconds: number): StatusError {
  return new StatusError(429, 'TooManyRequests', budgetMessage, {
    causes: [{ reason: 'DisruptionBudget', message: causeMessage }],
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
  });
}

/** 429 for a budget whose status the disruption controller has not computed for its current spec. */
export function budgetBeingProcessed(name: string): StatusError {
  return tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);
}

function forbidden(name: string, why: string): StatusError {
  return new StatusError(403, 'Forbidden', `poddisruptionbudget.policy "${name}" is forbidden: ${why}`, { name, group: 'policy', kind: 'poddisruptionbudget' });
}

/** The budgets of the pod's namespace whose selector selects it (an absent selector selects nothing). */
export async function budgetsCovering(budgets: GenericStore, pod: KObject): Promise<KObject[]> {
  const list = await budgets.list(pod.metadata.namespace, {});
  return list.items.filter((pdb) => labelSelectorMatches(field(pdb, 'spec.selector'), pod.metadata.labels));
}

/** Refuses the eviction when `pdb` allows no disruption now (upstream's checkAndDecrement checks, in order). */
function checkAllows(pdb: KObject): void {
  const name = pdb.metadata.name ?? '';
  const status = budgetStatus(pdb);
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw budgetBeingProcessed(name);
  const allowed = status.disruptionsAllowed ?? 0;
  if (allowed < 0) throw forbidden(name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > disruptedPodsMax) throw forbidden(name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (allowed === 0) throw tooManyRequests(`The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`, 0);
}

/**
 * Spends one disruption of `pdb` on the pod `podName`: refuses (429, 403) when the budget allows
 * none, else decrements status.disruptionsAllowed and records the pod in status.disruptedPods, so
 * the disruption controller does not count it healthy while it goes. A lost race re-reads the
 * budget and checks again (bounded). Nothing is written on dry run.
 */
export async function checkAndDecrement(budgets: GenericStore, pdb: KObject, podName: string, dryRun: boolean): Promise<void> {
  let current = pdb;
  for (let attempt = 1; ; attempt++) {
    checkAllows(current);
    const status = budgetStatus(current);
    status.disruptionsAllowed = (status.disruptionsAllowed ?? 0) - 1;
    if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(current);
    if (dryRun) return;
    status.disruptedPods = { ...status.disruptedPods, [podName]: nowTimestamp() };
    try {
      await budgets.update(current.metadata.namespace, current.metadata.name ?? '', current, { fieldManager: evictionManager, subresource: 'status' });
      return;
    } catch (err) {
      if (!hasStatus(err, 409) || attempt >= evictionRetriesMax) throw err;
      current = await budgets.get(pdb.metadata.namespace, pdb.metadata.name ?? '');
    }
  }
}
