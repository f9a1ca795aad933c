import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { forbidden, invalidValue, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { jsonEqual } from '../../patch/json-value.ts';

const keyRe = /^[-._a-zA-Z0-9]+$/;

/** Validates the keys of a ConfigMap or Secret `data` map. */
export function validateDataKeys(field: string, data: unknown): FieldError[] {
  if (typeof data !== 'object' || data === null) return [];
  const errors: FieldError[] = [];
  for (const key of Object.keys(data)) {
    if (key.length > 253 || !keyRe.test(key)) {
      errors.push(invalidValue(field, key, "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"));
    }
  }
  return errors;
}

/** Rejects data changes of an object whose stored form says `immutable: true`. */
export function validateImmutableData(obj: KObject, old: KObject, fields: readonly string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errors: FieldError[] = [];
  if (obj.immutable !== true) errors.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) {
    if (!jsonEqual(obj[f] ?? {}, old[f] ?? {})) errors.push(forbidden(f, 'field is immutable when `immutable` is set'));
  }
  return errors;
}

/** ConfigMaps (core/v1): string data and base64 binaryData, optionally immutable. */
export const configmaps: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  shortNames: ['cm'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'ConfigMap holds configuration data for pods to consume.',
  fields: builtinFields('io.k8s.api.core.v1.ConfigMap'),
  printerColumns: [nameColumn, { name: 'Data', type: 'integer', description: 'Number of keys.', cell: (o) => Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length }, ageColumn],
  strategy: {
    validate: (o) => [...validateDataKeys('data', o.data), ...validateDataKeys('binaryData', o.binaryData)],
    validateUpdate: (o, old) => validateImmutableData(o, old, ['data', 'binaryData']),
  },
};
