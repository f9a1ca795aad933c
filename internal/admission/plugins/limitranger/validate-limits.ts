// The validating half of LimitRanger (PodValidateLimitFunc, PersistentVolumeClaimValidateLimitFunc):
// every container against the Container items, the pod's totals against the Pod items, a claim's
// storage request against the PersistentVolumeClaim items. Failures of one LimitRange are joined as
// apimachinery's error aggregate prints them.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { quantityValue } from '../../../registry/schema/quantity-arithmetic.ts';
import { containerResources, podContainers, podLimits, podRequests } from '../../../quota/pod-resources.ts';
import { parseResourceList, type ResourceList } from '../../../quota/resource-list.ts';
import { maxConstraint, maxRequestConstraint, minConstraint, ratioConstraint, type ConstraintInput } from './constraints.ts';
import { sortedNames, type LimitItem, type QuantityMap } from './limit-items.ts';

type Check = (input: ConstraintInput) => string | undefined;

/** Runs `check` for every bound of `bounds` against one request/limit pair. */
function checkAll(check: Check, limitType: string, bounds: QuantityMap, requests: ResourceList, limits: ResourceList): string[] {
  const errors: string[] = [];
  for (const resource of sortedNames(bounds)) {
    const enforced = quantityValue(bounds[resource]);
    if (enforced === undefined) continue;
    const error = check({ limitType, resource, enforced, requests, limits });
    if (error !== undefined) errors.push(error);
  }
  return errors;
}

/** min, max and ratio of one item against one request/limit pair. */
function checkItem(item: LimitItem, requests: ResourceList, limits: ResourceList): string[] {
  return [
    ...checkAll(minConstraint, item.type, item.min, requests, limits),
    ...checkAll(maxConstraint, item.type, item.max, requests, limits),
    ...checkAll(ratioConstraint, item.type, item.maxLimitRequestRatio, requests, limits),
  ];
}

/** The failures of a pod against one LimitRange's items, in kube's order. */
export function validatePod(items: readonly LimitItem[], pod: KObject): string[] {
  const errors: string[] = [];
  for (const item of items) {
    if (item.type === 'Container') {
      for (const c of [...podContainers(pod, 'containers'), ...podContainers(pod, 'initContainers')]) {
        errors.push(...checkItem(item, containerResources(c, 'requests'), containerResources(c, 'limits')));
      }
    }
    if (item.type === 'Pod') {
      // LimitRanger's own pod sums leave the overhead out (unlike quota's).
      errors.push(...checkItem(item, podRequests(pod, { overhead: false }), podLimits(pod, { overhead: false })));
    }
  }
  return errors;
}

/** The failures of a claim against one LimitRange's items: only its requests count, and nothing is defaulted. */
export function validateClaim(items: readonly LimitItem[], claim: KObject): string[] {
  const resources = (claim.spec as Record<string, unknown> | undefined)?.resources as Record<string, unknown> | undefined;
  const requests = parseResourceList(resources?.requests);
  const errors: string[] = [];
  for (const item of items.filter((i) => i.type === 'PersistentVolumeClaim')) {
    errors.push(...checkAll(minConstraint, item.type, item.min, requests, new Map()));
    errors.push(...checkAll(maxRequestConstraint, item.type, item.max, requests, new Map()));
  }
  return errors;
}

/** Messages as utilerrors.NewAggregate prints them: one alone, several deduplicated in `[a, b]`. */
export function aggregateMessage(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}
