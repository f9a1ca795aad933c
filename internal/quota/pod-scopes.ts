// The quota scopes a pod can fall in (pkg/quota/v1/evaluator/core/pods.go's podMatchesScopeFunc):
// Terminating (has an active deadline), BestEffort (no cpu or memory request or limit anywhere),
// PriorityClass (its priorityClassName against the requirement, as a label selector would test
// the label `PriorityClass=<name>`) and CrossNamespacePodAffinity.
import type { KObject } from '../registry/schema/declaration.ts';
import type { ScopeRequirement } from './evaluator.ts';
import { containerResources, podContainers } from './pod-resources.ts';

type Json = Record<string, unknown>;

function specOf(pod: KObject): Json {
  return typeof pod.spec === 'object' && pod.spec !== null ? (pod.spec as Json) : {};
}

/** Whether the pod has spec.activeDeadlineSeconds >= 0 (IsTerminating). */
export function isTerminating(pod: KObject): boolean {
  const deadline = specOf(pod).activeDeadlineSeconds;
  return typeof deadline === 'number' && deadline >= 0;
}

/** Whether the pod's QoS class is BestEffort: no container asks for or caps cpu or memory above zero. */
export function isBestEffort(pod: KObject): boolean {
  const containers = [...podContainers(pod, 'containers'), ...podContainers(pod, 'initContainers')];
  return !containers.some((c) =>
    (['requests', 'limits'] as const).some((kind) => {
      const list = containerResources(c, kind);
      return ['cpu', 'memory'].some((name) => (list.get(name)?.units ?? 0n) > 0n);
    }),
  );
}

function crossNamespaceTerm(term: unknown): boolean {
  if (typeof term !== 'object' || term === null) return false;
  const t = term as Json;
  return (Array.isArray(t.namespaces) && t.namespaces.length > 0) || (t.namespaceSelector !== undefined && t.namespaceSelector !== null);
}

function termsOf(affinity: Json | undefined): boolean {
  if (affinity === undefined || affinity === null) return false;
  const required = Array.isArray(affinity.requiredDuringSchedulingIgnoredDuringExecution) ? affinity.requiredDuringSchedulingIgnoredDuringExecution : [];
  const preferred = Array.isArray(affinity.preferredDuringSchedulingIgnoredDuringExecution) ? affinity.preferredDuringSchedulingIgnoredDuringExecution : [];
  return required.some(crossNamespaceTerm) || preferred.some((w: unknown) => crossNamespaceTerm((w as Json | null)?.podAffinityTerm));
}

/** Whether a pod (anti-)affinity term names other namespaces or a namespace selector. */
export function usesCrossNamespacePodAffinity(pod: KObject): boolean {
  const affinity = specOf(pod).affinity as Json | undefined;
  if (typeof affinity !== 'object' || affinity === null) return false;
  return termsOf(affinity.podAffinity as Json | undefined) || termsOf(affinity.podAntiAffinity as Json | undefined);
}

/** The PriorityClass requirement as a label selector on `{PriorityClass: <name>}` (absent without a class). */
function priorityClassMatches(pod: KObject, r: ScopeRequirement): boolean {
  const name = specOf(pod).priorityClassName;
  const has = typeof name === 'string' && name !== '';
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(name);
    case 'NotIn':
      return !has || !values.includes(name);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      // kube fails to build the selector; validation keeps such quotas out.
      return false;
  }
}

/** Whether the pod is in the scope the requirement names (operators other than PriorityClass's are Exists). */
export function podMatchesScope(r: ScopeRequirement, pod: KObject): boolean {
  switch (r.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass':
      return priorityClassMatches(pod, r);
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}
