// Which controllers a replica runs, as kube-controller-manager 1.28's `--controllers` decides:
// `*` turns on every controller that is on by default, `foo` turns on foo, `-foo` turns it off;
// the first entry naming a controller wins, and without `*` only the named ones run. Controllers
// that belong to kube-apiserver itself (service IP repair, the CRD controllers) are not selectable.

/**
 * Every controller name kube-controller-manager 1.28 accepts. orch runs a subset; naming one it
 * does not run is accepted (and changes nothing), as a flag file written for kube keeps working.
 */
export const knownControllerNames: readonly string[] = [
  'attachdetach', 'bootstrapsigner', 'cloud-node-lifecycle', 'clusterrole-aggregation', 'cronjob', 'csrapproving', 'csrcleaner', 'csrsigning',
  'daemonset', 'deployment', 'disruption', 'endpoint', 'endpointslice', 'endpointslicemirroring', 'ephemeral-volume', 'garbagecollector',
  'horizontalpodautoscaling', 'job', 'legacy-service-account-token-cleaner', 'namespace', 'nodeipam', 'nodelifecycle', 'persistentvolume-binder',
  'persistentvolume-expander', 'podgc', 'pv-protection', 'pvc-protection', 'replicaset', 'replicationcontroller', 'resource-claim-controller',
  'resourcequota', 'root-ca-cert-publisher', 'route', 'service', 'serviceaccount', 'serviceaccount-token', 'statefulset', 'storage-version-gc',
  'tokencleaner', 'ttl', 'ttl-after-finished', 'validatingadmissionpolicy-status-controller',
];

/** The controllers that `*` leaves off: they act on bootstrap tokens, which a cluster may not use. */
export const controllersOffByDefault: ReadonlySet<string> = new Set(['bootstrapsigner', 'tokencleaner']);

/** The parsed `--controllers` list. */
export interface ControllerSelection {
  /** Whether the controller kube names `name` runs. */
  enabled(name: string): boolean;
}

/** kube's default, `--controllers=*`. */
export const defaultControllerSelection: ControllerSelection = selectionOf(['*']);

function selectionOf(entries: readonly string[]): ControllerSelection {
  return {
    enabled(name) {
      for (const entry of entries) {
        if (entry === name) return true;
        if (entry === `-${name}`) return false;
      }
      return entries.includes('*') && !controllersOffByDefault.has(name);
    },
  };
}

/**
 * Parses the comma-separated `--controllers` value. Throws an Error naming an entry that is not a
 * known controller, as kube-controller-manager refuses to start on one.
 */
export function parseControllerSelection(text: string): ControllerSelection {
  const entries = text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const known = new Set(knownControllerNames);
  for (const entry of entries) {
    if (entry === '*') continue;
    const name = entry.startsWith('-') ? entry.slice(1) : entry;
    if (!known.has(name)) throw new Error(`${JSON.stringify(name)} is not in the list of known controllers`);
  }
  return selectionOf(entries);
}
