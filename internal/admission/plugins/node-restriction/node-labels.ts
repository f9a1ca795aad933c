// Which Node labels a node may set on itself. Labels in the kubernetes.io and k8s.io namespaces
// steer workloads (zone, instance type, node role), so a node may set only those the kubelet
// itself reports (kubeletapis.IsKubeletLabel: hostname, os, arch, instance type, zone and region,
// and anything under kubelet.kubernetes.io/ or node.kubernetes.io/), and never labels under
// node-restriction.kubernetes.io/, which exist for administrators to pin workloads with.

const kubeletLabels = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);

const kubeletLabelNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const nodeRestrictionNamespace = 'node-restriction.kubernetes.io';

/** The prefix of a label key (before `/`), '' when it has none. */
function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function inNamespace(namespace: string, domain: string): boolean {
  return namespace === domain || namespace.endsWith(`.${domain}`);
}

function isKubernetesLabel(key: string): boolean {
  const namespace = labelNamespace(key);
  return inNamespace(namespace, 'kubernetes.io') || inNamespace(namespace, 'k8s.io');
}

function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true;
  const namespace = labelNamespace(key);
  return kubeletLabelNamespaces.some((allowed) => inNamespace(namespace, allowed));
}

/** The keys added, removed or changed between two label maps. */
export function modifiedLabels(next: Readonly<Record<string, string>>, previous: Readonly<Record<string, string>>): Set<string> {
  const keys = new Set([...Object.keys(next), ...Object.keys(previous)]);
  return new Set([...keys].filter((k) => !Object.hasOwn(next, k) || !Object.hasOwn(previous, k) || next[k] !== previous[k]));
}

/** Of `modified`, the keys a node may not touch, sorted (kube lists them sorted). */
export function forbiddenLabels(modified: ReadonlySet<string>): string[] {
  return [...modified].filter((key) => inNamespace(labelNamespace(key), nodeRestrictionNamespace) || (isKubernetesLabel(key) && !isKubeletLabel(key))).sort();
}
