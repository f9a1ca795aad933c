import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { required, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, field, nameColumn, text } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateAccessModes, validateReclaimPolicy, validateVolumeMode } from './persistent-volume-validation.ts';

const modeShort: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };

/** The ACCESS MODES cell (`RWO,RWX`). */
export function accessModesCell(o: KObject, path: string): string {
  const modes = field(o, path);
  return Array.isArray(modes) ? (modes as string[]).map((m) => modeShort[m] ?? m).join(',') : '';
}

function claimCell(o: KObject): string {
  const name = text(o, 'spec.claimRef.name');
  return name === '' ? '' : `${text(o, 'spec.claimRef.namespace')}/${name}`;
}

function validate(o: KObject): FieldError[] {
  const errors = validateAccessModes(o, '');
  if (field(o, 'spec.capacity') === undefined) errors.push(required('spec.capacity'));
  return [...errors, ...validateReclaimPolicy(o), ...validateVolumeMode(o)];
}

/** PersistentVolumes (core/v1): cluster-scoped storage; phase in `status`. */
export const persistentvolumes: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  singular: 'persistentvolume',
  shortNames: ['pv'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'PersistentVolume (PV) is a storage resource provisioned by an administrator.',
  fields: builtinFields('io.k8s.api.core.v1.PersistentVolume'),
  subresources: { status: true },
  printerColumns: [
    nameColumn,
    { name: 'Capacity', type: 'string', cell: (o) => String(field(o, 'spec.capacity.storage') ?? '') },
    { name: 'Access Modes', type: 'string', cell: (o) => accessModesCell(o, 'spec.accessModes') },
    { name: 'Reclaim Policy', type: 'string', cell: (o) => text(o, 'spec.persistentVolumeReclaimPolicy') },
    { name: 'Status', type: 'string', cell: (o) => text(o, 'status.phase') },
    { name: 'Claim', type: 'string', cell: claimCell },
    { name: 'StorageClass', type: 'string', cell: (o) => text(o, 'spec.storageClassName') },
    { name: 'Reason', type: 'string', cell: (o) => text(o, 'status.reason') },
    ageColumn,
  ],
  strategy: {
    prepareForCreate(o) {
      o.status = { phase: 'Pending' };
    },
    applyDefaults(o) {
      const spec = (o.spec ??= {}) as Record<string, unknown>;
      spec.persistentVolumeReclaimPolicy ||= 'Retain';
      spec.volumeMode ??= 'Filesystem';
    },
    validate,
  },
};
