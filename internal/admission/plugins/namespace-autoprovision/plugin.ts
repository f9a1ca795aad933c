// NamespaceAutoProvision (plugin/pkg/admission/namespace/autoprovision): a create into a missing
// namespace first creates the namespace, with the server's own authority. Mutating, as kube's:
// the namespace must exist before the validating phase's NamespaceLifecycle/NamespaceExists run.
import { hasStatus } from '../../../registry/errors/status-error.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { isNamespaceKind, namespacesResource, readNamespace } from '../namespace-lifecycle/namespace-lookup.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const namespaceAutoProvisionPluginName = 'NamespaceAutoProvision';

/** Makes the NamespaceAutoProvision plugin (it takes no configuration). */
export const namespaceAutoProvisionPlugin: PluginFactory = (deps) => {
  const plugin: AdmissionPlugin = {
    name: namespaceAutoProvisionPluginName,
    handles: (operation) => operation === 'CREATE',
    async admit(attributes) {
      // A dry run must not leave a namespace behind.
      if (attributes.dryRun) return;
      if (attributes.namespace === '' || isNamespaceKind(attributes.kind)) return;
      let existing: KObject | undefined;
      try {
        existing = await readNamespace(deps.objects, attributes.namespace, false);
      } catch (err) {
        throw admissionForbidden(attributes, err instanceof Error ? err.message : String(err));
      }
      if (existing !== undefined) return;
      const namespace: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: attributes.namespace } };
      try {
        await deps.writer.create(namespacesResource, undefined, namespace);
      } catch (err) {
        // Another request (or replica) created it first: that is what was wanted.
        if (hasStatus(err, 409) && err.reason === 'AlreadyExists') return;
        throw admissionForbidden(attributes, err instanceof Error ? err.message : String(err));
      }
    },
  };
  return plugin;
};
