import type { ResourceDeclaration } from '../schema/declaration.ts';
import { invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { qualifiedName } from '../schema/name-validation.ts';
import { field } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';

const limitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];

/**
 * validateLimitRangeTypeName: kube takes any qualified name; one without a domain prefix must be a
 * standard limit type. An Invalid, not a NotSupported: the list is open to `example.com/x` types.
 */
function validateLimitType(type: unknown, at: string): FieldError[] {
  const value = typeof type === 'string' ? type : '';
  const problems = qualifiedName(value).map((msg) => invalidValue(at, value, msg));
  if (problems.length > 0 || value.includes('/') || limitTypes.includes(value)) return problems;
  return [invalidValue(at, value, 'must be a standard limit type or fully qualified')];
}

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
      limits.forEach((l: { type?: unknown }, i) => errors.push(...validateLimitType(l.type, `spec.limits[${i}].type`)));
      return errors;
    },
  },
};
