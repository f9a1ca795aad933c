// Which admission plugins run, and in what order, from kube-apiserver 1.28's flags
// (pkg/kubeapiserver/options/admission.go and plugins.go): the order is kube's fixed one whatever
// order the flags list names in; the enabled set is the default set plus
// --enable-admission-plugins minus --disable-admission-plugins, or exactly the deprecated
// --admission-control list.

/** Every plugin in the order kube-apiserver runs them (its AllOrderedPlugins). */
export const orderedPluginNames: readonly string[] = [
  'AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceLifecycle', 'NamespaceExists', 'SecurityContextDeny', 'LimitPodHardAntiAffinityTopology',
  'LimitRanger', 'ServiceAccount', 'NodeRestriction', 'TaintNodesByCondition', 'AlwaysPullImages', 'ImagePolicyWebhook', 'PodSecurity',
  'PodNodeSelector', 'Priority', 'DefaultTolerationSeconds', 'PodTolerationRestriction', 'EventRateLimit', 'ExtendedResourceToleration',
  'PersistentVolumeLabel', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction', 'DefaultIngressClass', 'DenyServiceExternalIPs',
  // Webhooks, quota and the deny-all plugin come last.
  'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny',
];

/** The plugins on unless disabled (kube's DefaultOffAdmissionPlugins is everything else). */
export const defaultOnPluginNames: ReadonlySet<string> = new Set([
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority', 'DefaultTolerationSeconds',
  'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval',
  'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota',
]);

/** The admission flags as given (each a comma-separated list; undefined when absent). */
export interface PluginSelectionFlags {
  readonly enable?: readonly string[];
  readonly disable?: readonly string[];
  /** The deprecated --admission-control: exactly these plugins. */
  readonly exact?: readonly string[];
}

/** A flag naming what kube-apiserver would refuse to start with; the message names the flag. */
export class PluginSelectionError extends Error {}

function checkKnown(flag: string, names: readonly string[]): void {
  const known = new Set(orderedPluginNames);
  for (const name of names) if (!known.has(name)) throw new PluginSelectionError(`${flag} plugin "${name}" is unknown`);
}

/** The enabled plugins' names in kube's order. */
export function selectPlugins(flags: PluginSelectionFlags): string[] {
  const enable = flags.enable ?? [];
  const disable = flags.disable ?? [];
  checkKnown('enable-admission-plugins', enable);
  checkKnown('disable-admission-plugins', disable);
  for (const name of enable) {
    if (disable.includes(name)) throw new PluginSelectionError(`${name} in enable-admission-plugins and disable-admission-plugins overlapped`);
  }
  if (flags.exact !== undefined) {
    checkKnown('admission-control', flags.exact);
    if (enable.length > 0 || disable.length > 0) throw new PluginSelectionError('admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive');
    return orderedPluginNames.filter((name) => flags.exact?.includes(name));
  }
  return orderedPluginNames.filter((name) => (defaultOnPluginNames.has(name) || enable.includes(name)) && !disable.includes(name));
}

/** A comma-separated flag value as names (empty entries dropped, spaces trimmed). */
export function pluginList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}
