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
