// CSIStorageCapacities (storage.<domain>/v1), as kube-apiserver 1.28 serves them:
// ValidateCSIStorageCapacity/Update of pkg/apis/storage/validation and printCSIStorageCapacity.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { invalidValue, type FieldError } from '../schema/field-errors.ts';
import { validateLabelSelector } from '../schema/label-selectors.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';
import { nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { stableStringify } from '../generic/stable-json.ts';

function validateCapacity(o: KObject): FieldError[] {
  const errors = validateLabelSelector(o.nodeTopology, 'nodeTopology');
  const className = String(o.storageClassName ?? '');
  errors.push(...dns1123Subdomain(className).map((p) => invalidValue('storageClassName', className, p)));
  // ValidateNonnegativeQuantity: a quantity whose number part is negative and not zero.
  const negative = typeof o.capacity === 'string' ? /^-(\d*\.?\d*)/.exec(o.capacity) : null;
  if (negative !== null && /[1-9]/.test(negative[1] ?? '')) errors.push(invalidValue('capacity', o.capacity, 'must be greater than or equal to 0'));
  return errors;
}

/** ValidateCSIStorageCapacityUpdate: the inputs of CSI GetCapacity are fixed. */
function validateCapacityUpdate(o: KObject, old: KObject): FieldError[] {
  const errors: FieldError[] = [];
  if (stableStringify(o.nodeTopology ?? null) !== stableStringify(old.nodeTopology ?? null)) errors.push(invalidValue('nodeTopology', o.nodeTopology ?? null, 'field is immutable'));
  if (o.storageClassName !== old.storageClassName) errors.push(invalidValue('storageClassName', o.storageClassName ?? '', 'field is immutable'));
  return errors;
}

/** CSIStorageCapacities (storage.<domain>/v1): storage a CSI driver has for a class in a topology. */
export const csistoragecapacities: ResourceDeclaration = {
  group: 'storage',
  groupQualified: true,
  version: 'v1',
  kind: 'CSIStorageCapacity',
  plural: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  namespaced: true,
  nameRule: 'subdomain',
  description: 'CSIStorageCapacity stores the result of one CSI GetCapacity call.',
  fields: builtinFields('io.k8s.api.storage.v1.CSIStorageCapacity'),
  required: builtinRequired('io.k8s.api.storage.v1.CSIStorageCapacity'),
  // printCSIStorageCapacity has no Age column.
  printerColumns: [
    nameColumn,
    { name: 'StorageClassName', type: 'string', description: 'storageClassName represents the name of the StorageClass that the reported capacity applies to.', cell: (o) => String(o.storageClassName ?? '') },
    { name: 'Capacity', type: 'string', description: 'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.', cell: (o) => (typeof o.capacity === 'string' ? o.capacity : '<unset>') },
  ],
  strategy: {
    allowCreateOnUpdate: false,
    validate: validateCapacity,
    validateUpdate: validateCapacityUpdate,
  },
};
