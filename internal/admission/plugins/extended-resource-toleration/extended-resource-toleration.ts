// ExtendedResourceToleration: nodes offering an extended resource (a GPU, say) are tainted with
// the resource's name, so only pods that ask for it land there. A pod that requests such a
// resource gets the matching `<resource>` Exists NoSchedule toleration added for it.
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { StatusError } from '../../../registry/errors/status-error.ts';
import { isExtendedResourceName } from './extended-resource-name.ts';
import { addOrUpdateToleration } from './toleration-update.ts';
import type { Toleration } from './toleration-update.ts';

/** The plugin's name as kube-apiserver registers it. */
export const extendedResourceTolerationName = 'ExtendedResourceToleration';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The extended resources requested by the pod's containers and init containers, sorted. */
function requestedExtendedResources(spec: Json): string[] {
  const names = new Set<string>();
  for (const list of ['containers', 'initContainers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) {
      const requests = isRecord(container) && isRecord(container['resources']) ? container['resources']['requests'] : undefined;
      if (!isRecord(requests)) continue;
      for (const name of Object.keys(requests)) if (isExtendedResourceName(name)) names.add(name);
    }
  }
  return [...names].sort();
}

async function admit(attributes: AdmissionAttributes): Promise<void> {
  const { group, resource } = attributes.resource;
  if (attributes.subresource !== '' || group !== '' || resource !== 'pods') return;
  const pod = attributes.object;
  if (pod === undefined) throw new StatusError(400, 'BadRequest', 'expected *core.Pod but got <nil>');
  if (!isRecord(pod['spec'])) pod['spec'] = {};
  const spec = pod['spec'] as Json;
  for (const name of requestedExtendedResources(spec)) {
    const toleration: Toleration = { key: name, operator: 'Exists', effect: 'NoSchedule' };
    addOrUpdateToleration(spec, toleration);
  }
}

/** Makes ExtendedResourceToleration; takes no configuration. */
export const extendedResourceTolerationPlugin: PluginFactory = () => {
  const plugin: AdmissionPlugin = {
    name: extendedResourceTolerationName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    admit,
  };
  return plugin;
};
