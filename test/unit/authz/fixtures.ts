// Users and helpers shared by the authorization tests.
import type { UserInfo } from '../../../internal/authn/user-info.ts';
import { RbacIndex } from '../../../internal/authz/rbac/rbac-index.ts';

/** A user with the given groups (system:authenticated always among them). */
export function user(username: string, groups: string[] = []): UserInfo {
  return { username, uid: '', groups: [...groups, 'system:authenticated'], extra: {} };
}

type Rule = { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
type SubjectJson = { kind: string; name: string; namespace?: string; apiGroup?: string };

/** RBAC object builders as the registry stores them. */
export const rbac = {
  clusterRole: (name: string, rules: Rule[], extra: Record<string, unknown> = {}) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, ...(extra.metadata as object) }, rules, ...extra }),
  role: (namespace: string, name: string, rules: Rule[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace }, rules }),
  clusterRoleBinding: (name: string, role: string, subjects: SubjectJson[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects }),
  roleBinding: (namespace: string, name: string, roleKind: 'Role' | 'ClusterRole', role: string, subjects: SubjectJson[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: role }, subjects }),
};

/** An index holding the given objects. */
export function indexOf(objects: Record<string, unknown>[]): RbacIndex {
  const index = new RbacIndex();
  for (const object of objects) index.apply({ type: 'ADDED', object });
  return index;
}
