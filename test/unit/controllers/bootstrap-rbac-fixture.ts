// In-memory stores and an RBAC authorizer holding only the bootstrap policy: what a controller's
// store view is checked against in the unit tests.
import { buildAuthorization } from '../../../internal/authz/authorization-modes.ts';
import { bootstrapClusterRoleBindingObjects, bootstrapClusterRoleObjects } from '../../../internal/authz/bootstrap/bootstrap-policy.ts';
import { RbacIndex } from '../../../internal/authz/rbac/rbac-index.ts';
import type { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';

/** Fresh in-memory stores of every built-in resource (`store(group, plural)`), and the bootstrap RBAC authorizer. */
export async function bootstrapRbacStores() {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const registry = new ResourceRegistry('k8s.io');
  const stores = new Map(registry.resources.map((r) => [r, storeFor(storage, r)] as const));
  const index = new RbacIndex('rbac.authorization.k8s.io');
  for (const object of [...bootstrapClusterRoleObjects(), ...bootstrapClusterRoleBindingObjects()]) index.apply({ type: 'ADDED', object });
  const { authorizer } = buildAuthorization({ modes: ['RBAC'], rbacIndex: index, rbacSynced: () => true });
  const store = (group: string, plural: string): GenericStore => stores.get(registry.find(group, 'v1', plural)!)!;
  return { storage, authorizer, store };
}
