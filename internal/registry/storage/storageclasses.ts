// StorageClasses (storage.<domain>/v1), as kube-apiserver 1.28 serves them:
// SetDefaults_StorageClass, ValidateStorageClass/Update of pkg/apis/storage/validation and
// printStorageClass.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { forbidden, immutable, invalidValue, notSupported, required, tooLong, type FieldError } from '../schema/field-errors.ts';
import { labelValue, qualifiedName } from '../schema/name-validation.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { stableStringify } from '../generic/stable-json.ts';

const parametersMax = 512;
const parametersBytesMax = 256 * 1024;
const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];
const defaultAnnotations = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

function validateParameters(params: unknown): FieldError[] {
  if (typeof params !== 'object' || params === null) return [];
  const entries = Object.entries(params as Record<string, unknown>);
  if (entries.length > parametersMax) return [tooLong('parameters', parametersMax)];
  const errors: FieldError[] = [];
  let bytes = 0;
  for (const [k, v] of entries) {
    if (k === '') errors.push(invalidValue('parameters', k, 'field can not be empty.'));
    bytes += k.length + String(v).length;
  }
  if (bytes > parametersBytesMax) errors.push(tooLong('parameters', parametersBytesMax));
  return errors;
}

/** validateAllowedTopologies, for what users meet: keys qualified names, values given and valid. */
function validateAllowedTopologies(terms: unknown): FieldError[] {
  if (!Array.isArray(terms)) return [];
  return terms.flatMap((term: { matchLabelExpressions?: { key?: unknown; values?: unknown }[] }, i) =>
    (term?.matchLabelExpressions ?? []).flatMap((e, j) => {
      const at = `allowedTopologies[${i}].matchLabelExpressions[${j}]`;
      const key = typeof e.key === 'string' ? e.key : '';
      const errors = qualifiedName(key).map((p) => invalidValue(`${at}.key`, key, p));
      const values = Array.isArray(e.values) ? (e.values as string[]) : [];
      if (values.length === 0) errors.push(required(`${at}.values`, 'must specify as least one value'));
      values.forEach((v, k) => errors.push(...labelValue(v).map((p) => invalidValue(`${at}.values[${k}]`, v, p))));
      return errors;
    }),
  );
}

function validateStorageClass(o: KObject): FieldError[] {
  const errors: FieldError[] = [];
  const provisioner = typeof o.provisioner === 'string' ? o.provisioner : '';
  if (provisioner === '') errors.push(required('provisioner'));
  else errors.push(...qualifiedName(provisioner.toLowerCase()).map((p) => invalidValue('provisioner', provisioner.toLowerCase(), p)));
  errors.push(...validateParameters(o.parameters));
  if (o.reclaimPolicy !== '' && !reclaimPolicies.includes(o.reclaimPolicy as string)) errors.push(notSupported('reclaimPolicy', o.reclaimPolicy, reclaimPolicies));
  if (o.volumeBindingMode === undefined || o.volumeBindingMode === null) errors.push(required('volumeBindingMode'));
  else if (!bindingModes.includes(o.volumeBindingMode as string)) errors.push(notSupported('volumeBindingMode', o.volumeBindingMode, bindingModes));
  return [...errors, ...validateAllowedTopologies(o.allowedTopologies)];
}

/** ValidateStorageClassUpdate: parameters, provisioner, reclaimPolicy and volumeBindingMode are fixed. */
function validateStorageClassUpdate(o: KObject, old: KObject): FieldError[] {
  const errors: FieldError[] = [];
  if (stableStringify(o.parameters ?? {}) !== stableStringify(old.parameters ?? {})) errors.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (o.provisioner !== old.provisioner) errors.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (o.reclaimPolicy !== old.reclaimPolicy) errors.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (o.volumeBindingMode !== old.volumeBindingMode) errors.push(immutable('volumeBindingMode', o.volumeBindingMode ?? null));
  return errors;
}

/** The class name, marked `(default)` when an is-default-class annotation says "true". */
function nameCell(o: KObject): string {
  const annotations = o.metadata.annotations ?? {};
  const name = o.metadata.name ?? '';
  return defaultAnnotations.some((a) => annotations[a] === 'true') ? `${name} (default)` : name;
}

/** StorageClasses (storage.<domain>/v1): how dynamically provisioned volumes are made. */
export const storageclasses: ResourceDeclaration = {
  group: 'storage',
  groupQualified: true,
  version: 'v1',
  kind: 'StorageClass',
  plural: 'storageclasses',
  singular: 'storageclass',
  shortNames: ['sc'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.',
  fields: builtinFields('io.k8s.api.storage.v1.StorageClass'),
  required: builtinRequired('io.k8s.api.storage.v1.StorageClass'),
  printerColumns: [
    { ...nameColumn, cell: nameCell },
    { name: 'Provisioner', type: 'string', description: 'provisioner indicates the type of the provisioner.', cell: (o) => String(o.provisioner ?? '') },
    { name: 'ReclaimPolicy', type: 'string', description: 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.', cell: (o) => String(o.reclaimPolicy ?? 'Delete') },
    { name: 'VolumeBindingMode', type: 'string', description: 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.', cell: (o) => String(o.volumeBindingMode ?? 'Immediate') },
    { name: 'AllowVolumeExpansion', type: 'string', description: 'allowVolumeExpansion shows whether the storage class allow volume expand.', cell: (o) => field(o, 'allowVolumeExpansion') === true },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    applyDefaults(o) {
      o.reclaimPolicy ??= 'Delete';
      o.volumeBindingMode ??= 'Immediate';
    },
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  },
};
