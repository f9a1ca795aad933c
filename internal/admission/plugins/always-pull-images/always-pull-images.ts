// AlwaysPullImages: every container of a new pod, or of an updated pod that brings a new image,
// pulls its image each start (imagePullPolicy Always), so a node's image cache never lets a pod
// run an image its owner could not pull. The mutating phase sets the policy; the validating phase
// refuses a pod a later mutation left otherwise.
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { StatusError } from '../../../registry/errors/status-error.ts';
import { podContainers, podSpec } from './pod-containers.ts';

/** The plugin's name as kube-apiserver registers it. */
export const alwaysPullImagesName = 'AlwaysPullImages';

const pullAlways = 'Always';

/** Whether an update leaves the pod with only images it already had (kube then skips the pod). */
function updateWithNoNewImages(attributes: AdmissionAttributes): boolean {
  if (attributes.operation !== 'UPDATE' || attributes.oldObject === undefined || attributes.object === undefined) return false;
  const oldImages = new Set(podContainers(podSpec(attributes.oldObject)).map(({ container }) => container['image']));
  return podContainers(podSpec(attributes.object)).every(({ container }) => oldImages.has(container['image']));
}

function ignored(attributes: AdmissionAttributes): boolean {
  const { group, resource } = attributes.resource;
  if (attributes.subresource !== '' || group !== '' || resource !== 'pods') return true;
  return updateWithNoNewImages(attributes);
}

function podOf(attributes: AdmissionAttributes): Record<string, unknown> {
  const pod = attributes.object;
  if (pod === undefined || (attributes.kind.kind !== 'Pod' && attributes.kind.kind !== '')) {
    throw new StatusError(400, 'BadRequest', 'Resource was marked with kind Pod but was unable to be converted');
  }
  return pod;
}

async function admit(attributes: AdmissionAttributes): Promise<void> {
  if (ignored(attributes)) return;
  for (const { container } of podContainers(podSpec(podOf(attributes)))) container['imagePullPolicy'] = pullAlways;
}

async function validate(attributes: AdmissionAttributes): Promise<void> {
  if (ignored(attributes)) return;
  const refusals = podContainers(podSpec(podOf(attributes)))
    .filter(({ container }) => container['imagePullPolicy'] !== pullAlways)
    .map(({ container, path }) => {
      const policy = typeof container['imagePullPolicy'] === 'string' ? container['imagePullPolicy'] : '';
      return admissionForbidden(attributes, `${path}.imagePullPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "${pullAlways}"`);
    });
  const [first] = refusals;
  if (first === undefined) return;
  // kube aggregates one refusal per container; one refusal is passed on as it is.
  if (refusals.length === 1) throw first;
  throw new StatusError(403, 'Forbidden', `[${refusals.map((r) => r.message).join(', ')}]`, first.details);
}

/** Makes AlwaysPullImages; takes no configuration. */
export const alwaysPullImagesPlugin: PluginFactory = () => {
  const plugin: AdmissionPlugin = {
    name: alwaysPullImagesName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    admit,
    validate,
  };
  return plugin;
};
