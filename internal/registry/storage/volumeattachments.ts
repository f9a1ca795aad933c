// VolumeAttachments (storage.<domain>/v1), as kube-apiserver 1.28 serves them:
// pkg/registry/storage/volumeattachment/strategy.go, ValidateVolumeAttachment(V1)/Update and
// printVolumeAttachment.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { forbidden, invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { stableStringify } from '../generic/stable-json.ts';
import { validateCSIDriverName } from './csi-names.ts';

const exactlyOne = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

function validateSource(o: KObject): FieldError[] {
  const inline = field(o, 'spec.source.inlineVolumeSpec');
  const pv = field(o, 'spec.source.persistentVolumeName');
  const hasInline = inline !== undefined && inline !== null;
  const hasPV = pv !== undefined && pv !== null;
  if (!hasInline && !hasPV) return [required('spec.source', exactlyOne)];
  if (hasInline && hasPV) return [forbidden('spec.source', exactlyOne)];
  return hasPV && pv === '' ? [required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName')] : [];
}

function validateVolumeError(o: KObject, path: string): FieldError[] {
  const message = field(o, `${path}.message`);
  return typeof message === 'string' && message.length > 1024 ? [{ type: 'FieldValueTooLong', field: `${path}.message`, message: 'Too long: must have at most 1024 bytes' }] : [];
}

function validateVolumeAttachment(o: KObject): FieldError[] {
  const attacher = String(field(o, 'spec.attacher') ?? '');
  const errors: FieldError[] = attacher === '' ? [required('spec.attacher')] : [];
  errors.push(...validateSource(o));
  const nodeName = String(field(o, 'spec.nodeName') ?? '');
  errors.push(...dns1123Subdomain(nodeName).map((p) => invalidValue('spec.nodeName', nodeName, p)));
  errors.push(...validateVolumeError(o, 'status.attachError'), ...validateVolumeError(o, 'status.detachError'));
  return errors;
}

/** ValidateVolumeAttachmentV1, for new attachments: the attacher is a CSI driver name, the PV name a subdomain. */
function validateVolumeAttachmentV1(o: KObject): FieldError[] {
  const errors = validateCSIDriverName(String(field(o, 'spec.attacher') ?? ''), 'spec.attacher');
  const pv = field(o, 'spec.source.persistentVolumeName');
  if (typeof pv === 'string') errors.push(...dns1123Subdomain(pv).map((p) => invalidValue('spec.source.persistentVolumeName', pv, p)));
  return errors;
}

/** VolumeAttachments (storage.<domain>/v1): a volume to attach to (or detach from) a node. */
export const volumeattachments: ResourceDeclaration = {
  group: 'storage',
  groupQualified: true,
  version: 'v1',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  nameRule: 'subdomain',
  description: 'VolumeAttachment captures the intent to attach or detach the specified volume to/from the specified node.',
  fields: builtinFields('io.k8s.api.storage.v1.VolumeAttachment'),
  required: builtinRequired('io.k8s.api.storage.v1.VolumeAttachment'),
  subresources: { status: true },
  printerColumns: [
    nameColumn,
    { name: 'Attacher', type: 'string', format: 'name', description: 'attacher indicates the name of the volume driver that MUST handle this request.', cell: (o) => String(field(o, 'spec.attacher') ?? '') },
    { name: 'PV', type: 'string', description: 'persistentVolumeName represents the name of the persistent volume to attach.', cell: (o) => String(field(o, 'spec.source.persistentVolumeName') ?? '') },
    { name: 'Node', type: 'string', description: 'nodeName represents the node that the volume should be attached to.', cell: (o) => String(field(o, 'spec.nodeName') ?? '') },
    { name: 'Attached', type: 'boolean', description: 'attached indicates the volume is successfully attached.', cell: (o) => field(o, 'status.attached') === true },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(o) {
      o.status = { attached: false };
    },
    validate: validateVolumeAttachment,
    validateCreate: validateVolumeAttachmentV1,
    validateUpdate(o, old) {
      // The spec is read-only.
      return stableStringify(o.spec ?? null) === stableStringify(old.spec ?? null) ? [] : [invalidValue('spec', o.spec ?? null, 'field is immutable')];
    },
  },
};
