// PriorityClasses (scheduling.<domain>/v1), as kube-apiserver 1.28 serves them:
// SetDefaults_PriorityClass, ValidatePriorityClass/Update of pkg/apis/scheduling/validation and
// printPriorityClass (1.28 has no PreemptionPolicy column yet).
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { forbidden, immutable, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';

/** The highest value a user-defined PriorityClass may have. */
export const highestUserDefinablePriority = 1000000000;
const systemPrefix = 'system-';
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

/** The classes the `system-` prefix is reserved for, with their fixed values (pkg/apis/scheduling). */
export const systemPriorityClasses: Readonly<Record<string, number>> = {
  'system-node-critical': 2 * highestUserDefinablePriority + 1000,
  'system-cluster-critical': 2 * highestUserDefinablePriority,
};

/** IsKnownSystemPriorityClass's verdict on a `system-` name: undefined when it is one, else why not. */
function systemClassProblem(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const expected = systemPriorityClasses[name];
  if (expected === undefined) return `${name} is not a known system priority class`;
  if (value !== expected) return `value of ${name} PriorityClass must be ${expected}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

function validatePriorityClass(o: KObject): FieldError[] {
  const errors: FieldError[] = [];
  const name = o.metadata.name ?? '';
  if (name.startsWith(systemPrefix)) {
    const problem = systemClassProblem(name, o.value, o.globalDefault === true);
    if (problem !== undefined) errors.push(forbidden('metadata.name', `priority class names with '${systemPrefix}' prefix are reserved for system use only. error: ${problem}`));
  } else if (typeof o.value === 'number' && o.value > highestUserDefinablePriority) {
    errors.push(forbidden('value', `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`));
  }
  const policy = o.preemptionPolicy;
  if (policy === '') errors.push(required('preemptionPolicy'));
  else if (policy !== undefined && !preemptionPolicies.includes(policy as string)) errors.push(notSupported('preemptionPolicy', policy, preemptionPolicies));
  return errors;
}

/** PriorityClasses (scheduling.<domain>/v1): named pod priorities; the value and policy are fixed. */
export const priorityclasses: ResourceDeclaration = {
  group: 'scheduling',
  groupQualified: true,
  version: 'v1',
  kind: 'PriorityClass',
  plural: 'priorityclasses',
  singular: 'priorityclass',
  shortNames: ['pc'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'PriorityClass defines mapping from a priority class name to the priority integer value.',
  fields: builtinFields('io.k8s.api.scheduling.v1.PriorityClass'),
  required: builtinRequired('io.k8s.api.scheduling.v1.PriorityClass'),
  printerColumns: [
    nameColumn,
    { name: 'Value', type: 'integer', description: 'value represents the integer value of this priority class.', cell: (o) => (typeof o.value === 'number' ? o.value : 0) },
    { name: 'Global-Default', type: 'boolean', description: 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class.', cell: (o) => o.globalDefault === true },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    applyDefaults(o) {
      o.preemptionPolicy ??= 'PreemptLowerPriority';
    },
    validate: validatePriorityClass,
    validateUpdate(o, old) {
      const errors: FieldError[] = [];
      if (o.value !== old.value) errors.push(forbidden('value', 'may not be changed in an update.'));
      if (field(o, 'preemptionPolicy') !== field(old, 'preemptionPolicy')) errors.push(immutable('preemptionPolicy', o.preemptionPolicy ?? null));
      return errors;
    },
  },
};
