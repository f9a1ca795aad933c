// An Ingress backend (a Service port or a typed resource reference) and the typed reference an
// IngressClass's parameters share, as pkg/apis/networking/validation/validation.go (1.28) checks them.
import { invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { dns1123Subdomain, pathSegmentName, portName } from '../schema/name-validation.ts';
import { dns1035Label, portNumber, problemsAt } from './network-validation.ts';

interface TypedReference {
  apiGroup?: unknown;
  kind?: unknown;
  name?: unknown;
}

/** validateIngressTypedLocalObjectReference: apiGroup a subdomain, kind and name path segments. */
export function validateTypedReference(ref: TypedReference, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') errors.push(...problemsAt(`${path}.apiGroup`, ref.apiGroup, dns1123Subdomain(ref.apiGroup)));
  for (const key of ['kind', 'name'] as const) {
    const value = ref[key];
    if (typeof value !== 'string' || value === '') errors.push(required(`${path}.${key}`, `${key} is required`));
    else errors.push(...problemsAt(`${path}.${key}`, value, pathSegmentName(value)));
  }
  return errors;
}

interface Backend {
  resource?: TypedReference;
  service?: { name?: unknown; port?: { name?: unknown; number?: unknown } };
}

/** validateIngressBackend: exactly one of a service (name and a port name or number) or a resource. */
export function validateBackend(backend: Backend, path: string): FieldError[] {
  const hasResource = backend.resource !== undefined && backend.resource !== null;
  const service = backend.service;
  if (hasResource && service !== undefined && service !== null) return [invalidValue(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return validateTypedReference(backend.resource as TypedReference, `${path}.resource`);
  if (service === undefined || service === null) return [invalidValue(path, '', 'resource or service backend is required')];
  const errors: FieldError[] = [];
  const name = typeof service.name === 'string' ? service.name : '';
  if (name === '') errors.push(required(`${path}.service.name`));
  else errors.push(...problemsAt(`${path}.service.name`, name, dns1035Label(name)));
  const portNameValue = typeof service.port?.name === 'string' ? service.port.name : '';
  const portNumberValue = typeof service.port?.number === 'number' ? service.port.number : 0;
  if (portNameValue !== '' && portNumberValue !== 0) errors.push(invalidValue(path, '', 'cannot set both port name & port number'));
  else if (portNameValue !== '') errors.push(...problemsAt(`${path}.service.port.name`, portNameValue, portName(portNameValue)));
  else if (portNumberValue !== 0) errors.push(...problemsAt(`${path}.service.port.number`, portNumberValue, portNumber(portNumberValue)));
  else errors.push(required(path, 'port name or number is required'));
  return errors;
}
