// SecurityContextDeny (deprecated upstream in favour of PodSecurity): refuses pods that choose
// their own identity or SELinux context: pod-level supplementalGroups, seLinuxOptions, runAsUser
// and fsGroup, and container-level seLinuxOptions and runAsUser (init containers first).
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { StatusError } from '../../../registry/errors/status-error.ts';

/** The plugin's name as kube-apiserver registers it. */
export const securityContextDenyName = 'SecurityContextDeny';

type Json = Record<string, unknown>;

const podFields = ['SupplementalGroups', 'SELinuxOptions', 'RunAsUser', 'FSGroup'] as const;
const containerFields = ['SELinuxOptions', 'RunAsUser'] as const;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** The JSON name of a Go field name (`SELinuxOptions` -> `seLinuxOptions`, `FSGroup` -> `fsGroup`). */
function jsonName(goName: string): string {
  const special: Record<string, string> = { SELinuxOptions: 'seLinuxOptions', FSGroup: 'fsGroup' };
  return special[goName] ?? goName.charAt(0).toLowerCase() + goName.slice(1);
}

/** Whether a field is set (a Go pointer or slice that is not nil: JSON null counts as unset). */
function isSet(context: Json, goName: string): boolean {
  const value = context[jsonName(goName)];
  return value !== undefined && value !== null;
}

/** The first forbidden field, as kube's message names it; undefined when the pod is acceptable. */
function firstForbiddenField(spec: Json): string | undefined {
  const podContext = record(spec['securityContext']);
  if (podContext !== undefined) {
    const hit = podFields.find((name) => isSet(podContext, name));
    if (hit !== undefined) return `pod.Spec.SecurityContext.${hit}`;
  }
  for (const list of ['initContainers', 'containers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) {
      const context = record(record(container)?.['securityContext']);
      const hit = context === undefined ? undefined : containerFields.find((name) => isSet(context, name));
      if (hit !== undefined) return `SecurityContext.${hit}`;
    }
  }
  return undefined;
}

async function validate(attributes: AdmissionAttributes): Promise<void> {
  const { group, resource } = attributes.resource;
  if (attributes.subresource !== '' || group !== '' || resource !== 'pods') return;
  const pod = attributes.object;
  if (pod === undefined) throw new StatusError(400, 'BadRequest', 'Resource was marked with kind Pod but was unable to be converted');
  const hit = firstForbiddenField(record(pod['spec']) ?? {});
  if (hit === undefined) return;
  // kube names the pod by its own metadata.name here (apierrors.NewForbidden), not the request's.
  const name = typeof pod.metadata.name === 'string' ? pod.metadata.name : '';
  const subject = name === '' ? 'pods' : `pods ${JSON.stringify(name)}`;
  throw new StatusError(403, 'Forbidden', `${subject} is forbidden: ${hit} is forbidden`, { name, group: '', kind: 'pods' });
}

/** Makes SecurityContextDeny; takes no configuration. */
export const securityContextDenyPlugin: PluginFactory = (deps) => {
  deps.log(`${securityContextDenyName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`);
  const plugin: AdmissionPlugin = {
    name: securityContextDenyName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate,
  };
  return plugin;
};
