// The cluster-scoped objects kube-apiserver keeps at every start, made here beside the bootstrap
// namespaces and the `kubernetes` Service: the API Priority and Fairness configuration and the
// APIServices of the local group versions. Retried (bounded) while the store is not ready; every
// replica runs it, and the writes are idempotent.
import type { GenericStore } from '../registry/generic/store.ts';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import { ensureFlowControlConfiguration } from '../registry/flowcontrol/ensure-configuration.ts';
import { ensureLocalApiServices, type LocalGroupVersion } from '../registry/apiregistration/ensure-local-apiservices.ts';
import { bootstrapAttemptsMax, bootstrapRetryMs } from './limits.ts';

/** The served groups as Kubernetes names them: `<base>.<apiDomain>` becomes `<base>.k8s.io`. */
function localGroupVersions(registry: ResourceRegistry): LocalGroupVersion[] {
  const suffix = `.${registry.apiDomain}`;
  return [...registry.groups()].flatMap(([group, versions]) => {
    const kubeName = group.endsWith(suffix) ? `${group.slice(0, -suffix.length)}.k8s.io` : group;
    return versions.map((version) => ({ group: kubeName, version }));
  });
}

/**
 * Makes the default FlowSchemas, PriorityLevelConfigurations and local APIServices, retrying
 * (bounded) on errors; stops early when `stopped()` says the server is closing. Errors are logged.
 */
export async function bootstrapDefaultObjects(stores: ReadonlyMap<ServedResource, GenericStore>, registry: ResourceRegistry, stopped: () => boolean, log: (message: string, err?: unknown) => void): Promise<void> {
  const storeOf = (group: string, version: string, plural: string): GenericStore | undefined => {
    const served = registry.find(`${group}.${registry.apiDomain}`, version, plural);
    return served && stores.get(served);
  };
  const flowSchemas = storeOf('flowcontrol.apiserver', 'v1beta3', 'flowschemas');
  const priorityLevels = storeOf('flowcontrol.apiserver', 'v1beta3', 'prioritylevelconfigurations');
  const apiServices = storeOf('apiregistration', 'v1', 'apiservices');
  const steps: [string, () => Promise<void>][] = [];
  if (flowSchemas && priorityLevels) steps.push(['the API Priority and Fairness configuration', () => ensureFlowControlConfiguration({ flowSchemas, priorityLevels })]);
  if (apiServices) steps.push(['the local APIServices', () => ensureLocalApiServices(apiServices, localGroupVersions(registry))]);
  for (const [what, step] of steps) {
    for (let attempt = 1; !stopped(); attempt++) {
      try {
        await step();
        break;
      } catch (err) {
        if (attempt >= bootstrapAttemptsMax) {
          log(`could not create ${what}`, err);
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, bootstrapRetryMs));
    }
  }
}
