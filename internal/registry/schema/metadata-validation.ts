import type { KObject, ResourceDeclaration } from './declaration.ts';
import { invalidValue, required, type FieldError } from './field-errors.ts';
import { dns1123Label, dns1123Subdomain, labelValue, pathSegmentName, qualifiedName } from './name-validation.ts';

/** Total size limit of all annotations of one object, as Kubernetes. */
export const annotationsBytesMax = 256 * 1024;

function nameProblems(rule: ResourceDeclaration['nameRule'], name: string): string[] {
  if (rule === 'label') return dns1123Label(name);
  if (rule === 'subdomain') return dns1123Subdomain(name);
  return pathSegmentName(name);
}

function validateStringMap(field: string, value: unknown, errors: FieldError[]): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push(invalidValue(field, value, 'must be a map of string keys to string values'));
    return undefined;
  }
  return value as Record<string, string>;
}

/** Validates labels: qualified-name keys and label values. */
export function validateLabels(labels: unknown, field = 'metadata.labels'): FieldError[] {
  const errors: FieldError[] = [];
  const map = validateStringMap(field, labels, errors);
  for (const [key, value] of Object.entries(map ?? {})) {
    for (const p of qualifiedName(key)) errors.push(invalidValue(field, key, p));
    if (typeof value !== 'string') errors.push(invalidValue(`${field}.${key}`, value, 'must be a string'));
    else for (const p of labelValue(value)) errors.push(invalidValue(field, value, p));
  }
  return errors;
}

/** Validates annotations: qualified-name keys and the total size limit. */
export function validateAnnotations(annotations: unknown, field = 'metadata.annotations'): FieldError[] {
  const errors: FieldError[] = [];
  const map = validateStringMap(field, annotations, errors);
  let bytes = 0;
  for (const [key, value] of Object.entries(map ?? {})) {
    for (const p of qualifiedName(key.toLowerCase())) errors.push(invalidValue(field, key, p));
    if (typeof value !== 'string') errors.push(invalidValue(`${field}.${key}`, value, 'must be a string'));
    else bytes += key.length + value.length;
  }
  if (bytes > annotationsBytesMax) errors.push({ type: 'FieldValueTooLong', field, message: `Too long: must have at most ${annotationsBytesMax} bytes` });
  return errors;
}

interface OwnerReference {
  apiVersion?: unknown;
  kind?: unknown;
  name?: unknown;
  uid?: unknown;
  controller?: unknown;
}

/**
 * Validates owner references as apimachinery's ValidateOwnerReferences does: each names a version,
 * kind, name and uid, no core Event owns anything, and at most one is the controller. Its errors
 * name the list, not an item.
 */
export function validateOwnerReferences(references: unknown, field = 'metadata.ownerReferences'): FieldError[] {
  if (!Array.isArray(references)) return [];
  const errors: FieldError[] = [];
  let controller = '';
  for (const ref of references as OwnerReference[]) {
    if (typeof ref !== 'object' || ref === null) continue;
    const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    const version = apiVersion.split('/').at(-1) ?? '';
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    const kind = typeof ref.kind === 'string' ? ref.kind : '';
    const name = typeof ref.name === 'string' ? ref.name : '';
    if (version === '' || apiVersion.split('/').length > 2) errors.push(invalidValue(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    if (kind === '') errors.push(invalidValue(`${field}.kind`, kind, 'kind must not be empty'));
    if (name === '') errors.push(invalidValue(`${field}.name`, name, 'name must not be empty'));
    if (typeof ref.uid !== 'string' || ref.uid === '') errors.push(invalidValue(`${field}.uid`, ref.uid ?? '', 'uid must not be empty'));
    if (group === '' && version === 'v1' && kind === 'Event') errors.push(invalidValue(field, `${apiVersion}, Kind=${kind}`, '/v1, Kind=Event is disallowed from being an owner'));
    if (ref.controller === true) {
      const current = `${kind}/${name}`;
      if (controller !== '') errors.push(invalidValue(field, references, `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${current}`));
      else controller = current;
    }
  }
  return errors;
}

/** Validates the metadata every object shares: name, namespace, labels, annotations, finalizers, owner references. */
export function validateObjectMeta(obj: KObject, decl: ResourceDeclaration): FieldError[] {
  const meta = obj.metadata;
  const errors: FieldError[] = [];
  const name = meta.name;
  if (typeof name !== 'string' || name === '') errors.push(required('metadata.name', 'name or generateName is required'));
  else for (const p of nameProblems(decl.nameRule, name)) errors.push(invalidValue('metadata.name', name, p));
  if (decl.namespaced) {
    const ns = meta.namespace;
    if (typeof ns !== 'string' || ns === '') errors.push(required('metadata.namespace'));
    else for (const p of dns1123Label(ns)) errors.push(invalidValue('metadata.namespace', ns, p));
  } else if (meta.namespace !== undefined && meta.namespace !== '') {
    errors.push({ type: 'FieldValueForbidden', field: 'metadata.namespace', message: 'Forbidden: not allowed on this type' });
  }
  errors.push(...validateLabels(meta.labels), ...validateAnnotations(meta.annotations), ...validateOwnerReferences(meta.ownerReferences));
  for (const [i, f] of (meta.finalizers ?? []).entries()) {
    if (typeof f !== 'string') errors.push(invalidValue(`metadata.finalizers[${i}]`, f, 'must be a string'));
    else for (const p of qualifiedName(f)) errors.push(invalidValue(`metadata.finalizers[${i}]`, f, p));
  }
  return errors;
}
