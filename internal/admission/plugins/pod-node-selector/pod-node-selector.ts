// PodNodeSelector: a namespace's node selector (annotation, else the cluster default) is merged
// into each new pod's spec.nodeSelector; a pod whose own selector contradicts it is refused, and
// so is a pod whose selector strays outside its namespace's whitelist from the configuration.
// Only creates are handled: a pod's node selector cannot change afterwards.
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { StatusError } from '../../../registry/errors/status-error.ts';
import { parsePodNodeSelectorConfig } from './config.ts';
import type { PodNodeSelectorConfig } from './config.ts';
import { conflicts, isSubset, merge } from './label-set.ts';
import type { LabelSet } from './label-set.ts';
import { namespaceNodeSelector } from './namespace-node-selector.ts';

/** The plugin's name as kube-apiserver registers it. */
export const podNodeSelectorName = 'PodNodeSelector';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ignored(attributes: AdmissionAttributes): boolean {
  const { group, resource } = attributes.resource;
  return group !== '' || resource !== 'pods' || attributes.subresource !== '' || attributes.object === undefined;
}

/** kube's apierrors.NewForbidden naming the pod by its own metadata.name. */
function forbidden(pod: Json & { metadata: { name?: string } }, reason: string): StatusError {
  const name = typeof pod.metadata.name === 'string' ? pod.metadata.name : '';
  const subject = name === '' ? 'pods' : `pods ${JSON.stringify(name)}`;
  return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${reason}`, { name, group: '', kind: 'pods' });
}

function podSelector(spec: Json): LabelSet {
  const selector = spec['nodeSelector'];
  if (!isRecord(selector)) return {};
  return Object.fromEntries(Object.entries(selector).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

const conflictReason = 'pod node label selector conflicts with its namespace node label selector';

function plugin(deps: AdmissionDeps, config: PodNodeSelectorConfig): AdmissionPlugin {
  const validate = async (attributes: AdmissionAttributes): Promise<void> => {
    if (ignored(attributes)) return;
    const pod = attributes.object!;
    const spec = isRecord(pod['spec']) ? pod['spec'] : {};
    const required = await namespaceNodeSelector(deps, attributes.namespace, config.clusterDefault);
    if (conflicts(required, podSelector(spec))) throw forbidden(pod, conflictReason);
    const whitelist = config.whitelists.get(attributes.namespace) ?? {};
    if (!isSubset(podSelector(spec), whitelist)) throw forbidden(pod, 'pod node label selector labels conflict with its namespace whitelist');
  };
  const admit = async (attributes: AdmissionAttributes): Promise<void> => {
    if (ignored(attributes)) return;
    const pod = attributes.object!;
    if (!isRecord(pod['spec'])) pod['spec'] = {};
    const spec = pod['spec'] as Json;
    const required = await namespaceNodeSelector(deps, attributes.namespace, config.clusterDefault);
    if (conflicts(required, podSelector(spec))) throw forbidden(pod, conflictReason);
    const merged = merge(required, podSelector(spec));
    if (Object.keys(merged).length > 0 || spec['nodeSelector'] !== undefined) spec['nodeSelector'] = merged;
    // kube's Admit ends by running Validate, so the whitelist is checked in the mutating phase too.
    await validate(attributes);
  };
  return { name: podNodeSelectorName, handles: (operation) => operation === 'CREATE', admit, validate };
}

/**
 * Makes PodNodeSelector. Configuration: `{podNodeSelectorPluginConfig: {clusterDefaultNodeSelector:
 * 'k=v', <namespace>: 'k=v,...'}}` (kube's file format), or none. Throws on a malformed one.
 */
export const podNodeSelectorPlugin: PluginFactory = (deps, configuration) => plugin(deps, parsePodNodeSelectorConfig(configuration));
