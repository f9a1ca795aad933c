// When a namespace's enforce level is tightened, its existing pods are checked against the new
// level and the violations summarized as warnings (pod-security-admission's EvaluatePodsInNamespace).
// Nothing is refused: the pods exist already.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { formatLevelVersion, type LevelVersion } from './api/policy.ts';
import { aggregateCheckResults, forbiddenReason } from './checks/aggregate.ts';
import { compareGoStrings, sortedAsGo } from './checks/format.ts';
import { arrayOf, objectOf, podView } from './checks/pod-view.ts';
import { evaluatePod } from './checks/registry.ts';
import { namespacePodCheckTimeoutMs, namespacePodsToCheckMax } from './limits.ts';
import { exemptRuntimeClass, type PluginState } from './plugin-state.ts';

const pods = { group: '', resource: 'pods' } as const;

/** The uid of the pod's controller (a ReplicaSet, a Job...), if it has one. */
function controllerUid(pod: KObject): string | undefined {
  const owner = arrayOf(pod.metadata.ownerReferences).map(objectOf).find((o) => o?.controller === true);
  return typeof owner?.uid === 'string' ? owner.uid : undefined;
}

/**
 * The pods worth checking first: pods of exempt runtime classes are dropped, and of the pods a
 * controller made only the first comes early; its siblings, likely identical, go last.
 */
function prioritizePods(state: PluginState, all: readonly KObject[]): KObject[] {
  const first: KObject[] = [];
  const siblings: KObject[] = [];
  const seenControllers = new Set<string>();
  for (const pod of all) {
    if (exemptRuntimeClass(state, objectOf(pod.spec)?.runtimeClassName)) continue;
    const uid = controllerUid(pod);
    if (uid !== undefined && seenControllers.has(uid)) siblings.push(pod);
    else first.push(pod);
    if (uid !== undefined) seenControllers.add(uid);
  }
  return [...first, ...siblings];
}

/** How many pods share one violation summary, and the alphabetically first of them. */
interface ViolationCount {
  firstPodName: string;
  podCount: number;
}

/** `<pod>: <reasons>`, `<pod> (and 1 other pod): ...` or `<pod> (and N other pods): ...`. */
function podWarning(reasons: string, count: ViolationCount): string {
  if (count.podCount === 1) return `${count.firstPodName}: ${reasons}`;
  if (count.podCount === 2) return `${count.firstPodName} (and 1 other pod): ${reasons}`;
  return `${count.firstPodName} (and ${count.podCount - 1} other pods): ${reasons}`;
}

/** Warnings about existing pods of `namespace` that the new enforce level would refuse. */
export async function evaluatePodsInNamespace(state: PluginState, namespace: string, enforce: LevelVersion): Promise<string[]> {
  const startedMs = state.clock();
  let listed: readonly KObject[];
  try {
    listed = await state.objects.list(pods, namespace);
  } catch (err) {
    state.log(`PodSecurity: failed to list pods in namespace ${namespace}`, err);
    return ['failed to list pods while checking new PodSecurity enforce level'];
  }
  const prioritized = prioritizePods(state, listed);
  const toCheck = prioritized.slice(0, namespacePodsToCheckMax);
  const counts = new Map<string, ViolationCount>();
  let checked = toCheck.length;
  for (const [i, pod] of toCheck.entries()) {
    const result = aggregateCheckResults(evaluatePod(enforce, podView(pod.metadata, pod.spec)));
    if (!result.allowed) {
      const reasons = forbiddenReason(result);
      const name = pod.metadata.name ?? '';
      const count = counts.get(reasons);
      if (count === undefined) counts.set(reasons, { firstPodName: name, podCount: 1 });
      else {
        count.podCount++;
        if (compareGoStrings(name, count.firstPodName) < 0) count.firstPodName = name;
      }
    }
    if (state.clock() - startedMs >= namespacePodCheckTimeoutMs) {
      checked = i + 1;
      break;
    }
  }
  const warnings: string[] = [];
  if (checked < prioritized.length) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${prioritized.length} existing pods`);
  if (counts.size > 0) warnings.push(`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${formatLevelVersion(enforce)}"`);
  return [...warnings, ...sortedAsGo([...counts].map(([reasons, count]) => podWarning(reasons, count)))];
}
