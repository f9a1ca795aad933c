import type { GenericStore } from '../generic/store.ts';
import type { ServedResource, ServedResources } from '../served-resource.ts';

/** The stores of the four RBAC kinds, which the RBAC informer follows and the bootstrap policy writes. */
export interface RbacStores {
  readonly roles: GenericStore;
  readonly clusterRoles: GenericStore;
  readonly roleBindings: GenericStore;
  readonly clusterRoleBindings: GenericStore;
}

/** The RBAC stores of a registry's stores, or undefined when it serves none (a registry without RBAC). */
export function rbacStoresOf(registry: ServedResources, stores: ReadonlyMap<ServedResource, GenericStore>): RbacStores | undefined {
  const group = `rbac.authorization.${registry.apiDomain}`;
  const find = (plural: string): GenericStore | undefined => {
    const served = registry.find(group, 'v1', plural);
    return served && stores.get(served);
  };
  const roles = find('roles');
  const clusterRoles = find('clusterroles');
  const roleBindings = find('rolebindings');
  const clusterRoleBindings = find('clusterrolebindings');
  if (!roles || !clusterRoles || !roleBindings || !clusterRoleBindings) return undefined;
  return { roles, clusterRoles, roleBindings, clusterRoleBindings };
}
