// The default ClusterRoles of kube-apiserver 1.28, as its bootstrap policy creates them
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go; the list kube publishes in
// testdata/cluster-roles.yaml, the roles of `kubectl get clusterrole -o yaml` on a new cluster).
// Data in kube's order; each list sorted as kube's rule builder sorts it. The controllers' roles
// (system:controller:*) are in bootstrap-controller-roles.ts.
import { policyRule, type PolicyRule } from '../rbac/policy-rule.ts';

/** A default ClusterRole: rules, the labels beyond the bootstrapping one, and an aggregation rule's label selectors. */
export interface BootstrapClusterRole {
  readonly name: string;
  readonly rules: readonly PolicyRule[];
  readonly labels?: Readonly<Record<string, string>>;
  /** matchLabels of each clusterRoleSelector (the aggregated roles: admin, edit, view). */
  readonly aggregateFrom?: readonly Readonly<Record<string, string>>[];
}

const core = '';
const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const readWrite = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const eventWrite = ['create', 'patch', 'update'];

function r(verbs: readonly string[], apiGroups: readonly string[], resources: readonly string[], resourceNames: readonly string[] = []): PolicyRule {
  return policyRule({ verbs: [...verbs], apiGroups: [...apiGroups], resources: [...resources], resourceNames: [...resourceNames] });
}

function urls(verbs: readonly string[], nonResourceURLs: readonly string[]): PolicyRule {
  return policyRule({ verbs: [...verbs], nonResourceURLs: [...nonResourceURLs] });
}

const aggregateLabel = (to: string): string => `rbac.authorization.k8s.io/aggregate-to-${to}`;

const aggregateToEdit: readonly PolicyRule[] = [
  r(read, [core], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
  r(['impersonate'], [core], ['serviceaccounts']),
  r(write, [core], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
  r(['create'], [core], ['pods/eviction']),
  r(write, [core], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
  r(['create'], [core], ['serviceaccounts/token']),
  r(write, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
  r(write, ['autoscaling'], ['horizontalpodautoscalers']),
  r(write, ['batch'], ['cronjobs', 'jobs']),
  r(write, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
  r(write, ['policy'], ['poddisruptionbudgets']),
  r(write, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
  r(readWrite, ['coordination.k8s.io'], ['leases']),
];

const aggregateToView: readonly PolicyRule[] = [
  r(read, [core], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
  r(read, [core], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
  r(read, [core], ['namespaces']),
  r(read, ['discovery.k8s.io'], ['endpointslices']),
  r(read, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
  r(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
  r(read, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
  r(read, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
  r(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
  r(read, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
];

const approver = (signer: string): PolicyRule => r(['approve'], ['certificates.k8s.io'], ['signers'], [signer]);

const kubeControllerManager: readonly PolicyRule[] = [
  r(eventWrite, [core, 'events.k8s.io'], ['events']),
  r(['create'], ['coordination.k8s.io'], ['leases']),
  r(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
  r(['create'], [core], ['secrets', 'serviceaccounts']),
  r(['delete'], [core], ['secrets']),
  r(['get'], [core], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
  r(['update'], [core], ['secrets', 'serviceaccounts']),
  r(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  r(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  r(['list', 'watch'], ['*'], ['*']),
  r(['create'], [core], ['serviceaccounts/token']),
];

const kubeScheduler: readonly PolicyRule[] = [
  r(eventWrite, [core, 'events.k8s.io'], ['events']),
  r(['create'], ['coordination.k8s.io'], ['leases']),
  r(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
  r(read, [core], ['nodes']),
  r(['delete', 'get', 'list', 'watch'], [core], ['pods']),
  r(['create'], [core], ['bindings', 'pods/binding']),
  r(['patch', 'update'], [core], ['pods/status']),
  r(read, [core], ['replicationcontrollers', 'services']),
  r(read, ['apps', 'extensions'], ['replicasets']),
  r(read, ['apps'], ['statefulsets']),
  r(read, ['policy'], ['poddisruptionbudgets']),
  r(read, [core], ['persistentvolumeclaims', 'persistentvolumes']),
  r(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  r(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  r(read, ['storage.k8s.io'], ['csinodes']),
  r(read, [core], ['namespaces']),
  r(read, ['storage.k8s.io'], ['csidrivers']),
  r(read, ['storage.k8s.io'], ['csistoragecapacities']),
];

const node: readonly PolicyRule[] = [
  r(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  r(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
  r(read, [core], ['services']),
  r(['create', 'get', 'list', 'watch'], [core], ['nodes']),
  r(['patch', 'update'], [core], ['nodes/status']),
  r(['patch', 'update'], [core], ['nodes']),
  r(eventWrite, [core], ['events']),
  r(read, [core], ['pods']),
  r(['create', 'delete'], [core], ['pods']),
  r(['patch', 'update'], [core], ['pods/status']),
  r(['create'], [core], ['pods/eviction']),
  r(read, [core], ['configmaps', 'secrets']),
  r(['get'], [core], ['persistentvolumeclaims', 'persistentvolumes']),
  r(['get'], [core], ['endpoints']),
  r(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
  r(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
  r(['get'], ['storage.k8s.io'], ['volumeattachments']),
  r(['create'], [core], ['serviceaccounts/token']),
  r(['get', 'patch', 'update'], [core], ['persistentvolumeclaims/status']),
  r(read, ['storage.k8s.io'], ['csidrivers']),
  r(['create', 'delete', 'get', 'patch', 'update'], ['storage.k8s.io'], ['csinodes']),
  r(read, ['node.k8s.io'], ['runtimeclasses']),
];

/** The default ClusterRoles of kube-apiserver 1.28, by name order as kube lists them. */
export const bootstrapClusterRoles: readonly BootstrapClusterRole[] = [
  { name: 'admin', rules: [], aggregateFrom: [{ [aggregateLabel('admin')]: 'true' }] },
  { name: 'cluster-admin', rules: [r(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
  { name: 'edit', rules: [], labels: { [aggregateLabel('admin')]: 'true' }, aggregateFrom: [{ [aggregateLabel('edit')]: 'true' }] },
  {
    name: 'system:aggregate-to-admin',
    labels: { [aggregateLabel('admin')]: 'true' },
    rules: [r(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']), r(readWrite, ['rbac.authorization.k8s.io'], ['rolebindings', 'roles'])],
  },
  { name: 'system:aggregate-to-edit', labels: { [aggregateLabel('edit')]: 'true' }, rules: aggregateToEdit },
  { name: 'system:aggregate-to-view', labels: { [aggregateLabel('view')]: 'true' }, rules: aggregateToView },
  { name: 'system:auth-delegator', rules: [r(['create'], ['authentication.k8s.io'], ['tokenreviews']), r(['create'], ['authorization.k8s.io'], ['subjectaccessreviews'])] },
  {
    name: 'system:basic-user',
    rules: [r(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']), r(['create'], ['authentication.k8s.io'], ['selfsubjectreviews'])],
  },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [r(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient'])] },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [r(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient'])] },
  { name: 'system:certificates.k8s.io:kube-apiserver-client-approver', rules: [approver('kubernetes.io/kube-apiserver-client')] },
  { name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', rules: [approver('kubernetes.io/kube-apiserver-client-kubelet')] },
  { name: 'system:certificates.k8s.io:kubelet-serving-approver', rules: [approver('kubernetes.io/kubelet-serving')] },
  { name: 'system:certificates.k8s.io:legacy-unknown-approver', rules: [approver('kubernetes.io/legacy-unknown')] },
  { name: 'system:discovery', rules: [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])] },
  { name: 'system:heapster', rules: [r(read, [core], ['events', 'namespaces', 'nodes', 'pods']), r(read, ['extensions'], ['deployments'])] },
  { name: 'system:kube-aggregator', rules: [r(read, [core], ['endpoints', 'services'])] },
  { name: 'system:kube-controller-manager', rules: kubeControllerManager },
  { name: 'system:kube-dns', rules: [r(['list', 'watch'], [core], ['endpoints', 'services'])] },
  { name: 'system:kube-scheduler', rules: kubeScheduler },
  {
    name: 'system:kubelet-api-admin',
    rules: [r(read, [core], ['nodes']), r(['proxy'], [core], ['nodes']), r(['*'], [core], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats'])],
  },
  { name: 'system:monitoring', rules: [urls(['get'], ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'])] },
  { name: 'system:node', rules: node },
  { name: 'system:node-bootstrapper', rules: [r(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests'])] },
  { name: 'system:node-problem-detector', rules: [r(['get'], [core], ['nodes']), r(['patch'], [core], ['nodes/status']), r(eventWrite, [core, 'events.k8s.io'], ['events'])] },
  {
    name: 'system:node-proxier',
    rules: [r(['list', 'watch'], [core], ['endpoints', 'services']), r(read, [core], ['nodes']), r(eventWrite, [core, 'events.k8s.io'], ['events']), r(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices'])],
  },
  {
    name: 'system:persistent-volume-provisioner',
    rules: [
      r(['create', 'delete', 'get', 'list', 'watch'], [core], ['persistentvolumes']),
      r(['get', 'list', 'update', 'watch'], [core], ['persistentvolumeclaims']),
      r(read, ['storage.k8s.io'], ['storageclasses']),
      r(['watch'], [core], ['events']),
      r(eventWrite, [core, 'events.k8s.io'], ['events']),
    ],
  },
  { name: 'system:public-info-viewer', rules: [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])] },
  { name: 'system:service-account-issuer-discovery', rules: [urls(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])] },
  {
    name: 'system:volume-scheduler',
    rules: [r(['get', 'list', 'patch', 'update', 'watch'], [core], ['persistentvolumes']), r(read, ['storage.k8s.io'], ['storageclasses']), r(['get', 'list', 'patch', 'update', 'watch'], [core], ['persistentvolumeclaims'])],
  },
  { name: 'view', rules: [], labels: { [aggregateLabel('edit')]: 'true' }, aggregateFrom: [{ [aggregateLabel('view')]: 'true' }] },
];
