// Which pod updates are checked again (pod-security-admission's isSignificantPodUpdate): after
// creation, only images, the seccomp annotations and added ephemeral containers can change what
// the checks see, so any other update (labels, status, ...) is allowed without evaluation.
import { arrayOf, containerName, objectOf, stringOf, type JsonObject, type PodView } from './checks/pod-view.ts';

const containerSeccompAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';

function containersOf(spec: JsonObject, field: string): JsonObject[] {
  return arrayOf(spec[field]).map((c) => objectOf(c) ?? {});
}

/** Whether a container's image or seccomp annotation changed. */
function significantContainerUpdate(container: JsonObject, old: JsonObject, pod: PodView, oldPod: PodView): boolean {
  if (stringOf(container.image) !== stringOf(old.image)) return true;
  const key = containerSeccompAnnotationPrefix + containerName(container);
  return pod.annotations[key] !== oldPod.annotations[key];
}

/** Whether containers at the same positions differ significantly (or their count changed). */
function significantListUpdate(field: string, pod: PodView, oldPod: PodView): boolean {
  const containers = containersOf(pod.spec, field);
  const old = containersOf(oldPod.spec, field);
  if (containers.length !== old.length) return true;
  return containers.some((c, i) => significantContainerUpdate(c, old[i] ?? {}, pod, oldPod));
}

/** Whether an update of `oldPod` to `pod` must be evaluated. */
export function isSignificantPodUpdate(pod: PodView, oldPod: PodView): boolean {
  if (significantListUpdate('containers', pod, oldPod) || significantListUpdate('initContainers', pod, oldPod)) return true;
  const oldEphemeral = containersOf(oldPod.spec, 'ephemeralContainers');
  // Ephemeral containers are matched by name: they can only be added, never removed or reordered.
  return containersOf(pod.spec, 'ephemeralContainers').some((c) => {
    const old = oldEphemeral.find((o) => containerName(o) === containerName(c));
    return old === undefined || significantContainerUpdate(c, old, pod, oldPod);
  });
}
