import { notFound, StatusError } from '../../registry/errors/status-error.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { ResourceRegistry, ServedResource } from '../../registry/resource-registry.ts';

/**
 * Namespace lifecycle on create (until the admission chain exists): the namespace must exist and
 * must not be terminating.
 */
export async function checkNamespaceAcceptsObjects(deps: { registry: ResourceRegistry; stores: ReadonlyMap<ServedResource, GenericStore> }, served: ServedResource, namespace: string): Promise<void> {
  const nsResource = deps.registry.find('', 'v1', 'namespaces');
  const store = nsResource && deps.stores.get(nsResource);
  if (!store) return;
  let ns;
  try {
    ns = await store.get(undefined, namespace);
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) throw notFound({ group: '', resource: 'namespaces' }, namespace);
    throw err;
  }
  const phase = (ns.status as { phase?: string } | undefined)?.phase;
  if (ns.metadata.deletionTimestamp !== undefined || phase === 'Terminating') {
    const what = served.group === '' ? served.decl.plural : `${served.decl.plural}.${served.group}`;
    throw new StatusError(403, 'Forbidden', `${what} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, { group: served.group, kind: served.decl.plural });
  }
}

/** Namespaces the system needs; deleting them is refused (NamespaceLifecycle). */
export const protectedNamespaces: ReadonlySet<string> = new Set(['default', 'orch-system', 'orch-public', 'kube-system', 'kube-public']);

/** 403 when a request would delete a protected namespace. */
export function checkNamespaceDeletable(name: string): void {
  if (protectedNamespaces.has(name)) {
    throw new StatusError(403, 'Forbidden', `namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, group: '', kind: 'namespaces' });
  }
}
