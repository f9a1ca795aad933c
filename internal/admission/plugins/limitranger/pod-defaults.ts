// The mutating half of LimitRanger (PodMutateLimitFunc): a container that states no request or
// limit for a resource gets the Container item's default, and the pod is annotated with what was
// set, in kube's words: `LimitRanger plugin set: cpu, memory request for container app; ...`.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { formatQuantity, quantityValue } from '../../../registry/schema/quantity-arithmetic.ts';
import { podContainers } from '../../../quota/pod-resources.ts';
import { sortedNames, type LimitItem, type QuantityMap } from './limit-items.ts';

/** The annotation LimitRanger records its defaults in. */
export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

type Json = Record<string, unknown>;

/** The Container items' defaults merged, a later item overriding an earlier one (defaultContainerResourceRequirements). */
function containerDefaults(items: readonly LimitItem[]): { requests: Record<string, unknown>; limits: Record<string, unknown> } {
  const requests: Record<string, unknown> = {};
  const limits: Record<string, unknown> = {};
  for (const item of items.filter((i) => i.type === 'Container')) {
    Object.assign(requests, item.defaultRequest);
    Object.assign(limits, item.default);
  }
  return { requests, limits };
}

/** Sets the names of `defaults` the container's `kind` lacks; returns the names set, sorted. */
function fill(container: Json, kind: 'requests' | 'limits', defaults: QuantityMap): string[] {
  const resources = (typeof container.resources === 'object' && container.resources !== null ? container.resources : {}) as Json;
  const current = (typeof resources[kind] === 'object' && resources[kind] !== null ? resources[kind] : {}) as Json;
  const set = sortedNames(defaults).filter((name) => !Object.hasOwn(current, name));
  if (set.length === 0) return [];
  for (const name of set) {
    const value = quantityValue(defaults[name]);
    current[name] = value === undefined ? defaults[name] : formatQuantity(value);
  }
  resources[kind] = current;
  container.resources = resources;
  return set;
}

/**
 * Applies one LimitRange's container defaults to the pod in place and, when anything was set,
 * writes the annotation (replacing one an earlier LimitRange wrote, as kube does).
 */
export function applyContainerDefaults(pod: KObject, items: readonly LimitItem[]): void {
  const defaults = containerDefaults(items);
  const notes: string[] = [];
  const lists = [['containers', 'container'], ['initContainers', 'init container']] as const;
  for (const [list, label] of lists) {
    for (const container of podContainers(pod, list)) {
      const limitsSet = fill(container, 'limits', defaults.limits);
      const requestsSet = fill(container, 'requests', defaults.requests);
      const name = String(container.name ?? '');
      if (requestsSet.length > 0) notes.push(`${requestsSet.join(', ')} request for ${label} ${name}`);
      if (limitsSet.length > 0) notes.push(`${limitsSet.join(', ')} limit for ${label} ${name}`);
    }
  }
  if (notes.length === 0) return;
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
}
