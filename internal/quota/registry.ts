// Which evaluator measures which resource (pkg/quota/v1/install at 1.28): pods, services and
// claims have their own; configmaps, secrets, replicationcontrollers and resourcequotas count
// objects under a legacy name too; any other stored resource counts as `count/<resource>.<group>`;
// virtual resources that are never stored (reviews, bindings, events) are not charged at all.
import type { KObject } from '../registry/schema/declaration.ts';
import { quotaMatches, type QuotaEvaluator } from './evaluator.ts';
import { objectCountEvaluator } from './object-count-evaluator.ts';
import { podEvaluator } from './pod-evaluator.ts';
import { pvcEvaluator } from './pvc-evaluator.ts';
import type { ResourceList } from './resource-list.ts';
import { serviceEvaluator } from './service-evaluator.ts';

const ignored = new Set([
  '/bindings', '/componentstatuses', '/events',
  'authentication.k8s.io/tokenreviews', 'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews', 'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews', 'authorization.k8s.io/selfsubjectrulesreviews',
]);

const special: ReadonlyMap<string, QuotaEvaluator> = new Map([
  ['/pods', podEvaluator],
  ['/services', serviceEvaluator],
  ['/persistentvolumeclaims', pvcEvaluator],
  ['/configmaps', objectCountEvaluator('', 'configmaps', 'configmaps')],
  ['/secrets', objectCountEvaluator('', 'secrets', 'secrets')],
  ['/replicationcontrollers', objectCountEvaluator('', 'replicationcontrollers', 'replicationcontrollers')],
  ['/resourcequotas', objectCountEvaluator('', 'resourcequotas', 'resourcequotas')],
]);

/** Whether quota never charges the resource (DefaultIgnoredResources). */
export function isIgnoredResource(group: string, resource: string): boolean {
  return ignored.has(`${group}/${resource}`);
}

/** The evaluator of a group ('' core) and plural; a generic object counter for any resource without one. */
export function evaluatorFor(group: string, resource: string): QuotaEvaluator {
  return special.get(`${group}/${resource}`) ?? objectCountEvaluator(group, resource);
}

/** What one object of the resource uses (for the quota controller's sums and admission's deltas). */
export function usage(group: string, resource: string, object: KObject, nowMs: number): ResourceList {
  return evaluatorFor(group, resource).usage(object, nowMs);
}

/** Whether the quota applies to an object of the resource: a charged resource in its status.hard and every scope matched. */
export function matches(group: string, resource: string, quota: KObject, object: KObject): boolean {
  return quotaMatches(evaluatorFor(group, resource), quota, object);
}
