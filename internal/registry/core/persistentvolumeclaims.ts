import type { ResourceDeclaration } from '../schema/declaration.ts';
import { required, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, field, nameColumn, text } from '../schema/printers.ts';
import { accessModesCell } from './persistentvolumes.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateAccessModes, validateVolumeMode } from './persistent-volume-validation.ts';

/** PersistentVolumeClaims (core/v1): a request for storage; bound status in `status`. */
export const persistentvolumeclaims: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  namespaced: true,
  nameRule: 'subdomain',
  description: "PersistentVolumeClaim is a user's request for and claim to a persistent volume.",
  fields: builtinFields('io.k8s.api.core.v1.PersistentVolumeClaim'),
  subresources: { status: true },
  printerColumns: [
    nameColumn,
    { name: 'Status', type: 'string', cell: (o) => text(o, 'status.phase') },
    { name: 'Volume', type: 'string', cell: (o) => text(o, 'spec.volumeName') },
    { name: 'Capacity', type: 'string', cell: (o) => String(field(o, 'status.capacity.storage') ?? '') },
    { name: 'Access Modes', type: 'string', cell: (o) => accessModesCell(o, 'status.accessModes') },
    { name: 'StorageClass', type: 'string', cell: (o) => text(o, 'spec.storageClassName') },
    ageColumn,
  ],
  strategy: {
    prepareForCreate(o) {
      o.status = { phase: 'Pending' };
    },
    applyDefaults(o) {
      const spec = (o.spec ??= {}) as Record<string, unknown>;
      spec.volumeMode ??= 'Filesystem';
    },
    validate(o) {
      const errors: FieldError[] = validateAccessModes(o, 'at least 1 access mode is required');
      // kube names the missing request `spec.resources[storage]` (fldPath.Child("resources").Key("storage")).
      if (field(o, 'spec.resources.requests.storage') === undefined) errors.push(required('spec.resources[storage]'));
      return [...errors, ...validateVolumeMode(o)];
    },
  },
};
