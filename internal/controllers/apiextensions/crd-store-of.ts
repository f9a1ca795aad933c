import type { GenericStore } from '../../registry/generic/store.ts';
import type { ControllerDeps } from '../controller.ts';

/** The CustomResourceDefinition store, or undefined on a server that does not serve them. */
export function crdStoreOf(deps: ControllerDeps): GenericStore | undefined {
  const served = deps.registry.find(`apiextensions.${deps.registry.apiDomain}`, 'v1', 'customresourcedefinitions');
  return served && deps.stores.get(served);
}
