// kube-apiserver 1.28's apiVersionPriorities (cmd/kube-apiserver/app/aggregator.go): the
// groupPriorityMinimum and versionPriority of the APIService of each built-in group version, by
// the group's Kubernetes name. A served group version missing here gets no APIService, as upstream
// skips it ("Skipping APIService creation").

/** The priorities of one group version's APIService. */
export interface ApiServicePriority {
  readonly group: number;
  readonly version: number;
}

const table: ReadonlyArray<readonly [groupVersion: string, group: number, version: number]> = [
  ['/v1', 18000, 1],
  ['apps/v1', 17800, 15],
  ['events.k8s.io/v1', 17750, 15],
  ['events.k8s.io/v1beta1', 17750, 5],
  ['authentication.k8s.io/v1', 17700, 15],
  ['authentication.k8s.io/v1beta1', 17700, 9],
  ['authentication.k8s.io/v1alpha1', 17700, 1],
  ['authorization.k8s.io/v1', 17600, 15],
  ['autoscaling/v1', 17500, 15],
  ['autoscaling/v2', 17500, 30],
  ['autoscaling/v2beta1', 17500, 9],
  ['autoscaling/v2beta2', 17500, 1],
  ['batch/v1', 17400, 15],
  ['batch/v1beta1', 17400, 9],
  ['batch/v2alpha1', 17400, 9],
  ['certificates.k8s.io/v1', 17300, 15],
  ['certificates.k8s.io/v1alpha1', 17300, 1],
  ['networking.k8s.io/v1', 17200, 15],
  ['networking.k8s.io/v1alpha1', 17200, 1],
  ['policy/v1', 17100, 15],
  ['policy/v1beta1', 17100, 9],
  ['rbac.authorization.k8s.io/v1', 17000, 15],
  ['storage.k8s.io/v1', 16800, 15],
  ['storage.k8s.io/v1beta1', 16800, 9],
  ['storage.k8s.io/v1alpha1', 16800, 1],
  ['apiextensions.k8s.io/v1', 16700, 15],
  ['admissionregistration.k8s.io/v1', 16700, 15],
  ['admissionregistration.k8s.io/v1beta1', 16700, 12],
  ['admissionregistration.k8s.io/v1alpha1', 16700, 9],
  ['scheduling.k8s.io/v1', 16600, 15],
  ['coordination.k8s.io/v1', 16500, 15],
  ['node.k8s.io/v1', 16300, 15],
  ['node.k8s.io/v1alpha1', 16300, 1],
  ['node.k8s.io/v1beta1', 16300, 9],
  ['discovery.k8s.io/v1', 16200, 15],
  ['discovery.k8s.io/v1beta1', 16200, 12],
  ['flowcontrol.apiserver.k8s.io/v1beta3', 16100, 18],
  ['flowcontrol.apiserver.k8s.io/v1beta2', 16100, 15],
  ['flowcontrol.apiserver.k8s.io/v1beta1', 16100, 12],
  ['flowcontrol.apiserver.k8s.io/v1alpha1', 16100, 9],
  ['internal.apiserver.k8s.io/v1alpha1', 16000, 9],
  ['resource.k8s.io/v1alpha2', 15900, 9],
];

const byGroupVersion = new Map(table.map(([gv, group, version]) => [gv, { group, version }]));

/** The priorities of `group`/`version` named as Kubernetes names it ('' for core), or undefined. */
export function apiServicePriority(group: string, version: string): ApiServicePriority | undefined {
  return byGroupVersion.get(`${group}/${version}`);
}
