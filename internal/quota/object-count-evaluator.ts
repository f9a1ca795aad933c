// Object-count quota (k8s.io/apiserver's generic objectCountEvaluator): one `count/<resource>` or
// `count/<resource>.<group>` per stored object, and for a few core kinds their legacy name too
// (`configmaps`, `secrets`, `replicationcontrollers`, `resourcequotas`). Only creates change it.
import type { QuotaEvaluator } from './evaluator.ts';
import { count, intersection, type ResourceList } from './resource-list.ts';

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** An evaluator that charges one of each name per object; `alias` is the legacy name, if any. */
export function objectCountEvaluator(group: string, resource: string, alias?: string): QuotaEvaluator {
  const names = alias === undefined ? [objectCountName(group, resource)] : [objectCountName(group, resource), alias];
  return {
    group,
    resource,
    handles: (operation) => operation === 'CREATE',
    matchingResources: (input) => intersection(input, names),
    matchesScope: () => false,
    usage: (): ResourceList => new Map(names.map((n) => [n, count(1)])),
    constraints: () => undefined,
  };
}
