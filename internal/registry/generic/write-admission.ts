import { internalError } from '../errors/status-error.ts';
import type { KObject } from '../schema/declaration.ts';

/** The operations of a write that admission sees. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * A request's admission as the store calls it (kube-apiserver's admission funcs handed to
 * rest.Creater/Updater/GracefulDeleter): `mutate` runs before the kind's strategy on the object
 * about to be written (for UPDATE after the patch or the sub-resource's merge is applied) and
 * answers the object to go on with; `validate` runs after the strategy's defaults and validation,
 * just before the write; on DELETE both see only the stored object. Either throws a StatusError
 * to refuse. Absent for the server's own writes.
 */
export interface WriteAdmission {
  mutate(operation: AdmissionOperation, obj: KObject | undefined, old: KObject | undefined): Promise<KObject | undefined>;
  validate(operation: AdmissionOperation, obj: KObject | undefined, old: KObject | undefined): Promise<void>;
}

/**
 * Both phases on an object no strategy comes between (a sub-resource's body, a Binding, a
 * namespace's finalizers, a delete's stored object): the object after mutating admission.
 * Throws a 500 when admission turned it into something that is not an object with metadata.
 */
export async function admitAsIs(admission: WriteAdmission, operation: AdmissionOperation, obj: KObject | undefined, old: KObject | undefined): Promise<KObject | undefined> {
  const mutated = await admission.mutate(operation, obj, old);
  if (obj !== undefined && (typeof mutated?.metadata !== 'object' || mutated.metadata === null)) {
    throw internalError('admission turned the object into something that is not an object with metadata');
  }
  await admission.validate(operation, mutated, old);
  return mutated;
}
