import type { ResourceDeclaration } from '../schema/declaration.ts';
import { notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { field } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';

const limitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];

/** LimitRanges (core/v1): per-namespace resource constraints and defaults. */
export const limitranges: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  plural: 'limitranges',
  singular: 'limitrange',
  shortNames: ['limits'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'LimitRange sets resource usage limits for each kind of resource in a Namespace.',
  fields: builtinFields('io.k8s.api.core.v1.LimitRange'),
  strategy: {
    validate(o) {
      const errors: FieldError[] = [];
      const limits = field(o, 'spec.limits');
      if (!Array.isArray(limits)) return [required('spec.limits')];
      limits.forEach((l: { type?: string }, i) => {
        if (l.type !== undefined && !limitTypes.includes(l.type)) errors.push(notSupported(`spec.limits[${i}].type`, l.type, limitTypes));
      });
      return errors;
    },
  },
};
