// The default Roles and RoleBindings kube-apiserver 1.28 creates in kube-system and kube-public
// (bootstrappolicy/namespace_policy.go): the authentication config reader extension API servers
// bind to, leader locking of the controller manager and scheduler, and the bootstrap-token controllers
// (whose Roles orch also makes in orch-system and orch-public).
import { policyRule, type PolicyRule } from '../rbac/policy-rule.ts';

/** A default namespaced Role. */
export interface BootstrapRole {
  readonly namespace: string;
  readonly name: string;
  readonly rules: readonly PolicyRule[];
}

/** A default RoleBinding of a Role of its namespace. */
export interface BootstrapRoleBinding {
  readonly namespace: string;
  readonly name: string;
  readonly role: string;
  readonly users?: readonly string[];
  readonly serviceAccounts?: readonly { readonly namespace: string; readonly name: string }[];
}

const core = '';

function r(verbs: readonly string[], apiGroups: readonly string[], resources: readonly string[], resourceNames: readonly string[] = []): PolicyRule {
  return policyRule({ verbs: [...verbs], apiGroups: [...apiGroups], resources: [...resources], resourceNames: [...resourceNames] });
}

const events = r(['create', 'patch', 'update'], [core, 'events.k8s.io'], ['events']);
const leaderLocking = (name: string): PolicyRule[] => [r(['watch'], [core], ['configmaps']), r(['get', 'update'], [core], ['configmaps'], [name])];

/** In kube's order, then orch's namespaces. */
export const bootstrapRoles: readonly BootstrapRole[] = [
  { namespace: 'kube-system', name: 'extension-apiserver-authentication-reader', rules: [r(['get', 'list', 'watch'], [core], ['configmaps'], ['extension-apiserver-authentication'])] },
  { namespace: 'kube-system', name: 'system:controller:bootstrap-signer', rules: [r(['get', 'list', 'watch'], [core], ['secrets'])] },
  { namespace: 'kube-system', name: 'system:controller:cloud-provider', rules: [r(['create', 'get', 'list', 'watch'], [core], ['configmaps'])] },
  { namespace: 'kube-system', name: 'system:controller:token-cleaner', rules: [r(['delete', 'get', 'list', 'watch'], [core], ['secrets']), events] },
  { namespace: 'kube-system', name: 'system::leader-locking-kube-controller-manager', rules: leaderLocking('kube-controller-manager') },
  { namespace: 'kube-system', name: 'system::leader-locking-kube-scheduler', rules: leaderLocking('kube-scheduler') },
  { namespace: 'kube-public', name: 'system:controller:bootstrap-signer', rules: [r(['get', 'list', 'watch'], [core], ['configmaps']), r(['update'], [core], ['configmaps'], ['cluster-info']), events] },
  // orch's own: the same rights in its system and public namespaces, where the controllers also work.
  { namespace: 'orch-system', name: 'system:controller:bootstrap-signer', rules: [r(['get', 'list', 'watch'], [core], ['secrets'])] },
  { namespace: 'orch-system', name: 'system:controller:token-cleaner', rules: [r(['delete', 'get', 'list', 'watch'], [core], ['secrets']), events] },
  { namespace: 'orch-public', name: 'system:controller:bootstrap-signer', rules: [r(['get', 'list', 'watch'], [core], ['configmaps']), r(['update'], [core], ['configmaps'], ['cluster-info']), events] },
];

const systemSa = (name: string): { namespace: string; name: string } => ({ namespace: 'kube-system', name });

/** In kube's order, then orch's namespaces. */
export const bootstrapRoleBindings: readonly BootstrapRoleBinding[] = [
  { namespace: 'kube-system', name: 'system::extension-apiserver-authentication-reader', role: 'extension-apiserver-authentication-reader', users: ['system:kube-controller-manager', 'system:kube-scheduler'] },
  { namespace: 'kube-system', name: 'system::leader-locking-kube-controller-manager', role: 'system::leader-locking-kube-controller-manager', users: ['system:kube-controller-manager'], serviceAccounts: [systemSa('kube-controller-manager')] },
  { namespace: 'kube-system', name: 'system::leader-locking-kube-scheduler', role: 'system::leader-locking-kube-scheduler', users: ['system:kube-scheduler'], serviceAccounts: [systemSa('kube-scheduler')] },
  { namespace: 'kube-system', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', serviceAccounts: [systemSa('bootstrap-signer')] },
  { namespace: 'kube-system', name: 'system:controller:cloud-provider', role: 'system:controller:cloud-provider', serviceAccounts: [systemSa('cloud-provider')] },
  { namespace: 'kube-system', name: 'system:controller:token-cleaner', role: 'system:controller:token-cleaner', serviceAccounts: [systemSa('token-cleaner')] },
  { namespace: 'kube-public', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', serviceAccounts: [systemSa('bootstrap-signer')] },
  { namespace: 'orch-system', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', serviceAccounts: [systemSa('bootstrap-signer')] },
  { namespace: 'orch-system', name: 'system:controller:token-cleaner', role: 'system:controller:token-cleaner', serviceAccounts: [systemSa('token-cleaner')] },
  { namespace: 'orch-public', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', serviceAccounts: [systemSa('bootstrap-signer')] },
];
