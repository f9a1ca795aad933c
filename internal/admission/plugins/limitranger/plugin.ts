// The LimitRanger admission plugin (plugin/pkg/admission/limitranger at 1.28): in the mutating
// phase it fills pods' container defaults from the namespace's LimitRanges; in the validating phase
// it refuses pods and claims outside their bounds, with the first failing LimitRange's errors.
// Pod updates are skipped: containers cannot change after create, so there is nothing to check.
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { limitItems, type LimitItem } from './limit-items.ts';
import { applyContainerDefaults } from './pod-defaults.ts';
import { aggregateMessage, validateClaim, validatePod } from './validate-limits.ts';

/** The plugin's registered name. */
export const limitRangerPluginName = 'LimitRanger';

/** Which requests LimitRanger looks at (SupportsAttributes). */
function supports(a: AdmissionAttributes): boolean {
  if (a.subresource !== '' || a.kind.group !== '' || a.object === undefined) return false;
  if (a.kind.kind === 'Pod') return a.operation === 'CREATE';
  return a.kind.kind === 'PersistentVolumeClaim';
}

/** Whether the stored object is being deleted (kube leaves those alone). */
function terminating(a: AdmissionAttributes): boolean {
  return typeof a.oldObject?.metadata.deletionTimestamp === 'string';
}

/** The namespace's LimitRanges' items, one list per LimitRange. */
async function limitRanges(deps: AdmissionDeps, a: AdmissionAttributes): Promise<LimitItem[][]> {
  try {
    const ranges = await deps.objects.list({ group: '', resource: 'limitranges' }, a.namespace);
    return ranges.map(limitItems);
  } catch (err) {
    deps.log('LimitRanger: listing limit ranges failed', err);
    const { group, version, resource } = a.resource;
    throw admissionForbidden(a, `unable to ${a.operation} ${group}/${version}, Resource=${resource} at this time because there was an error enforcing limit ranges`);
  }
}

function validateOne(items: readonly LimitItem[], object: KObject, resource: string): string[] {
  if (resource === 'pods') return validatePod(items, object);
  if (resource === 'persistentvolumeclaims') return validateClaim(items, object);
  return [];
}

/** Makes the LimitRanger plugin; it takes no configuration. */
export const limitRangerPlugin: PluginFactory = (deps) => {
  const plugin: AdmissionPlugin = {
    name: limitRangerPluginName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async admit(a) {
      if (!supports(a) || terminating(a) || a.resource.resource !== 'pods' || a.object === undefined) return;
      for (const items of await limitRanges(deps, a)) applyContainerDefaults(a.object, items);
    },
    async validate(a) {
      if (!supports(a) || terminating(a) || a.object === undefined) return;
      for (const items of await limitRanges(deps, a)) {
        const errors = validateOne(items, a.object, a.resource.resource);
        if (errors.length > 0) throw admissionForbidden(a, aggregateMessage(errors));
      }
    },
  };
  return plugin;
};
