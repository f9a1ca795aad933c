// The API versions kube-apiserver no longer serves (SPEC's "API versions no longer served", plus
// 1.27's storage v1beta1 CSIStorageCapacity), as data: a request under one of them answers 404 as
// kube's does, with a message naming what replaced it. They never appear in discovery. Groups are
// written as declarations write them: `groupQualified` ones live under the API domain.

/** What a client should use instead: a kind at another group version, or a sentence. */
export type Replacement = { readonly group: string; readonly groupQualified?: boolean; readonly version: string; readonly kind: string } | { readonly note: string };

/** One kind of a group version that is no longer served. */
export interface RemovedKind {
  readonly group: string;
  readonly groupQualified?: boolean;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  /** The release that stopped serving it (`1.25`). */
  readonly removedIn: string;
  readonly replacement: Replacement;
}

type Row = readonly [group: string, qualified: boolean, version: string, removedIn: string, kinds: readonly (readonly [kind: string, plural: string])[], replacement: { readonly group?: string; readonly qualified?: boolean; readonly version: string } | { readonly note: string }];

// [group, qualified, version, release, [kind, plural][], replacement (same group and kind unless named)]
const rows: readonly Row[] = [
  ['flowcontrol.apiserver', true, 'v1beta1', '1.26', [['FlowSchema', 'flowschemas'], ['PriorityLevelConfiguration', 'prioritylevelconfigurations']], { version: 'v1beta3' }],
  ['autoscaling', false, 'v2beta2', '1.26', [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']], { version: 'v2' }],
  ['batch', false, 'v1beta1', '1.25', [['CronJob', 'cronjobs']], { version: 'v1' }],
  ['discovery', true, 'v1beta1', '1.25', [['EndpointSlice', 'endpointslices']], { version: 'v1' }],
  ['events', true, 'v1beta1', '1.25', [['Event', 'events']], { version: 'v1' }],
  ['autoscaling', false, 'v2beta1', '1.25', [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']], { version: 'v2' }],
  ['policy', false, 'v1beta1', '1.25', [['PodDisruptionBudget', 'poddisruptionbudgets']], { version: 'v1' }],
  ['policy', false, 'v1beta1', '1.25', [['PodSecurityPolicy', 'podsecuritypolicies']], { note: 'Pod Security admission or a validating webhook' }],
  ['node', true, 'v1beta1', '1.25', [['RuntimeClass', 'runtimeclasses']], { version: 'v1' }],
  ['admissionregistration', true, 'v1beta1', '1.22', [['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'], ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations']], { version: 'v1' }],
  ['apiextensions', true, 'v1beta1', '1.22', [['CustomResourceDefinition', 'customresourcedefinitions']], { version: 'v1' }],
  ['apiregistration', true, 'v1beta1', '1.22', [['APIService', 'apiservices']], { version: 'v1' }],
  ['authentication', true, 'v1beta1', '1.22', [['TokenReview', 'tokenreviews']], { version: 'v1' }],
  ['authorization', true, 'v1beta1', '1.22', [['SubjectAccessReview', 'subjectaccessreviews'], ['LocalSubjectAccessReview', 'localsubjectaccessreviews'], ['SelfSubjectAccessReview', 'selfsubjectaccessreviews'], ['SelfSubjectRulesReview', 'selfsubjectrulesreviews']], { version: 'v1' }],
  ['certificates', true, 'v1beta1', '1.22', [['CertificateSigningRequest', 'certificatesigningrequests']], { version: 'v1' }],
  ['coordination', true, 'v1beta1', '1.22', [['Lease', 'leases']], { version: 'v1' }],
  ['extensions', false, 'v1beta1', '1.22', [['Ingress', 'ingresses']], { group: 'networking', qualified: true, version: 'v1' }],
  ['networking', true, 'v1beta1', '1.22', [['Ingress', 'ingresses'], ['IngressClass', 'ingressclasses']], { version: 'v1' }],
  ['rbac.authorization', true, 'v1beta1', '1.22', [['ClusterRole', 'clusterroles'], ['ClusterRoleBinding', 'clusterrolebindings'], ['Role', 'roles'], ['RoleBinding', 'rolebindings']], { version: 'v1' }],
  ['scheduling', true, 'v1beta1', '1.22', [['PriorityClass', 'priorityclasses']], { version: 'v1' }],
  ['storage', true, 'v1beta1', '1.22', [['CSIDriver', 'csidrivers'], ['CSINode', 'csinodes'], ['StorageClass', 'storageclasses'], ['VolumeAttachment', 'volumeattachments']], { version: 'v1' }],
  ['storage', true, 'v1beta1', '1.27', [['CSIStorageCapacity', 'csistoragecapacities']], { version: 'v1' }],
  ['extensions', false, 'v1beta1', '1.16', [['NetworkPolicy', 'networkpolicies']], { group: 'networking', qualified: true, version: 'v1' }],
  ['extensions', false, 'v1beta1', '1.16', [['DaemonSet', 'daemonsets'], ['Deployment', 'deployments'], ['ReplicaSet', 'replicasets']], { group: 'apps', qualified: false, version: 'v1' }],
  ['apps', false, 'v1beta1', '1.16', [['Deployment', 'deployments'], ['StatefulSet', 'statefulsets'], ['ReplicaSet', 'replicasets']], { version: 'v1' }],
  ['apps', false, 'v1beta2', '1.16', [['DaemonSet', 'daemonsets'], ['Deployment', 'deployments'], ['StatefulSet', 'statefulsets'], ['ReplicaSet', 'replicasets']], { version: 'v1' }],
  ['extensions', false, 'v1beta1', '1.16', [['PodSecurityPolicy', 'podsecuritypolicies']], { note: 'policy/v1beta1 PodSecurityPolicy (itself removed in v1.25)' }],
];

/** Every kind no longer served, one entry per group version and kind. */
export const removedKinds: readonly RemovedKind[] = rows.flatMap(([group, qualified, version, removedIn, kinds, instead]) => kinds.map(([kind, plural]): RemovedKind => ({
  group, groupQualified: qualified, version, kind, plural, removedIn,
  replacement: 'note' in instead ? instead : { group: instead.group ?? group, groupQualified: instead.qualified ?? qualified, version: instead.version, kind },
})));

function served(group: string, qualified: boolean | undefined, apiDomain: string): string {
  return qualified === true ? `${group}.${apiDomain}` : group;
}

/** The kinds of the served group `group` at `version` that are no longer served, as that domain names the group (empty when none). */
export function removedKindsOf(apiDomain: string, group: string, version: string): RemovedKind[] {
  return removedKinds.filter((r) => r.version === version && served(r.group, r.groupQualified, apiDomain) === group);
}

/** The removed kind at `group/version/plural`, or undefined. */
export function removedKindAt(apiDomain: string, group: string, version: string, plural: string): RemovedKind | undefined {
  return removedKindsOf(apiDomain, group, version).find((r) => r.plural === plural);
}

/** `batch/v1beta1 CronJob was removed in v1.25, use batch/v1 CronJob`: what a client is told of a removed kind. */
export function removalText(removed: RemovedKind, apiDomain: string): string {
  const { replacement } = removed;
  const instead = 'note' in replacement ? replacement.note : `${served(replacement.group, replacement.groupQualified, apiDomain)}/${replacement.version} ${replacement.kind}`;
  return `${served(removed.group, removed.groupQualified, apiDomain)}/${removed.version} ${removed.kind} was removed in v${removed.removedIn}, use ${instead}`;
}
