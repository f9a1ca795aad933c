import type { ResourceDeclaration } from '../schema/declaration.ts';
import { invalidValue, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, field, nameColumn, text } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';

/** Leases (coordination.<domain>/v1): leader election and node heartbeats. */
export const leases: ResourceDeclaration = {
  group: 'coordination',
  groupQualified: true,
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Lease defines a lease concept.',
  fields: builtinFields('io.k8s.api.coordination.v1.Lease'),
  printerColumns: [nameColumn, { name: 'Holder', type: 'string', cell: (o) => text(o, 'spec.holderIdentity') }, ageColumn],
  strategy: {
    allowCreateOnUpdate: false,
    validate(o) {
      const errors: FieldError[] = [];
      const d = field(o, 'spec.leaseDurationSeconds');
      if (typeof d === 'number' && d <= 0) errors.push(invalidValue('spec.leaseDurationSeconds', d, 'must be greater than 0'));
      const t = field(o, 'spec.leaseTransitions');
      if (typeof t === 'number' && t < 0) errors.push(invalidValue('spec.leaseTransitions', t, 'must be greater than or equal to 0'));
      return errors;
    },
  },
};
