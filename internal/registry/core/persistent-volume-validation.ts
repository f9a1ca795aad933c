// The enums of PersistentVolumes and PersistentVolumeClaims as kube-apiserver 1.28 checks them
// (ValidatePersistentVolumeSpec, ValidatePersistentVolumeClaimSpec). kube keeps them in sets and
// lists them sorted; an unsupported access mode is reported on the list, not on its index.
import type { KObject } from '../schema/declaration.ts';
import { forbidden, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { field } from '../schema/printers.ts';

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const volumeModes = ['Block', 'Filesystem'];

/** The access modes of `spec.accessModes`: each supported, ReadWriteOncePod alone; `detail` for a missing list. */
export function validateAccessModes(o: KObject, detail: string): FieldError[] {
  const modes = field(o, 'spec.accessModes');
  if (!Array.isArray(modes) || modes.length === 0) return [required('spec.accessModes', detail)];
  const errors: FieldError[] = [];
  let readWriteOncePod = false;
  let others = false;
  for (const mode of modes) {
    if (!accessModes.includes(mode as string)) errors.push(notSupported('spec.accessModes', mode, accessModes));
    else if (mode === 'ReadWriteOncePod') readWriteOncePod = true;
    else others = true;
  }
  if (readWriteOncePod && others) errors.push(forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  return errors;
}

/** `spec.volumeMode`, when set: Block or Filesystem. */
export function validateVolumeMode(o: KObject): FieldError[] {
  const mode = field(o, 'spec.volumeMode');
  return mode === undefined || mode === null || volumeModes.includes(mode as string) ? [] : [notSupported('spec.volumeMode', mode, volumeModes)];
}

/** `spec.persistentVolumeReclaimPolicy`, when not empty: Delete, Recycle or Retain. */
export function validateReclaimPolicy(o: KObject): FieldError[] {
  const policy = field(o, 'spec.persistentVolumeReclaimPolicy');
  if (policy === undefined || policy === null || policy === '') return [];
  return reclaimPolicies.includes(policy as string) ? [] : [notSupported('spec.persistentVolumeReclaimPolicy', policy, reclaimPolicies)];
}
