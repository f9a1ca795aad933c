// Quota usage of pods (pkg/quota/v1/evaluator/core/pods.go at 1.28): `count/pods` always; while
// the pod is not terminal, `pods` and its compute requests and limits (cpu and memory also under
// their bare names, which mean requests), hugepages, and extended resources as `requests.<name>`.
import type { KObject } from '../registry/schema/declaration.ts';
import { qualifiedName } from '../registry/schema/name-validation.ts';
import type { QuotaEvaluator } from './evaluator.ts';
import { containerResources, podContainers, podLimits, podRequests } from './pod-resources.ts';
import { podMatchesScope } from './pod-scopes.ts';
import { addLists, count, intersection, type ResourceList } from './resource-list.ts';

const podResources = [
  'count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
];
const podResourcePrefixes = ['hugepages-', 'requests.hugepages-'];

/**
 * The resources a quota on which makes every container state them (kube keeps this for backward
 * compatibility and says never to extend it).
 */
const mustBeStated = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** A name without a domain, or in `kubernetes.io/` (helper.IsNativeResource). */
function isNative(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** An extended resource a container may request (helper.IsExtendedResourceName). */
function isExtendedResourceName(name: string): boolean {
  if (isNative(name) || name.startsWith('requests.')) return false;
  return qualifiedName(`requests.${name}`).length === 0;
}

/** A quota name for an extended resource: `requests.<domain>/<name>`. */
function isExtendedQuotaName(name: string): boolean {
  return !isNative(name) && name.startsWith('requests.');
}

/** The compute names a set of requests and limits charges (podComputeUsageHelper). */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', count(1)]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(name);
    if (request !== undefined) {
      out.set(name, request);
      out.set(`requests.${name}`, request);
    }
    const limit = limits.get(name);
    if (limit !== undefined) out.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith('hugepages-')) {
      out.set(name, request);
      out.set(`requests.${name}`, request);
    }
    if (isExtendedResourceName(name)) out.set(`requests.${name}`, request);
  }
  return out;
}

/** Whether a pod still counts: not Succeeded or Failed, and not stuck past its deletion grace (QuotaV1Pod). */
export function podCounts(pod: KObject, nowMs: number): boolean {
  const phase = (pod.status as Record<string, unknown> | undefined)?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (typeof deletionTimestamp === 'string' && typeof deletionGracePeriodSeconds === 'number') {
    const deletedAtMs = Date.parse(deletionTimestamp);
    if (Number.isFinite(deletedAtMs) && nowMs > deletedAtMs + deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

function constraints(required: readonly string[], pod: KObject): string | undefined {
  const requiredSet = required.filter((n) => mustBeStated.has(n));
  const missing = new Map<string, Set<string>>();
  for (const c of [...podContainers(pod, 'containers'), ...podContainers(pod, 'initContainers')]) {
    const stated = computeUsage(containerResources(c, 'requests'), containerResources(c, 'limits'));
    for (const name of requiredSet) {
      if (stated.has(name)) continue;
      const containers = missing.get(name) ?? new Set<string>();
      containers.add(String(c.name ?? ''));
      missing.set(name, containers);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((name) => `${name} for: ${[...(missing.get(name) ?? [])].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

/** The evaluator of core/v1 pods. */
export const podEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'pods',
  // Pod resources cannot change after create in 1.28 (in-place resize is an alpha gate, off).
  handles: (operation) => operation === 'CREATE',
  matchingResources(names) {
    const out = intersection(names, podResources);
    for (const name of names) {
      if (podResourcePrefixes.some((p) => name.startsWith(p))) out.push(name);
      if (isExtendedQuotaName(name)) out.push(name);
    }
    return out;
  },
  matchesScope: podMatchesScope,
  usage(pod, nowMs) {
    // count/pods tracks every stored pod; the rest only pods that still run or may run.
    const usage: ResourceList = new Map([['count/pods', count(1)]]);
    if (!podCounts(pod, nowMs)) return usage;
    return addLists(usage, computeUsage(podRequests(pod, { overhead: true }), podLimits(pod, { overhead: true })));
  },
  constraints,
};
