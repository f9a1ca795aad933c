import { hasStatus, notFound, StatusError } from '../../registry/errors/status-error.ts';
import { refusesNewContent } from '../../registry/core/namespace-deletion.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { ServedResource } from '../../registry/resource-registry.ts';

/** The namespace as this replica holds it (resourceVersion "0"), or undefined when it holds none. */
async function localNamespace(store: GenericStore, namespace: string): Promise<KObject | undefined> {
  try {
    return await store.get(undefined, namespace, '0');
  } catch (err) {
    if (hasStatus(err, 404)) return undefined;
    throw err;
  }
}

/**
 * Namespace lifecycle on create (until the admission chain exists): the namespace must exist and
 * must not be terminating. As Kubernetes' admission plugin reads its informer cache, an active
 * namespace in this replica's state is enough: a consistent read would cost every create a
 * ReadIndex round and still not close the race with a deletion that starts right after the check
 * (the namespace controller removes what lands late). A missing or terminating namespace is
 * confirmed by a consistent read first, so a replica that lags never refuses wrongly.
 */
export async function checkNamespaceAcceptsObjects(store: GenericStore | undefined, served: ServedResource, namespace: string): Promise<void> {
  if (!store) return;
  const local = await localNamespace(store, namespace);
  if (local !== undefined && !refusesNewContent(local)) return;
  let ns;
  try {
    ns = await store.get(undefined, namespace);
  } catch (err) {
    if (hasStatus(err, 404)) throw notFound({ group: '', resource: 'namespaces' }, namespace);
    throw err;
  }
  if (refusesNewContent(ns)) {
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
