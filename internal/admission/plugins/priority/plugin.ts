// Priority (plugin/pkg/admission/priority): resolves pods' priorities from PriorityClasses
// (mutating) and keeps a single global default class (validating).
import { internalError } from '../../../registry/errors/status-error.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { admitNewPod, keepPriorityOnUpdate } from './pod-priority.ts';
import { findDefaultPriorityClass } from './priority-classes.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const priorityPluginName = 'Priority';

/**
 * A class marked globalDefault while another is already the default is refused (an update of the
 * default itself passes). The classes are listed at the leader: two replicas must not each accept
 * a second default because neither has seen the other's yet.
 */
async function validateGlobalDefault(attributes: AdmissionAttributes, deps: AdmissionDeps): Promise<void> {
  if (attributes.object?.globalDefault !== true) return;
  let current;
  try {
    current = await findDefaultPriorityClass(deps.objects, deps.apiDomain, true);
  } catch (err) {
    throw internalError(`failed to get default priority class: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (current === undefined) return;
  const currentName = current.metadata.name ?? '';
  if (attributes.operation === 'CREATE' || currentName !== attributes.object.metadata.name) {
    throw admissionForbidden(attributes, `PriorityClass ${currentName} is already marked as default. Only one default can exist`);
  }
}

/** Makes the Priority plugin (it takes no configuration). */
export const priorityPlugin: PluginFactory = (deps) => {
  const plugin: AdmissionPlugin = {
    name: priorityPluginName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE',
    async admit(attributes) {
      const { group, resource } = attributes.resource;
      if (attributes.subresource !== '' || group !== '' || resource !== 'pods') return;
      if (attributes.operation === 'UPDATE') keepPriorityOnUpdate(attributes);
      else if (attributes.operation === 'CREATE') await admitNewPod(attributes, deps.objects, deps.apiDomain);
    },
    async validate(attributes) {
      const { group, resource } = attributes.resource;
      if (attributes.subresource !== '' || group !== `scheduling.${deps.apiDomain}` || resource !== 'priorityclasses') return;
      if (attributes.operation === 'CREATE' || attributes.operation === 'UPDATE') await validateGlobalDefault(attributes, deps);
    },
  };
  return plugin;
};
