// NamespaceLifecycle (k8s.io/apiserver's plugin/namespace/lifecycle): no new objects in a
// terminating namespace, no requests into a missing one, and the system namespaces cannot be
// deleted. It only refuses, yet runs in the mutating phase as kube-apiserver's does: first of all
// plugins, so that no mutating webhook is called for a request into a missing or terminating
// namespace.
import { notFound, StatusError } from '../../../registry/errors/status-error.ts';
import { refusesNewContent } from '../../../registry/core/namespace-deletion.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { ForceLiveLookupCache } from './force-live-lookup-cache.ts';
import { isNamespaceKind, namespacesResource, readNamespace } from './namespace-lookup.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const namespaceLifecyclePluginName = 'NamespaceLifecycle';

/** Namespaces that may never be deleted: kube's three and orch's own two. */
export const immortalNamespaces: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public', 'orch-system', 'orch-public']);

/**
 * Namespaced resources anyone may create whatever the namespace's state: answering "no such
 * namespace" to an access review would tell a caller which namespaces exist. The cluster-scoped
 * reviews (subjectaccessreviews, tokenreviews, ...) never reach the namespace checks.
 */
function isAccessReview(attributes: AdmissionAttributes, apiDomain: string): boolean {
  return attributes.resource.group === `authorization.${apiDomain}` && attributes.resource.resource === 'localsubjectaccessreviews';
}

/** kube's refusal of a create in a terminating namespace, with the NamespaceTerminating cause clients look for. */
function terminatingRefusal(attributes: AdmissionAttributes): StatusError {
  const namespace = attributes.namespace;
  const base = admissionForbidden(attributes, `unable to create new content in namespace ${namespace} because it is being terminated`);
  const cause = { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' };
  return new StatusError(base.code, base.reason, base.message, { ...base.details, causes: [cause] });
}

/**
 * The request's namespace, or a 404: this replica's copy when it is there and active and no
 * recent DELETE makes it suspect; otherwise a linearizable read decides.
 */
async function namespaceOf(deps: AdmissionDeps, recentlyDeleted: ForceLiveLookupCache, name: string): Promise<KObject> {
  const local = await readNamespace(deps.objects, name, false);
  const suspect = local === undefined || refusesNewContent(local) || recentlyDeleted.has(name);
  if (!suspect) return local;
  const live = await readNamespace(deps.objects, name, true);
  if (live === undefined) throw notFound(namespacesResource, name);
  return live;
}

/** Makes the NamespaceLifecycle plugin (it takes no configuration). */
export const namespaceLifecyclePlugin: PluginFactory = (deps) => {
  const recentlyDeleted = new ForceLiveLookupCache(deps.clock);
  const plugin: AdmissionPlugin = {
    name: namespaceLifecyclePluginName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE',
    async admit(attributes) {
      const namespaceKind = isNamespaceKind(attributes.kind);
      if (attributes.operation === 'DELETE' && namespaceKind && immortalNamespaces.has(attributes.name)) {
        throw admissionForbidden(attributes, 'this namespace may not be deleted');
      }
      if (namespaceKind) {
        // Creates into a namespace being deleted must not trust this replica's copy for a while.
        if (attributes.operation === 'DELETE') recentlyDeleted.add(attributes.name);
        return;
      }
      if (attributes.namespace === '' || attributes.operation === 'DELETE') return;
      if (isAccessReview(attributes, deps.apiDomain)) return;
      const namespace = await namespaceOf(deps, recentlyDeleted, attributes.namespace);
      if (attributes.operation === 'CREATE' && refusesNewContent(namespace)) throw terminatingRefusal(attributes);
    },
  };
  return plugin;
};
