// One enum field per built-in kind that kube-apiserver v1.28 validates one, with a value outside
// it: what the bad-input suite sets on the kind's fixture, and the field kube's answer names.
import type { ResourceDeclaration } from '../../../internal/registry/schema/declaration.ts';

/** Where a bad enum value goes in a fixture, and the field the 422's cause names. */
export interface BadEnum {
  /** The path in the object, as the suite's setAt takes it (array indexes as numbers). */
  readonly path: readonly (string | number)[];
  readonly value: unknown;
  /** The cause's field, as kube-apiserver names it (some kinds report the enclosing struct). */
  readonly field: string;
}

const restartPolicy = 'Sometimes';

/** By `<group>/<kind>` ('' for core), or `<group>/<version>/<kind>` where the versions differ, as the fixtures are. */
const badEnums: Record<string, BadEnum> = {
  '/Namespace': { path: ['spec', 'finalizers'], value: ['cleanup'], field: 'spec.finalizers' },
  '/Node': { path: ['spec', 'taints'], value: [{ key: 'dedicated', effect: 'Evict' }], field: 'spec.taints[0].effect' },
  '/Service': { path: ['spec', 'type'], value: 'Internal', field: 'spec.type' },
  '/Endpoints': { path: ['subsets', 0, 'ports', 0, 'protocol'], value: 'HTTP', field: 'subsets[0].ports[0].protocol' },
  '/Pod': { path: ['spec', 'restartPolicy'], value: restartPolicy, field: 'spec.restartPolicy' },
  '/LimitRange': { path: ['spec', 'limits', 0, 'type'], value: 'Node', field: 'spec.limits[0].type' },
  '/ResourceQuota': { path: ['spec', 'scopes'], value: ['Sometimes'], field: 'spec.scopes' },
  '/PersistentVolume': { path: ['spec', 'persistentVolumeReclaimPolicy'], value: 'Shred', field: 'spec.persistentVolumeReclaimPolicy' },
  '/PersistentVolumeClaim': { path: ['spec', 'volumeMode'], value: 'Tape', field: 'spec.volumeMode' },
  '/PodTemplate': { path: ['template', 'spec', 'restartPolicy'], value: restartPolicy, field: 'template.spec.restartPolicy' },
  '/ReplicationController': { path: ['spec', 'template', 'spec', 'restartPolicy'], value: restartPolicy, field: 'spec.template.spec.restartPolicy' },
  'apps/Deployment': { path: ['spec', 'strategy', 'type'], value: 'Canary', field: 'spec.strategy' },
  'apps/ReplicaSet': { path: ['spec', 'template', 'spec', 'restartPolicy'], value: restartPolicy, field: 'spec.template.spec.restartPolicy' },
  'apps/StatefulSet': { path: ['spec', 'podManagementPolicy'], value: 'Random', field: 'spec.podManagementPolicy' },
  'apps/DaemonSet': { path: ['spec', 'updateStrategy', 'type'], value: 'Sometimes', field: 'spec.updateStrategy' },
  'events/Event': { path: ['type'], value: 'Info', field: 'type' },
  'batch/Job': { path: ['spec', 'completionMode'], value: 'Numbered', field: 'spec.completionMode' },
  'batch/CronJob': { path: ['spec', 'concurrencyPolicy'], value: 'Queue', field: 'spec.concurrencyPolicy' },
  'certificates/CertificateSigningRequest': { path: ['spec', 'usages'], value: ['telepathy'], field: 'spec.usages[0]' },
  'rbac.authorization/RoleBinding': { path: ['subjects', 0, 'kind'], value: 'Robot', field: 'subjects[0].kind' },
  'rbac.authorization/ClusterRoleBinding': { path: ['subjects', 0, 'kind'], value: 'Robot', field: 'subjects[0].kind' },
  'networking/Ingress': { path: ['spec', 'rules', 0, 'http', 'paths', 0, 'pathType'], value: 'Regex', field: 'spec.rules[0].http.paths[0].pathType' },
  'networking/IngressClass': { path: ['spec', 'parameters'], value: { kind: 'Params', name: 'p', scope: 'Galaxy' }, field: 'spec.parameters.scope' },
  'networking/NetworkPolicy': { path: ['spec', 'policyTypes'], value: ['Sideways'], field: 'spec.policyTypes[0]' },
  'policy/PodDisruptionBudget': { path: ['spec', 'unhealthyPodEvictionPolicy'], value: 'Never', field: 'spec.unhealthyPodEvictionPolicy' },
  'storage/StorageClass': { path: ['reclaimPolicy'], value: 'Recycle', field: 'reclaimPolicy' },
  'storage/CSIDriver': { path: ['spec', 'fsGroupPolicy'], value: 'Always', field: 'spec.fsGroupPolicy' },
  'scheduling/PriorityClass': { path: ['preemptionPolicy'], value: 'Always', field: 'preemptionPolicy' },
  'node/RuntimeClass': { path: ['scheduling', 'tolerations'], value: [{ key: 'k', operator: 'Exists', effect: 'Evict' }], field: 'scheduling.tolerations[0].effect' },
  'discovery/EndpointSlice': { path: ['addressType'], value: 'IPv5', field: 'addressType' },
  'autoscaling/v2/HorizontalPodAutoscaler': { path: ['spec', 'metrics', 0, 'type'], value: 'Magic', field: 'spec.metrics[0].type' },
  'flowcontrol.apiserver/FlowSchema': { path: ['spec', 'distinguisherMethod', 'type'], value: 'ByRandom', field: 'spec.distinguisherMethod.type' },
  'flowcontrol.apiserver/PriorityLevelConfiguration': { path: ['spec', 'type'], value: 'Unlimited', field: 'spec.type' },
};

/** The bad enum value of a declaration, or undefined when kube-apiserver validates no enum of the kind. */
export function badEnumOf(decl: ResourceDeclaration): BadEnum | undefined {
  return badEnums[`${decl.group}/${decl.version}/${decl.kind}`] ?? badEnums[`${decl.group}/${decl.kind}`];
}
