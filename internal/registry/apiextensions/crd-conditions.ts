// The conditions of a CustomResourceDefinition's status, set as kube's SetCRDCondition does: a
// condition keeps its lastTransitionTime unless its status changes.
import type { KObject } from '../schema/declaration.ts';

/** One status condition. */
export interface CrdCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
}

/** The finalizer that holds a deleted CRD until its objects are gone. */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

/** Sets `condition` on the CRD's status (in place); returns whether anything changed. */
export function setCrdCondition(crd: KObject, condition: CrdCondition, now: Date): boolean {
  const status = (typeof crd.status === 'object' && crd.status !== null ? crd.status : (crd.status = {})) as Record<string, unknown>;
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []) as Record<string, unknown>[];
  const at = conditions.findIndex((c) => c.type === condition.type);
  const old = at < 0 ? undefined : conditions[at];
  if (old !== undefined && old.status === condition.status && old.reason === condition.reason && old.message === condition.message) return false;
  const lastTransitionTime = old !== undefined && old.status === condition.status && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : now.toISOString().replace(/\.\d+Z$/, 'Z');
  const next = { type: condition.type, status: condition.status, lastTransitionTime, reason: condition.reason, message: condition.message };
  status.conditions = at < 0 ? [...conditions, next] : conditions.map((c, i) => (i === at ? next : c));
  return true;
}
