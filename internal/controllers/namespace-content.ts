import type { GenericStore } from '../registry/generic/store.ts';
import type { KObject } from '../registry/schema/declaration.ts';

/** What is left in a namespace after one deletion pass. */
export interface ContentSummary {
  /** Objects still present, by group-resource (`configmaps`, `deployments.apps`). */
  readonly remaining: ReadonlyMap<string, number>;
  /** Objects still present, by each finalizer they carry. */
  readonly finalizers: ReadonlyMap<string, number>;
  /** Resources whose deletion failed this pass, with the error. */
  readonly failures: ReadonlyMap<string, unknown>;
}

/** Whether nothing remains and nothing failed. */
export function isEmpty(summary: ContentSummary): boolean {
  return summary.remaining.size === 0 && summary.failures.size === 0;
}

function groupResource(store: GenericStore): string {
  return store.gr.group === '' ? store.gr.resource : `${store.gr.resource}.${store.gr.group}`;
}

function add(map: Map<string, number>, key: string, n = 1): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/**
 * One pass over every namespaced resource: deletes each object of `namespace` (Background
 * propagation, as Kubernetes' namespace controller); objects with finalizers only become
 * terminating and are counted as remaining. Failures are collected, never thrown, so one broken
 * resource does not stop the others.
 */
export async function deleteNamespaceContent(stores: readonly GenericStore[], namespace: string, signal: AbortSignal): Promise<ContentSummary> {
  const remaining = new Map<string, number>();
  const finalizers = new Map<string, number>();
  const failures = new Map<string, unknown>();
  for (const store of stores) {
    if (signal.aborted) break;
    let left: KObject[];
    try {
      const result = await store.deleteCollection(namespace, {}, { propagationPolicy: 'Background' });
      left = result.items.filter((o) => (o.metadata.finalizers ?? []).length > 0);
    } catch (err) {
      failures.set(groupResource(store), err);
      continue;
    }
    if (left.length > 0) add(remaining, groupResource(store), left.length);
    for (const o of left) for (const f of o.metadata.finalizers ?? []) add(finalizers, f);
  }
  return { remaining, finalizers, failures };
}
