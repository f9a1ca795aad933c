// OwnerReferencesPermissionEnforcement: owner references drive garbage collection, so setting
// them is a kind of deletion. Changing an object's ownerReferences needs the right to delete the
// object (a create is exempt: the creator could as well not have created it), and making a
// reference block its owner's deletion needs `update` on the owner's `finalizers` sub-resource.
// pods/status is exempt: its strategy keeps ownerReferences from changing.
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import type { Attributes, Decision } from '../../../authz/authorizer.ts';
import { changesOwnerReferences, newBlockingReferences } from './owner-references.ts';
import type { OwnerReference } from './owner-references.ts';

/** The plugin's name as kube-apiserver registers it. */
export const ownerReferencesPermissionEnforcementName = 'OwnerReferencesPermissionEnforcement';

/** A served resource an owner reference's apiVersion and kind map to. */
export interface OwnerResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

/**
 * Maps an apiVersion (`apps/v1`, `v1`) and kind to the served resource (kube's RESTMapper);
 * undefined when no served resource has that kind.
 */
export type ResourceFor = (apiVersion: string, kind: string) => OwnerResource | undefined;

/** kube prints a nil error as `<nil>` after the reason. */
function because(decision: Decision): string {
  return `${decision.reason}, ${decision.error === undefined ? '<nil>' : decision.error.message}`;
}

/** `group/version` or `version` split as schema.ParseGroupVersion splits it; undefined when malformed. */
function splitApiVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return undefined;
}

function ownerCheck(attributes: AdmissionAttributes, ref: OwnerReference, resourceFor: ResourceFor): Attributes {
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
  const kind = typeof ref.kind === 'string' ? ref.kind : '';
  const parsed = splitApiVersion(apiVersion);
  const mapped = parsed === undefined ? undefined : resourceFor(apiVersion, kind);
  if (parsed === undefined || mapped === undefined) {
    const why = parsed === undefined ? `unexpected GroupVersion string: ${apiVersion}` : `no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`;
    throw admissionForbidden(attributes, `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${apiVersion} Kind ${kind}: ${why}`);
  }
  return {
    user: attributes.userInfo,
    verb: 'update',
    resourceRequest: true,
    // An owner is in the dependent's namespace, or cluster-scoped.
    namespace: mapped.namespaced ? attributes.namespace : '',
    apiGroup: mapped.group,
    apiVersion: mapped.version,
    resource: mapped.resource,
    subresource: 'finalizers',
    name: typeof ref.name === 'string' ? ref.name : '',
    path: '',
  };
}

function plugin(deps: AdmissionDeps, resourceFor: ResourceFor): AdmissionPlugin {
  const validate = async (attributes: AdmissionAttributes): Promise<void> => {
    const { group, resource } = attributes.resource;
    if (group === '' && resource === 'pods' && attributes.subresource === 'status') return;
    if (!changesOwnerReferences(attributes.object, attributes.oldObject)) return;
    if (attributes.operation !== 'CREATE') {
      const decision = await deps.authorizer.authorize({
        user: attributes.userInfo,
        verb: 'delete',
        resourceRequest: true,
        namespace: attributes.namespace,
        apiGroup: group,
        apiVersion: attributes.resource.version,
        resource,
        subresource: attributes.subresource,
        name: attributes.name,
        path: '',
      });
      if (decision.decision !== 'allow') throw admissionForbidden(attributes, `cannot set an ownerRef on a resource you can't delete: ${because(decision)}`);
    }
    for (const ref of newBlockingReferences(attributes.object, attributes.oldObject)) {
      const decision = await deps.authorizer.authorize(ownerCheck(attributes, ref, resourceFor));
      if (decision.decision !== 'allow') {
        throw admissionForbidden(attributes, `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${because(decision)}`);
      }
    }
  };
  return { name: ownerReferencesPermissionEnforcementName, handles: (operation) => operation === 'CREATE' || operation === 'UPDATE', validate };
}

/**
 * Makes OwnerReferencesPermissionEnforcement. It takes no configuration, but needs the server's
 * kind-to-resource mapping, given as a third argument (AdmissionDeps has none): the replica
 * builds the plugin with `ownerReferencesPermissionEnforcementPlugin(deps, configuration,
 * resourceFor)`. Without it the factory throws, as kube refuses to start without a RESTMapper.
 */
export const ownerReferencesPermissionEnforcementPlugin = (deps: AdmissionDeps, _configuration: unknown, resourceFor?: ResourceFor): AdmissionPlugin => {
  if (resourceFor === undefined) throw new Error(`${ownerReferencesPermissionEnforcementName}: missing restMapper (pass resourceFor as the factory's third argument)`);
  return plugin(deps, resourceFor);
};

/** A PluginFactory with the mapping bound in, for registries that call factories with two arguments. */
export function ownerReferencesPermissionEnforcementFactory(resourceFor: ResourceFor): PluginFactory {
  return (deps, configuration) => ownerReferencesPermissionEnforcementPlugin(deps, configuration, resourceFor);
}
