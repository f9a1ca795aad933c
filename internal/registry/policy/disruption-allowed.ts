// The DisruptionAllowed condition of a PodDisruptionBudget's status, as
// k8s.io/component-helpers/apps/poddisruptionbudget keeps it (UpdateDisruptionAllowedCondition,
// ConditionsAreUpToDate) with apimachinery's SetStatusCondition: the eviction sub-resource and
// the disruption controller both write it.
import type { KObject } from '../schema/declaration.ts';
import { nowTimestamp } from '../generic/object-lifecycle.ts';

/** The condition's type, and its reasons (policy/v1's constants). */
export const disruptionAllowedCondition = 'DisruptionAllowed';
const sufficientPods = 'SufficientPods';
const insufficientPods = 'InsufficientPods';

/** A PodDisruptionBudget's status as the registry and controller read and write it. */
export interface BudgetStatus {
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  conditions?: Record<string, unknown>[];
}

/** The budget's status object (made empty when missing or malformed). */
export function budgetStatus(pdb: KObject): BudgetStatus {
  if (typeof pdb.status !== 'object' || pdb.status === null || Array.isArray(pdb.status)) pdb.status = {};
  return pdb.status as BudgetStatus;
}

/** Sets DisruptionAllowed from status.disruptionsAllowed, keeping lastTransitionTime while the status stays. */
export function updateDisruptionAllowedCondition(pdb: KObject, now: Date = new Date()): void {
  const status = budgetStatus(pdb);
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  const generation = status.observedGeneration ?? 0;
  // metav1.Condition: observedGeneration is omitted when 0, message is always written.
  const wanted = { type: disruptionAllowedCondition, status: allowed ? 'True' : 'False', ...(generation > 0 ? { observedGeneration: generation } : {}), reason: allowed ? sufficientPods : insufficientPods, message: '' };
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const index = conditions.findIndex((c) => c.type === disruptionAllowedCondition);
  const old = conditions[index];
  const lastTransitionTime = old !== undefined && old.status === wanted.status && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : nowTimestamp(now);
  const next = { ...wanted, lastTransitionTime };
  if (index < 0) conditions.push(next);
  else conditions[index] = next;
  status.conditions = conditions;
}

/** Whether the condition says what status.disruptionsAllowed says, for the budget's current generation. */
export function conditionsAreUpToDate(pdb: KObject): boolean {
  const status = budgetStatus(pdb);
  const cond = (status.conditions ?? []).find((c) => c.type === disruptionAllowedCondition);
  if (cond === undefined || status.observedGeneration !== (pdb.metadata.generation ?? 0)) return false;
  return (status.disruptionsAllowed ?? 0) > 0 ? cond.status === 'True' && cond.reason === sufficientPods : cond.status === 'False' && cond.reason === insufficientPods;
}
