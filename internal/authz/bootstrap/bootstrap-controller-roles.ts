// The controller ClusterRoles and ClusterRoleBindings of kube-apiserver 1.28, as its bootstrap policy
// creates them (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go; the list kube
// publishes in testdata/controller-roles.yaml and testdata/controller-role-bindings.yaml): one
// `system:controller:<name>` role per kube-controller-manager loop, bound to the service account
// `<name>` in kube-system. Only what the default feature gates create: resource-claim-controller
// (DynamicResourceAllocation, alpha), validatingadmissionpolicy-status-controller
// (ValidatingAdmissionPolicy, beta but off), legacy-service-account-token-cleaner
// (LegacyServiceAccountTokenCleanUp, alpha in 1.28) and storage-version-garbage-collector
// (StorageVersionAPI, alpha) are left out; the PodDisruptionConditions and StatefulSetAutoDeletePVC
// rules (beta, on) are in, appended last as kube appends them.
// Data in kube's name order; each list sorted as kube's rule builder sorts it; rules in kube's order.
// The bootstrapping label and the autoupdate annotation are added when the objects are built
// (bootstrap-policy.ts), as for the other default roles.
import type { BootstrapClusterRoleBinding } from './bootstrap-cluster-role-bindings.ts';
import type { BootstrapClusterRole } from './bootstrap-cluster-roles.ts';
import { policyRule, type PolicyRule } from '../rbac/policy-rule.ts';

const core = '';
const read = ['get', 'list', 'watch'];
const readWrite = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

function r(verbs: readonly string[], apiGroups: readonly string[], resources: readonly string[], resourceNames: readonly string[] = []): PolicyRule {
  return policyRule({ verbs: [...verbs], apiGroups: [...apiGroups], resources: [...resources], resourceNames: [...resourceNames] });
}

/** kube's eventsRule(): every controller that records events. */
const events = r(['create', 'patch', 'update'], [core, 'events.k8s.io'], ['events']);

const saRolePrefix = 'system:controller:';

const role = (controller: string, rules: readonly PolicyRule[]): BootstrapClusterRole => ({ name: saRolePrefix + controller, rules });

/** The controller roles of a default kube-apiserver 1.28, by name order as kube lists them (31). */
export const bootstrapControllerRoles: readonly BootstrapClusterRole[] = [
  role('attachdetach-controller', [
    r(['list', 'watch'], [core], ['persistentvolumeclaims', 'persistentvolumes']),
    r(read, [core], ['nodes']),
    r(['patch', 'update'], [core], ['nodes/status']),
    r(['list', 'watch'], [core], ['pods']),
    events,
    r(['create', 'delete', 'get', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments']),
    r(read, ['storage.k8s.io'], ['csidrivers']),
    r(read, ['storage.k8s.io'], ['csinodes']),
  ]),
  role('certificate-controller', [
    r(['delete', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    r(['update'], ['certificates.k8s.io'], ['certificatesigningrequests/approval', 'certificatesigningrequests/status']),
    r(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    r(['sign'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown']),
    r(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    events,
  ]),
  role('clusterrole-aggregation-controller', [r(['escalate', 'get', 'list', 'patch', 'update', 'watch'], ['rbac.authorization.k8s.io'], ['clusterroles'])]),
  role('cronjob-controller', [
    r(['get', 'list', 'update', 'watch'], ['batch'], ['cronjobs']),
    r(readWrite, ['batch'], ['jobs']),
    r(['update'], ['batch'], ['cronjobs/status']),
    r(['update'], ['batch'], ['cronjobs/finalizers']),
    r(['delete', 'list'], [core], ['pods']),
    events,
  ]),
  role('daemon-set-controller', [
    r(read, ['apps', 'extensions'], ['daemonsets']),
    r(['update'], ['apps', 'extensions'], ['daemonsets/status']),
    r(['update'], ['apps', 'extensions'], ['daemonsets/finalizers']),
    r(['list', 'watch'], [core], ['nodes']),
    r(['create', 'delete', 'list', 'patch', 'watch'], [core], ['pods']),
    r(['create'], [core], ['pods/binding']),
    r(readWrite, ['apps'], ['controllerrevisions']),
    events,
  ]),
  role('deployment-controller', [
    r(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['deployments']),
    r(['update'], ['apps', 'extensions'], ['deployments/status']),
    r(['update'], ['apps', 'extensions'], ['deployments/finalizers']),
    r(readWrite, ['apps', 'extensions'], ['replicasets']),
    r(['get', 'list', 'update', 'watch'], [core], ['pods']),
    events,
  ]),
  role('disruption-controller', [
    r(read, ['apps', 'extensions'], ['deployments']),
    r(read, ['apps', 'extensions'], ['replicasets']),
    r(read, [core], ['replicationcontrollers']),
    r(read, ['policy'], ['poddisruptionbudgets']),
    r(read, ['apps'], ['statefulsets']),
    r(['update'], ['policy'], ['poddisruptionbudgets/status']),
    r(['get'], ['*'], ['*/scale']),
    events,
    // PodDisruptionConditions (beta, on in 1.28)
    r(['patch', 'update'], [core], ['pods/status']),
  ]),
  role('endpoint-controller', [
    r(read, [core], ['pods', 'services']),
    r(['create', 'delete', 'get', 'list', 'update'], [core], ['endpoints']),
    r(['create'], [core], ['endpoints/restricted']),
    events,
  ]),
  role('endpointslice-controller', [
    r(read, [core], ['nodes', 'pods', 'services']),
    r(['update'], [core], ['services/finalizers']),
    r(['create', 'delete', 'get', 'list', 'update'], ['discovery.k8s.io'], ['endpointslices']),
    events,
  ]),
  role('endpointslicemirroring-controller', [
    r(read, [core], ['endpoints', 'services']),
    r(['update'], [core], ['services/finalizers']),
    r(['update'], [core], ['endpoints/finalizers']),
    r(['create', 'delete', 'get', 'list', 'update'], ['discovery.k8s.io'], ['endpointslices']),
    events,
  ]),
  role('ephemeral-volume-controller', [
    r(read, [core], ['pods']),
    r(['update'], [core], ['pods/finalizers']),
    r(['create', 'get', 'list', 'watch'], [core], ['persistentvolumeclaims']),
    events,
  ]),
  role('expand-controller', [
    r(['get', 'list', 'patch', 'update', 'watch'], [core], ['persistentvolumes']),
    r(['patch', 'update'], [core], ['persistentvolumeclaims/status']),
    r(read, [core], ['persistentvolumeclaims']),
    r(read, ['storage.k8s.io'], ['storageclasses']),
    r(['get'], [core], ['endpoints', 'services']),
    r(['get'], [core], ['secrets']),
    events,
  ]),
  role('generic-garbage-collector', [r(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*']), events]),
  role('horizontal-pod-autoscaler', [
    r(read, ['autoscaling'], ['horizontalpodautoscalers']),
    r(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
    r(['get', 'update'], ['*'], ['*/scale']),
    r(['list'], [core], ['pods']),
    r(['list'], ['metrics.k8s.io'], ['pods']),
    r(['get', 'list'], ['custom.metrics.k8s.io'], ['*']),
    r(['get', 'list'], ['external.metrics.k8s.io'], ['*']),
    events,
  ]),
  role('job-controller', [
    r(['get', 'list', 'patch', 'update', 'watch'], ['batch'], ['jobs']),
    r(['update'], ['batch'], ['jobs/status']),
    r(['update'], ['batch'], ['jobs/finalizers']),
    r(['create', 'delete', 'list', 'patch', 'watch'], [core], ['pods']),
    events,
  ]),
  role('namespace-controller', [
    r(['delete', 'get', 'list', 'watch'], [core], ['namespaces']),
    r(['update'], [core], ['namespaces/finalize', 'namespaces/status']),
    r(['delete', 'deletecollection', 'get', 'list'], ['*'], ['*']),
  ]),
  role('node-controller', [
    r(['delete', 'get', 'list', 'patch', 'update'], [core], ['nodes']),
    r(['patch', 'update'], [core], ['nodes/status']),
    r(['patch', 'update'], [core], ['pods/status']),
    r(['delete', 'list'], [core], ['pods']),
    // The node IPAM's ClusterCIDR API (networking.k8s.io/v1alpha1, 1.25–1.28): the rule is not gated.
    r(['create', 'get', 'list', 'update'], ['networking.k8s.io'], ['clustercidrs']),
    events,
    // PodDisruptionConditions (beta, on in 1.28)
    r(['get'], [core], ['pods']),
  ]),
  role('persistent-volume-binder', [
    r(['create', 'delete', 'get', 'list', 'update', 'watch'], [core], ['persistentvolumes']),
    r(['update'], [core], ['persistentvolumes/status']),
    r(['get', 'list', 'update', 'watch'], [core], ['persistentvolumeclaims']),
    r(['update'], [core], ['persistentvolumeclaims/status']),
    r(['create', 'delete', 'get', 'list', 'watch'], [core], ['pods']),
    r(read, ['storage.k8s.io'], ['storageclasses']),
    r(['create', 'delete', 'get', 'update'], [core], ['endpoints']),
    r(['create', 'delete', 'get'], [core], ['services']),
    r(['get'], [core], ['secrets']),
    r(['get', 'list'], [core], ['nodes']),
    r(['watch'], [core], ['events']),
    events,
  ]),
  role('pod-garbage-collector', [
    r(['delete', 'list', 'watch'], [core], ['pods']),
    r(['get', 'list'], [core], ['nodes']),
    // PodDisruptionConditions (beta, on in 1.28)
    r(['patch'], [core], ['pods/status']),
  ]),
  role('pv-protection-controller', [r(['get', 'list', 'update', 'watch'], [core], ['persistentvolumes']), events]),
  role('pvc-protection-controller', [r(['get', 'list', 'update', 'watch'], [core], ['persistentvolumeclaims']), r(read, [core], ['pods']), events]),
  role('replicaset-controller', [
    r(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
    r(['update'], ['apps', 'extensions'], ['replicasets/status']),
    r(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
    r(['create', 'delete', 'list', 'patch', 'watch'], [core], ['pods']),
    events,
  ]),
  role('replication-controller', [
    r(['get', 'list', 'update', 'watch'], [core], ['replicationcontrollers']),
    r(['update'], [core], ['replicationcontrollers/status']),
    r(['update'], [core], ['replicationcontrollers/finalizers']),
    r(['create', 'delete', 'list', 'patch', 'watch'], [core], ['pods']),
    events,
  ]),
  role('resourcequota-controller', [r(['list', 'watch'], ['*'], ['*']), r(['update'], [core], ['resourcequotas/status']), events]),
  role('root-ca-cert-publisher', [r(['create', 'update'], [core], ['configmaps']), events]),
  role('route-controller', [r(['list', 'watch'], [core], ['nodes']), r(['patch'], [core], ['nodes/status']), events]),
  role('service-account-controller', [r(['create'], [core], ['serviceaccounts']), events]),
  role('service-controller', [r(read, [core], ['services']), r(['patch', 'update'], [core], ['services/status']), r(['list', 'watch'], [core], ['nodes']), events]),
  role('statefulset-controller', [
    r(['list', 'watch'], [core], ['pods']),
    r(read, ['apps'], ['statefulsets']),
    r(['update'], ['apps'], ['statefulsets/status']),
    r(['update'], ['apps'], ['statefulsets/finalizers']),
    r(['create', 'delete', 'get', 'patch', 'update'], [core], ['pods']),
    r(readWrite, ['apps'], ['controllerrevisions']),
    r(['create', 'get'], [core], ['persistentvolumeclaims']),
    events,
    // StatefulSetAutoDeletePVC (beta, on in 1.28)
    r(['delete', 'update'], [core], ['persistentvolumeclaims']),
  ]),
  role('ttl-after-finished-controller', [r(['delete', 'get', 'list', 'watch'], ['batch'], ['jobs']), events]),
  role('ttl-controller', [r(['list', 'patch', 'update', 'watch'], [core], ['nodes']), events]),
];

/** Each controller role bound to its service account in kube-system (kube's addControllerRole), in the roles' order. */
export const bootstrapControllerRoleBindings: readonly BootstrapClusterRoleBinding[] = bootstrapControllerRoles.map((r) => ({
  name: r.name,
  serviceAccounts: [{ namespace: 'kube-system', name: r.name.slice(saRolePrefix.length) }],
}));
