// A quota's usage recomputed from full lists (quota.CalculateUsage with each evaluator's
// CalculateUsageStats): for the quota controller, which writes the result as status.used.
import type { KObject } from '../registry/schema/declaration.ts';
import { quotaScopeRequirements } from './evaluator.ts';
import { evaluatorFor } from './registry.ts';
import { addLists, count, intersection, maskList, type ResourceList } from './resource-list.ts';

/** The objects of one resource in the quota's namespace. */
export interface ResourceObjects {
  readonly group: string;
  readonly resource: string;
  readonly objects: readonly KObject[];
}

/**
 * The usage of every resource named in `hard` that one of `lists` charges, zero when nothing uses
 * it; names no list's evaluator charges are left out (the controller cannot measure them).
 * Objects count only when they are in every scope of the quota.
 */
export function calculateUsage(quota: KObject, hard: readonly string[], lists: readonly ResourceObjects[], nowMs: number): ResourceList {
  const requirements = quotaScopeRequirements(quota);
  let used: ResourceList = new Map();
  const measured: string[] = [];
  for (const { group, resource, objects } of lists) {
    const evaluator = evaluatorFor(group, resource);
    const names = intersection(evaluator.matchingResources(hard), hard);
    if (names.length === 0) continue;
    measured.push(...names);
    let sum: ResourceList = new Map(names.map((n) => [n, count(0)]));
    for (const object of objects) {
      if (requirements.every((r) => evaluator.matchesScope(r, object))) sum = addLists(sum, evaluator.usage(object, nowMs));
    }
    used = addLists(used, sum);
  }
  return maskList(used, measured);
}
