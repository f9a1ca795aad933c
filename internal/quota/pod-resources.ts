// A pod's total requests and limits as the scheduler sees them (k8s.io/component-helpers'
// PodRequests and PodLimits at 1.28): app containers add up; each init container runs alone (with
// the restartable "sidecar" init containers started before it), so the pod needs the larger of the
// two; sidecars also run beside the app containers; the pod overhead comes on top when asked.
import type { KObject } from '../registry/schema/declaration.ts';
import { addQuantities, compareQuantities } from '../registry/schema/quantity-arithmetic.ts';
import { parseResourceList, type ResourceList } from './resource-list.ts';

type Json = Record<string, unknown>;

/** The containers of one of a pod's lists (`containers`, `initContainers`), objects only. */
export function podContainers(pod: KObject, list: 'containers' | 'initContainers'): Json[] {
  const spec = pod.spec as Json | undefined;
  const items = spec?.[list];
  return Array.isArray(items) ? items.filter((c): c is Json => typeof c === 'object' && c !== null) : [];
}

/** A container's `resources.requests` or `resources.limits`. */
export function containerResources(container: Json, kind: 'requests' | 'limits'): ResourceList {
  const resources = container.resources as Json | undefined;
  return parseResourceList(resources?.[kind]);
}

function addInto(list: ResourceList, more: ResourceList): void {
  for (const [k, v] of more) {
    const mine = list.get(k);
    list.set(k, mine === undefined ? v : addQuantities(mine, v));
  }
}

function maxInto(list: ResourceList, more: ResourceList): void {
  for (const [k, v] of more) {
    const mine = list.get(k);
    if (mine === undefined || compareQuantities(v, mine) > 0) list.set(k, v);
  }
}

/** Whether an init container is a sidecar (restartPolicy Always). */
function restartable(container: Json): boolean {
  return container.restartPolicy === 'Always';
}

function aggregate(pod: KObject, kind: 'requests' | 'limits'): ResourceList {
  const total: ResourceList = new Map();
  for (const c of podContainers(pod, 'containers')) addInto(total, containerResources(c, kind));
  const sidecars: ResourceList = new Map();
  const initPeak: ResourceList = new Map();
  for (const c of podContainers(pod, 'initContainers')) {
    const own = containerResources(c, kind);
    if (restartable(c)) {
      addInto(total, own);
      addInto(sidecars, own);
      maxInto(initPeak, sidecars);
    } else {
      const whileRunning: ResourceList = new Map(own);
      addInto(whileRunning, sidecars);
      maxInto(initPeak, whileRunning);
    }
  }
  maxInto(total, initPeak);
  return total;
}

/** The pod's effective requests; with `overhead`, spec.overhead is added to every resource. */
export function podRequests(pod: KObject, options: { readonly overhead: boolean }): ResourceList {
  const total = aggregate(pod, 'requests');
  if (options.overhead) addInto(total, parseResourceList((pod.spec as Json | undefined)?.overhead));
  return total;
}

/** The pod's effective limits; with `overhead`, spec.overhead is added to the resources that have a limit only. */
export function podLimits(pod: KObject, options: { readonly overhead: boolean }): ResourceList {
  const total = aggregate(pod, 'limits');
  if (!options.overhead) return total;
  for (const [k, v] of parseResourceList((pod.spec as Json | undefined)?.overhead)) {
    const mine = total.get(k);
    if (mine !== undefined) total.set(k, addQuantities(mine, v));
  }
  return total;
}
