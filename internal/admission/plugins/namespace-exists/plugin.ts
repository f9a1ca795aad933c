// NamespaceExists (plugin/pkg/admission/namespace/exists): a namespaced request into a namespace
// that does not exist is refused with the namespace's 404. This replica's state is read first; a
// miss is confirmed by a linearizable read so a lagging replica never refuses wrongly.
import { notFound } from '../../../registry/errors/status-error.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { isNamespaceKind, namespacesResource, readNamespace } from '../namespace-lifecycle/namespace-lookup.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const namespaceExistsPluginName = 'NamespaceExists';

/** Makes the NamespaceExists plugin (it takes no configuration). */
export const namespaceExistsPlugin: PluginFactory = (deps) => {
  const plugin: AdmissionPlugin = {
    name: namespaceExistsPluginName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE',
    async validate(attributes) {
      if (attributes.namespace === '' || isNamespaceKind(attributes.kind)) return;
      if ((await readNamespace(deps.objects, attributes.namespace, false)) !== undefined) return;
      if ((await readNamespace(deps.objects, attributes.namespace, true)) !== undefined) return;
      throw notFound(namespacesResource, attributes.namespace);
    },
  };
  return plugin;
};
