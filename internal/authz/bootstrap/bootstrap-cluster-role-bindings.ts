// The default ClusterRoleBindings of kube-apiserver 1.28 (bootstrappolicy ClusterRoleBindings()):
// each binds the ClusterRole of its own name.

/** A default ClusterRoleBinding's subjects. */
export interface BootstrapClusterRoleBinding {
  readonly name: string;
  readonly groups?: readonly string[];
  readonly users?: readonly string[];
  readonly serviceAccounts?: readonly { readonly namespace: string; readonly name: string }[];
}

/** In kube's order. `system:node` keeps no subject: the Node authorizer took over in 1.7, the binding stays for reconciliation. */
export const bootstrapClusterRoleBindings: readonly BootstrapClusterRoleBinding[] = [
  { name: 'cluster-admin', groups: ['system:masters'] },
  { name: 'system:monitoring', groups: ['system:monitoring'] },
  { name: 'system:discovery', groups: ['system:authenticated'] },
  { name: 'system:basic-user', groups: ['system:authenticated'] },
  { name: 'system:public-info-viewer', groups: ['system:authenticated', 'system:unauthenticated'] },
  { name: 'system:node-proxier', users: ['system:kube-proxy'] },
  { name: 'system:kube-controller-manager', users: ['system:kube-controller-manager'] },
  { name: 'system:kube-dns', serviceAccounts: [{ namespace: 'kube-system', name: 'kube-dns' }] },
  { name: 'system:kube-scheduler', users: ['system:kube-scheduler'] },
  { name: 'system:volume-scheduler', users: ['system:kube-scheduler'] },
  { name: 'system:node' },
  { name: 'system:service-account-issuer-discovery', groups: ['system:serviceaccounts'] },
];
