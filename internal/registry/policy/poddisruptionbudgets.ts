// PodDisruptionBudgets (policy/v1), as kube-apiserver 1.28 serves them:
// pkg/registry/policy/poddisruptionbudget/strategy.go, ValidatePodDisruptionBudget(Spec) of
// pkg/apis/policy/validation/validation.go and printPodDisruptionBudget.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { invalidShown, invalidValue, notSupported, type FieldError } from '../schema/field-errors.ts';
import { validateLabelSelector } from '../schema/label-selectors.ts';
import { ageColumn, field, nameColumn, num } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';

const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];
const percentRe = /^[0-9]+%$/;

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent; int-or-strings print unquoted. */
function validateIntOrPercent(value: unknown, at: string): FieldError[] {
  if (typeof value === 'number') return value < 0 ? [invalidValue(at, value, 'must be greater than or equal to 0')] : [];
  const text = String(value);
  if (!percentRe.test(text)) {
    return [invalidShown(at, text, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
  }
  return Number(text.slice(0, -1)) > 100 ? [invalidShown(at, text, 'must not be greater than 100%')] : [];
}

function validatePodDisruptionBudget(o: KObject): FieldError[] {
  const spec = (o.spec ?? {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  const set = (key: string): boolean => spec[key] !== undefined && spec[key] !== null;
  if (set('minAvailable') && set('maxUnavailable')) errors.push(invalidValue('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const key of ['minAvailable', 'maxUnavailable']) if (set(key)) errors.push(...validateIntOrPercent(spec[key], `spec.${key}`));
  errors.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && policy !== null && !evictionPolicies.includes(policy as string)) errors.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, evictionPolicies));
  for (const key of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods', 'observedGeneration']) {
    const v = field(o, `status.${key}`);
    if (typeof v === 'number' && v < 0) errors.push(invalidValue(`status.${key}`, v, 'must be greater than or equal to 0'));
  }
  return errors;
}

const intOrPercentCell = (path: string) => (o: KObject): string => {
  const v = field(o, path);
  return v === undefined || v === null ? 'N/A' : String(v);
};

/** PodDisruptionBudgets (policy/v1): how many selected pods voluntary disruptions may take down. */
export const poddisruptionbudgets: ResourceDeclaration = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  shortNames: ['pdb'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'PodDisruptionBudget is an object to define the max disruption that can be caused to a collection of pods',
  fields: builtinFields('io.k8s.api.policy.v1.PodDisruptionBudget'),
  required: builtinRequired('io.k8s.api.policy.v1.PodDisruptionBudget'),
  subresources: { status: true },
  tracksGeneration: true,
  printerColumns: [
    nameColumn,
    { name: 'Min Available', type: 'string', description: 'The minimum number of pods that must be available.', cell: intOrPercentCell('spec.minAvailable') },
    { name: 'Max Unavailable', type: 'string', description: 'The maximum number of pods that may be unavailable.', cell: intOrPercentCell('spec.maxUnavailable') },
    { name: 'Allowed Disruptions', type: 'integer', description: 'Calculated number of pods that may be disrupted at this time.', cell: (o) => num(o, 'status.disruptionsAllowed') },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(o) {
      o.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    },
    validate: validatePodDisruptionBudget,
  },
};
