// RuntimeClass (plugin/pkg/admission/runtimeclass): a new pod naming a RuntimeClass gets the
// class's pod overhead and scheduling constraints (mutating), and its overhead must be the
// class's (validating: a later mutating webhook may have changed it).
import type { KObject } from '../../../registry/schema/declaration.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { podSpec, setOverhead, setScheduling, validateOverhead } from './pod-runtime-class.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const runtimeClassPluginName = 'RuntimeClass';

function handlesRequest(attributes: AdmissionAttributes): boolean {
  const { group, resource } = attributes.resource;
  return attributes.subresource === '' && group === '' && resource === 'pods' && attributes.object !== undefined;
}

/**
 * The RuntimeClass the pod names (undefined when it names none): this replica's copy, else the
 * leader's (a class just created is not refused on a lagging replica, as kube's live lookup);
 * 403 when there is none.
 */
async function runtimeClassOf(attributes: AdmissionAttributes, deps: AdmissionDeps, pod: KObject): Promise<KObject | undefined> {
  const name = podSpec(pod, false).runtimeClassName;
  if (typeof name !== 'string') return undefined;
  const gr = { group: `node.${deps.apiDomain}`, resource: 'runtimeclasses' };
  const found = (await deps.objects.get(gr, undefined, name)) ?? (await deps.objects.get(gr, undefined, name, { consistent: true }));
  if (found === undefined) throw admissionForbidden(attributes, `pod rejected: RuntimeClass "${name}" not found`);
  return found;
}

/** Makes the RuntimeClass plugin (it takes no configuration). */
export const runtimeClassPlugin: PluginFactory = (deps) => {
  const plugin: AdmissionPlugin = {
    name: runtimeClassPluginName,
    handles: (operation) => operation === 'CREATE',
    async admit(attributes) {
      if (!handlesRequest(attributes) || attributes.object === undefined) return;
      const pod = attributes.object;
      const runtimeClass = await runtimeClassOf(attributes, deps, pod);
      const spec = podSpec(pod, true);
      setOverhead(attributes, spec, runtimeClass);
      setScheduling(attributes, spec, runtimeClass);
    },
    async validate(attributes) {
      if (!handlesRequest(attributes) || attributes.object === undefined) return;
      const pod = attributes.object;
      validateOverhead(attributes, podSpec(pod, false), await runtimeClassOf(attributes, deps, pod));
    },
  };
  return plugin;
};
