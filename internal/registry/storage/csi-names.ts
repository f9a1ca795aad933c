// The CSI driver name rule kube-apiserver 1.28 shares between CSIDrivers, CSINodes and
// VolumeAttachments (ValidateCSIDriverName of pkg/apis/core/validation/validation.go).
import { invalidValue, required, tooLong, type FieldError } from '../schema/field-errors.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';

const driverNameMax = 63;

/** A CSI driver name: required, at most 63 characters, a DNS subdomain once lower-cased. */
export function validateCSIDriverName(name: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (name === '') errors.push(required(path));
  if (name.length > driverNameMax) errors.push(tooLong(path, driverNameMax));
  for (const p of dns1123Subdomain(name.toLowerCase())) errors.push(invalidValue(path, name, p));
  return errors;
}
