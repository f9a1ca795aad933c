// The ValidatingAdmissionPolicy admission plugin (kube 1.28's validatingadmissionpolicy plugin):
// a factory the catalogue registers by name, and the watches that keep its policies and bindings
// current. The plugin evaluates nothing until both kinds were read once (a request waits, then is
// refused as kube refuses it); with neither version of the kinds served (the feature gate or
// --runtime-config off), it has no policies and admits everything, as kube's disabled plugin does.
import { runWatchedLoop } from '../../controllers/watched-loop.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { ServedResource, ServedResources } from '../../registry/served-resource.ts';
import type { AdmissionAttributes } from '../attributes.ts';
import { admissionForbidden } from '../forbidden.ts';
import type { AdmissionPlugin, PluginFactory } from '../plugin.ts';
import type { EquivalentResources } from '../webhook/equivalents.ts';
import { authorizerVariable } from './authorizer-variable.ts';
import { policyResyncMs, policySyncWaitMs } from './limits.ts';
import { dispatchPolicies } from './policy-dispatcher.ts';
import { PolicySource } from './policy-source.ts';

/** The plugin's name in the flags and the chain. */
export const validatingAdmissionPolicyPluginName = 'ValidatingAdmissionPolicy';

/** What the plugin needs from the server. */
export interface PolicyPluginDeps {
  readonly registry: ServedResources;
  readonly stores: ReadonlyMap<ServedResource, GenericStore>;
  /** For matchPolicy Equivalent and the conversion of the object to the kind a policy matched. */
  readonly equivalents: EquivalentResources;
  readonly log: (message: string, err?: unknown) => void;
}

/** The plugin's factory and the watches that feed it. */
export interface PolicyPluginRegistration {
  readonly factory: PluginFactory;
  /** Lists and watches both kinds into the plugin until `signal` aborts (call it when the plugin is enabled). */
  run(signal: AbortSignal): Promise<void>;
}

/** Requests for the policy kinds themselves are never evaluated (kube's isPolicyResource), so a bad policy can always be removed. */
function isPolicyResource(attributes: AdmissionAttributes, apiDomain: string): boolean {
  const { group, resource } = attributes.resource;
  return group === `admissionregistration.${apiDomain}` && (resource === 'validatingadmissionpolicies' || resource === 'validatingadmissionpolicybindings');
}

/** The store of `plural` at v1beta1, else v1alpha1 (the same objects), or undefined when neither is served. */
function storeOf(deps: PolicyPluginDeps, plural: string): GenericStore | undefined {
  const group = `admissionregistration.${deps.registry.apiDomain}`;
  for (const version of ['v1beta1', 'v1alpha1']) {
    const served = deps.registry.find(group, version, plural);
    const store = served && deps.stores.get(served);
    if (store !== undefined) return store;
  }
  return undefined;
}

function feed(store: GenericStore, replace: (objects: Parameters<PolicySource['replacePolicies']>[0]) => void, what: string, signal: AbortSignal, log: PolicyPluginDeps['log']): Promise<void> {
  return runWatchedLoop({
    watched: [{ store }],
    pass: async () => {
      replace((await store.list(undefined, { resourceVersion: '0' })).items);
    },
    resyncMs: policyResyncMs,
    batchMs: 0,
    failureMessage: `admission: reading the ${what} failed`,
    log,
  }, signal);
}

/** The ValidatingAdmissionPolicy plugin over the server's stores. */
export function validatingAdmissionPolicyPlugin(deps: PolicyPluginDeps): PolicyPluginRegistration {
  const source = new PolicySource();
  const factory: PluginFactory = (admission): AdmissionPlugin => {
    const dispatchDeps = {
      objects: admission.objects, equivalents: deps.equivalents, registry: deps.registry,
      authorizerFor: (attributes: AdmissionAttributes) => authorizerVariable(admission.authorizer, attributes),
    };
    return {
      name: validatingAdmissionPolicyPluginName,
      handles: () => true,
      async validate(attributes) {
        if (isPolicyResource(attributes, admission.apiDomain)) return;
        if (!source.hasSynced() && !(await source.waitSynced(policySyncWaitMs))) throw admissionForbidden(attributes, 'not yet ready to handle request');
        await dispatchPolicies(source.snapshot(), attributes, dispatchDeps);
      },
    };
  };
  return {
    factory,
    async run(signal) {
      const policies = storeOf(deps, 'validatingadmissionpolicies');
      const bindings = storeOf(deps, 'validatingadmissionpolicybindings');
      if (policies === undefined || bindings === undefined) {
        source.replacePolicies([]);
        source.replaceBindings([]);
        return;
      }
      await Promise.all([
        feed(policies, (objects) => source.replacePolicies(objects), 'ValidatingAdmissionPolicies', signal, deps.log),
        feed(bindings, (objects) => source.replaceBindings(objects), 'ValidatingAdmissionPolicyBindings', signal, deps.log),
      ]);
    },
  };
}
