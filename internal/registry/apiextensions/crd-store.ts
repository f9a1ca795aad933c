// The CustomResourceDefinition store: the generic one, except that the first delete marks the
// definition terminating with the cleanup finalizer (kube's CRD REST Delete), so that the
// finalizer controller removes its objects before the definition goes.
import { GenericStore } from '../generic/store.ts';
import { guaranteedUpdate } from '../generic/guaranteed-update.ts';
import type { DeleteOptions } from '../generic/delete.ts';
import type { KObject } from '../schema/declaration.ts';
import { customResourceCleanupFinalizer, setCrdCondition } from './crd-conditions.ts';

/** CustomResourceDefinitions' store. */
export class CrdStore extends GenericStore {
  override async delete(namespace: string | undefined, name: string, opts: DeleteOptions): Promise<KObject> {
    if (opts.dryRun === true) return super.delete(namespace, name, opts);
    const current = await this.get(undefined, name);
    const { uid, resourceVersion } = opts.preconditions ?? {};
    const marked = current.metadata.deletionTimestamp !== undefined || (current.metadata.finalizers ?? []).includes(customResourceCleanupFinalizer);
    // Preconditions that fail are the delete's to report, on the object as it is.
    if (marked || (uid !== undefined && uid !== current.metadata.uid) || (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion)) return super.delete(namespace, name, opts);
    const withFinalizer = await guaranteedUpdate(this, undefined, name, (crd) => {
      crd.metadata.finalizers = [...(crd.metadata.finalizers ?? []), customResourceCleanupFinalizer];
      setCrdCondition(crd, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }, new Date());
      return crd;
    }, { retry: resourceVersion === undefined });
    const preconditions = resourceVersion === undefined ? opts.preconditions : { ...opts.preconditions, resourceVersion: withFinalizer.metadata.resourceVersion };
    return super.delete(namespace, name, { ...opts, ...(preconditions ? { preconditions } : {}) });
  }
}
