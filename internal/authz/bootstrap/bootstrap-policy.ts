// The bootstrap policy as API objects: the default ClusterRoles and ClusterRoleBindings with kube's
// label `kubernetes.io/bootstrapping: rbac-defaults` and annotation
// `rbac.authorization.kubernetes.io/autoupdate: "true"`, under the served API domain.
import { bootstrapClusterRoleBindings } from './bootstrap-cluster-role-bindings.ts';
import { bootstrapClusterRoles } from './bootstrap-cluster-roles.ts';
import { bootstrapControllerRoleBindings, bootstrapControllerRoles } from './bootstrap-controller-roles.ts';
import { bootstrapRoleBindings, bootstrapRoles } from './bootstrap-namespace-roles.ts';
import { policyRuleToJson, type PolicyRule } from '../rbac/policy-rule.ts';
import { autoupdateAnnotation, bootstrappingLabel } from '../rbac/rbac-objects.ts';


type KObject = Record<string, unknown> & { metadata: Record<string, unknown> };

// Kube's data names groups under k8s.io; a server with another API domain serves them under its own.
function servedGroup(group: string, apiDomain: string): string {
  return apiDomain !== 'k8s.io' && group.endsWith('.k8s.io') ? `${group.slice(0, -'.k8s.io'.length)}.${apiDomain}` : group;
}

function ruleJson(rule: PolicyRule, apiDomain: string): Record<string, string[]> {
  return policyRuleToJson({ ...rule, apiGroups: rule.apiGroups.map((g) => servedGroup(g, apiDomain)) });
}

function metadata(name: string, labels: Readonly<Record<string, string>> = {}, namespace?: string): Record<string, unknown> {
  return { name, ...(namespace === undefined ? {} : { namespace }), labels: { [bootstrappingLabel]: 'rbac-defaults', ...labels }, annotations: { [autoupdateAnnotation]: 'true' } };
}

/** The default ClusterRoles as objects to create or reconcile. */
export function bootstrapClusterRoleObjects(apiDomain = 'k8s.io'): KObject[] {
  const apiVersion = `rbac.authorization.${apiDomain}/v1`;
  // The default roles and the controllers' (system:controller:*), by name as kube's testdata lists them.
  const roles = [...bootstrapClusterRoles, ...bootstrapControllerRoles].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return roles.map((role) => {
    const o: KObject = { apiVersion, kind: 'ClusterRole', metadata: metadata(role.name, role.labels) };
    if (role.aggregateFrom !== undefined) {
      o.aggregationRule = { clusterRoleSelectors: role.aggregateFrom.map((matchLabels) => ({ matchLabels: { ...matchLabels } })) };
    }
    // An aggregated role starts without rules (the aggregation controller fills them): none, not [], as Go leaves a nil slice off the wire.
    if (role.rules.length > 0) o.rules = role.rules.map((r) => ruleJson(r, apiDomain));
    return o;
  });
}

/** The default ClusterRoleBindings as objects to create or reconcile. */
export function bootstrapClusterRoleBindingObjects(apiDomain = 'k8s.io'): KObject[] {
  const group = `rbac.authorization.${apiDomain}`;
  const bindings = [...bootstrapClusterRoleBindings, ...bootstrapControllerRoleBindings].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return bindings.map((b) => {
    const subjects = [
      ...(b.groups ?? []).map((name) => ({ kind: 'Group', apiGroup: group, name })),
      ...(b.users ?? []).map((name) => ({ kind: 'User', apiGroup: group, name })),
      ...(b.serviceAccounts ?? []).map((sa) => ({ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace })),
    ];
    const o: KObject = { apiVersion: `${group}/v1`, kind: 'ClusterRoleBinding', metadata: metadata(b.name), roleRef: { apiGroup: group, kind: 'ClusterRole', name: b.name } };
    if (subjects.length > 0) o.subjects = subjects;
    return o;
  });
}

/** The default Roles of kube-system, kube-public (and orch-system, orch-public) as objects to create or reconcile (their namespaces must exist). */
export function bootstrapRoleObjects(apiDomain = 'k8s.io'): KObject[] {
  const apiVersion = `rbac.authorization.${apiDomain}/v1`;
  return bootstrapRoles.map((role) => ({ apiVersion, kind: 'Role', metadata: metadata(role.name, {}, role.namespace), rules: role.rules.map((r) => ruleJson(r, apiDomain)) }));
}

/** The default RoleBindings of kube-system, kube-public (and orch-system, orch-public) as objects to create or reconcile. */
export function bootstrapRoleBindingObjects(apiDomain = 'k8s.io'): KObject[] {
  const group = `rbac.authorization.${apiDomain}`;
  return bootstrapRoleBindings.map((b) => ({
    apiVersion: `${group}/v1`,
    kind: 'RoleBinding',
    metadata: metadata(b.name, {}, b.namespace),
    roleRef: { apiGroup: group, kind: 'Role', name: b.role },
    subjects: [...(b.users ?? []).map((name) => ({ kind: 'User', apiGroup: group, name })), ...(b.serviceAccounts ?? []).map((sa) => ({ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace }))],
  }));
}
