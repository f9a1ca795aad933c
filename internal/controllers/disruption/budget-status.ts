// What a PodDisruptionBudget's status should say, as kube-controller-manager 1.28's disruption
// controller computes it (pkg/controller/disruption/disruption.go trySync, getExpectedPodCount,
// buildDisruptedPodMap, countHealthyPods, updatePdbStatus). Pure: the pods and the time are given.
import type { KObject } from '../../registry/schema/declaration.ts';
import { labelSelectorMatches } from '../../registry/schema/label-selectors.ts';
import { field } from '../../registry/schema/printers.ts';
import { isPodReady } from '../../registry/core/pod/pod-conditions.ts';
import { budgetStatus, conditionsAreUpToDate, updateDisruptionAllowedCondition, type BudgetStatus } from '../../registry/policy/disruption-allowed.ts';
import { stableStringify } from '../../registry/generic/stable-json.ts';

/** The pods of the budget's namespace its selector selects (an absent selector selects none). */
export function podsOfBudget(pdb: KObject, pods: readonly KObject[]): KObject[] {
  const selector = field(pdb, 'spec.selector');
  return pods.filter((p) => p.metadata.namespace === pdb.metadata.namespace && labelSelectorMatches(selector, p.metadata.labels));
}

/** GetScaledValueFromIntOrPercent with rounding up: an int as it is, `N%` of `total`; undefined when malformed. */
function scaled(value: unknown, total: number): number | undefined {
  if (typeof value === 'number') return value;
  const m = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
  return m === null ? undefined : Math.ceil((Number(m[1]) * total) / 100);
}

/**
 * expectedPods and desiredHealthy (getExpectedPodCount). Upstream counts the expected pods of a
 * percentage or maxUnavailable from the scale of the pods' controllers; here it is the number of
 * selected pods, which is the same while every controller has all its pods (no node agent or
 * workload controller runs here to make them differ).
 */
function expectations(pdb: KObject, pods: readonly KObject[]): { expected: number; desired: number } {
  const expected = pods.length;
  const maxUnavailable = field(pdb, 'spec.maxUnavailable');
  if (maxUnavailable !== undefined && maxUnavailable !== null) return { expected, desired: Math.max(0, expected - (scaled(maxUnavailable, expected) ?? expected)) };
  const minAvailable = field(pdb, 'spec.minAvailable');
  if (minAvailable !== undefined && minAvailable !== null) return { expected, desired: scaled(minAvailable, expected) ?? expected };
  return { expected: 0, desired: 0 };
}

/** buildDisruptedPodMap: the recorded disruptions of pods still there, not terminating, recorded less than `timeoutMs` ago. */
function liveDisruptions(recorded: Readonly<Record<string, string>>, pods: readonly KObject[], nowMs: number, timeoutMs: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const at = recorded[name];
    if (pod.metadata.deletionTimestamp !== undefined || at === undefined) continue;
    if (Date.parse(at) + timeoutMs >= nowMs) out[name] = at;
  }
  return out;
}

/**
 * The status `pdb` should have given its selected `pods` at `now`, or undefined when its status
 * says that already (upstream writes nothing then). The result keeps the budget's other
 * conditions and sets DisruptionAllowed.
 */
export function desiredBudgetStatus(pdb: KObject, pods: readonly KObject[], now: Date, timeoutMs: number): BudgetStatus | undefined {
  const selected = podsOfBudget(pdb, pods);
  const { expected, desired } = expectations(pdb, selected);
  const current = budgetStatus(pdb);
  const disruptedPods = liveDisruptions(current.disruptedPods ?? {}, selected, now.getTime(), timeoutMs);
  const healthy = selected.filter((p) => p.metadata.deletionTimestamp === undefined && disruptedPods[p.metadata.name ?? ''] === undefined && isPodReady(p)).length;
  const allowed = expected <= 0 || healthy - desired <= 0 ? 0 : healthy - desired;
  const generation = pdb.metadata.generation ?? 0;
  const same =
    current.currentHealthy === healthy && current.desiredHealthy === desired && current.expectedPods === expected && current.disruptionsAllowed === allowed &&
    stableStringify(current.disruptedPods ?? {}) === stableStringify(disruptedPods) && current.observedGeneration === generation && conditionsAreUpToDate(pdb);
  if (same) return undefined;
  const next: BudgetStatus = {
    ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
    disruptionsAllowed: allowed, currentHealthy: healthy, desiredHealthy: desired, expectedPods: expected, observedGeneration: generation,
    ...(current.conditions ? { conditions: structuredClone(current.conditions) } : {}),
  };
  const holder = { ...pdb, status: next };
  updateDisruptionAllowedCondition(holder, now);
  return holder.status as BudgetStatus;
}
