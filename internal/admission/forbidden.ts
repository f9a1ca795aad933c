// The refusals plugins answer with, worded as kube-apiserver's admission.NewForbidden words them.
import { StatusError } from '../registry/errors/status-error.ts';
import type { AdmissionAttributes } from './attributes.ts';

/**
 * The name a refusal names: the request's, else the object's name or generateName (names are
 * generated after admission), else "Unknown" (admission's extractResourceName).
 */
function refusedName(attributes: AdmissionAttributes): string {
  if (attributes.name !== '') return attributes.name;
  const meta = attributes.object?.metadata;
  if (typeof meta?.name === 'string' && meta.name !== '') return meta.name;
  if (typeof meta?.generateName === 'string' && meta.generateName !== '') return meta.generateName;
  return 'Unknown';
}

/** `<resource> "<name>" is forbidden: <reason>`, a 403 Forbidden (admission.NewForbidden). */
export function admissionForbidden(attributes: AdmissionAttributes, reason: string): StatusError {
  const { group, resource } = attributes.resource;
  const qualified = group === '' ? resource : `${resource}.${group}`;
  const name = refusedName(attributes);
  return new StatusError(403, 'Forbidden', `${qualified} "${name}" is forbidden: ${reason}`, { name, group, kind: resource });
}
