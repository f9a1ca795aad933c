// Pod conditions as kube-apiserver's pkg/api/pod helpers read and write them (IsPodReady,
// UpdatePodCondition): one condition per type, its lastTransitionTime kept while its status stays.
import type { KObject } from '../../schema/declaration.ts';
import { nowTimestamp } from '../../generic/object-lifecycle.ts';

/** One entry of a pod's status.conditions. */
export interface PodCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

type StoredCondition = Record<string, unknown> & { type?: unknown; status?: unknown };

function conditionsOf(pod: KObject): StoredCondition[] {
  const status = pod.status;
  const list = typeof status === 'object' && status !== null ? (status as { conditions?: unknown }).conditions : undefined;
  return Array.isArray(list) ? (list.filter((c) => typeof c === 'object' && c !== null) as StoredCondition[]) : [];
}

/** Whether the pod's Ready condition is True (IsPodReady: the one notion of a healthy pod). */
export function isPodReady(pod: KObject): boolean {
  return conditionsOf(pod).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The pod's phase ('' when it has none). */
export function podPhase(pod: KObject): string {
  const status = pod.status;
  const phase = typeof status === 'object' && status !== null ? (status as { phase?: unknown }).phase : undefined;
  return typeof phase === 'string' ? phase : '';
}

/**
 * Sets one condition of the pod's status (UpdatePodCondition): added when missing, else replaced,
 * keeping its lastTransitionTime while its status is unchanged. Changes `pod` in place.
 */
export function setPodCondition(pod: KObject, condition: PodCondition, now: Date = new Date()): void {
  if (typeof pod.status !== 'object' || pod.status === null || Array.isArray(pod.status)) pod.status = {};
  const status = pod.status as { conditions?: unknown };
  const list = conditionsOf(pod);
  const index = list.findIndex((c) => c.type === condition.type);
  const old = list[index];
  const lastTransitionTime = old !== undefined && old.status === condition.status && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : nowTimestamp(now);
  // lastProbeTime is a non-pointer metav1.Time upstream: an unset one is written as null.
  const next: StoredCondition = { type: condition.type, status: condition.status, lastProbeTime: null, lastTransitionTime };
  if (condition.reason) next.reason = condition.reason;
  if (condition.message) next.message = condition.message;
  if (index < 0) list.push(next);
  else list[index] = next;
  status.conditions = list;
}
