import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { immutable, invalidValue, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, nameColumn, text } from '../schema/printers.ts';
import { objectMetaFieldLabels, textLabel } from '../schema/field-labels.ts';
import { validateDataKeys, validateImmutableData } from './configmaps.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateSecretType } from './secret-type-validation.ts';

const base64Re = /^[A-Za-z0-9+/]*={0,2}$/;

function validateBase64(data: unknown): FieldError[] {
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data as Record<string, unknown>)
    .filter(([, v]) => typeof v !== 'string' || v.length % 4 !== 0 || !base64Re.test(v))
    .map(([k, v]) => invalidValue(`data[${k}]`, v, 'must be base64 encoded'));
}

/** Folds `stringData` into base64 `data`, as Kubernetes does before storing. */
function foldStringData(o: KObject): void {
  const stringData = o.stringData as Record<string, string> | undefined;
  if (!stringData) return;
  const data = (o.data ??= {}) as Record<string, string>;
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  delete o.stringData;
}

/** Secrets (core/v1): base64 data, write-only stringData, a type fixed at creation. */
export const secrets: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  singular: 'secret',
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Secret holds secret data of a certain type.',
  fields: builtinFields('io.k8s.api.core.v1.Secret'),
  printerColumns: [
    nameColumn,
    { name: 'Type', type: 'string', cell: (o) => text(o, 'type') },
    { name: 'Data', type: 'integer', cell: (o) => Object.keys(o.data ?? {}).length },
    ageColumn,
  ],
  // kube-apiserver 1.28: AddFieldLabelConversionsForSecret (pkg/apis/core/v1/conversion.go).
  fieldSelectors: { ...objectMetaFieldLabels, type: textLabel('type') },
  strategy: {
    applyDefaults(o) {
      foldStringData(o);
      if (!o.type) o.type = 'Opaque';
    },
    validate: (o) => [...validateDataKeys('data', o.data), ...validateBase64(o.data), ...validateSecretType(o)],
    validateUpdate(o, old) {
      const errors = validateImmutableData(o, old, ['data']);
      // ValidateImmutableField: an Invalid naming the new type, as kube-apiserver answers.
      if (o.type !== old.type) errors.push(immutable('type', o.type));
      return errors;
    },
  },
};
