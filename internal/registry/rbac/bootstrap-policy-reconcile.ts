// The bootstrap policy at start, as kube-apiserver 1.28's rbac/bootstrap-roles post-start hook:
// every default ClusterRole, ClusterRoleBinding, Role and RoleBinding is created when missing and
// given its missing rules and subjects when it allows auto-update. Every replica does it at start;
// a write lost to another replica's (409) is re-read and reconciled again.
import { bootstrapClusterRoleBindingObjects, bootstrapClusterRoleObjects, bootstrapRoleBindingObjects, bootstrapRoleObjects } from '../../authz/bootstrap/bootstrap-policy.ts';
import { reconcileBinding, reconcileRole, type ReconcileResult } from '../../authz/rbac/reconcile.ts';
import { hasStatus } from '../errors/status-error.ts';
import type { GenericStore } from '../generic/store.ts';
import type { KObject } from '../schema/declaration.ts';
import { bootstrapPolicyAttemptsMax, bootstrapPolicyConcurrency } from './limits.ts';
import type { RbacStores } from './rbac-stores.ts';

const fieldManager = 'orch-apiserver';

interface Expected {
  readonly store: GenericStore;
  readonly object: KObject;
  readonly reconcile: (expected: KObject, existing: KObject | undefined) => ReconcileResult;
}

function namespaceOf(o: KObject): string | undefined {
  return o.metadata.namespace;
}

async function current(store: GenericStore, o: KObject): Promise<KObject | undefined> {
  try {
    return await store.get(namespaceOf(o), o.metadata.name ?? '');
  } catch (err) {
    if (hasStatus(err, 404)) return undefined;
    throw err;
  }
}

/** Writes what reconciliation asks; returns false when another writer won the race (read again and retry). */
async function write(e: Expected, result: ReconcileResult, existing: KObject | undefined): Promise<boolean> {
  const ns = namespaceOf(e.object);
  const name = e.object.metadata.name ?? '';
  const object = result.object as KObject;
  try {
    if (result.operation === 'create') await e.store.create(ns, object, { fieldManager });
    else if (result.operation === 'update') await e.store.update(ns, name, { ...object, metadata: { ...object.metadata, resourceVersion: existing?.metadata.resourceVersion } }, { fieldManager });
    else if (result.operation === 'recreate') {
      await e.store.delete(ns, name, { preconditions: { resourceVersion: existing?.metadata.resourceVersion } });
      const fresh = { ...object, metadata: { ...object.metadata } };
      delete fresh.metadata.resourceVersion;
      delete fresh.metadata.uid;
      await e.store.create(ns, fresh, { fieldManager });
    }
    return true;
  } catch (err) {
    if (hasStatus(err, 409) || hasStatus(err, 404)) return false;
    throw err;
  }
}

/** Reconciles one object, starting from `known` (a listed copy), retrying lost races (bounded). */
async function reconcileOne(e: Expected, known: KObject | undefined): Promise<void> {
  let existing = known;
  for (let attempt = 1; attempt <= bootstrapPolicyAttemptsMax; attempt++) {
    const result = e.reconcile(e.object, existing);
    if (!result.shouldWrite) return;
    if (await write(e, result, existing)) return;
    existing = await current(e.store, e.object);
  }
  throw new Error(`${String(e.object.kind)} ${namespaceOf(e.object) ?? ''}/${e.object.metadata.name ?? ''}: still changing under us after ${bootstrapPolicyAttemptsMax} attempts`);
}

/** The namespaces the default Roles live in (kube-system, kube-public), created when missing as kube's hook does. */
async function ensureNamespaces(namespaces: GenericStore, names: ReadonlySet<string>): Promise<void> {
  for (const name of names) {
    try {
      await namespaces.create(undefined, { metadata: { name } }, { fieldManager });
    } catch (err) {
      if (!hasStatus(err, 409)) throw err;
    }
  }
}

function keyOf(o: KObject): string {
  return `${namespaceOf(o) ?? ''}/${o.metadata.name ?? ''}`;
}

/**
 * Reconciles the whole bootstrap policy once. Throws the first store failure (the caller retries
 * the round later); objects annotated `rbac.authorization.kubernetes.io/autoupdate: "false"` are left alone.
 */
export async function reconcileBootstrapPolicy(stores: RbacStores & { readonly namespaces: GenericStore }, apiDomain: string): Promise<void> {
  const roles = bootstrapRoleObjects(apiDomain) as KObject[];
  const roleBindings = bootstrapRoleBindingObjects(apiDomain) as KObject[];
  await ensureNamespaces(stores.namespaces, new Set([...roles, ...roleBindings].map((o) => namespaceOf(o) ?? '').filter((n) => n !== '')));
  const groups: { store: GenericStore; objects: KObject[]; reconcile: Expected['reconcile'] }[] = [
    { store: stores.clusterRoles, objects: bootstrapClusterRoleObjects(apiDomain) as KObject[], reconcile: (x, y) => reconcileRole(x, y) },
    { store: stores.clusterRoleBindings, objects: bootstrapClusterRoleBindingObjects(apiDomain) as KObject[], reconcile: (x, y) => reconcileBinding(x, y) },
    { store: stores.roles, objects: roles, reconcile: (x, y) => reconcileRole(x, y) },
    { store: stores.roleBindings, objects: roleBindings, reconcile: (x, y) => reconcileBinding(x, y) },
  ];
  for (const g of groups) {
    const listed = new Map((await g.store.list(undefined, {})).items.map((o) => [keyOf(o), o]));
    const pending = g.objects.map((object) => ({ store: g.store, object, reconcile: g.reconcile }));
    for (let i = 0; i < pending.length; i += bootstrapPolicyConcurrency) {
      await Promise.all(pending.slice(i, i + bootstrapPolicyConcurrency).map((e) => reconcileOne(e, listed.get(keyOf(e.object)))));
    }
  }
}
