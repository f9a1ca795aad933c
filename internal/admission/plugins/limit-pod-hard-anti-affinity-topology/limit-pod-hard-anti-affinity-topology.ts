// LimitPodHardAntiAffinityTopology: a required pod anti-affinity term may only spread pods per
// node (the hostname label). A wider topology (a zone, a region) would let one pod keep every
// other matching pod out of a whole zone, which this plugin exists to prevent.
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { StatusError } from '../../../registry/errors/status-error.ts';

/** The plugin's name as kube-apiserver registers it. */
export const limitPodHardAntiAffinityTopologyName = 'LimitPodHardAntiAffinityTopology';

/** The one topology key a required anti-affinity term may use. */
export const hostnameLabel = 'kubernetes.io/hostname';

type Json = Record<string, unknown>;

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json)[name] : undefined;
}

/** kube's apierrors.NewForbidden: names the pod by its own metadata.name (possibly empty). */
function forbidden(podName: string, reason: string): StatusError {
  const subject = podName === '' ? 'pods' : `pods ${JSON.stringify(podName)}`;
  return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${reason}`, { name: podName, group: '', kind: 'pods' });
}

async function validate(attributes: AdmissionAttributes): Promise<void> {
  const { group, resource } = attributes.resource;
  if (attributes.subresource !== '' || group !== '' || resource !== 'pods') return;
  const pod = attributes.object;
  if (pod === undefined) throw new StatusError(400, 'BadRequest', 'Resource was marked with kind Pod but was unable to be converted');
  const terms = field(field(field(pod['spec'], 'affinity'), 'podAntiAffinity'), 'requiredDuringSchedulingIgnoredDuringExecution');
  if (!Array.isArray(terms)) return;
  for (const term of terms) {
    const key = field(term, 'topologyKey');
    const topologyKey = typeof key === 'string' ? key : '';
    if (topologyKey === hostnameLabel) continue;
    const name = typeof pod.metadata.name === 'string' ? pod.metadata.name : '';
    throw forbidden(name, `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${topologyKey} but only key ${hostnameLabel} is allowed`);
  }
}

/** Makes LimitPodHardAntiAffinityTopology; takes no configuration. */
export const limitPodHardAntiAffinityTopologyPlugin: PluginFactory = () => {
  const plugin: AdmissionPlugin = {
    name: limitPodHardAntiAffinityTopologyName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate,
  };
  return plugin;
};
