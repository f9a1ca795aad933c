// RuntimeClasses (node.<domain>/v1), as kube-apiserver 1.28 serves them: ValidateRuntimeClass/Update
// of pkg/apis/node/validation (handler a DNS label, immutable) and printRuntimeClass.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { immutable, invalidValue, notSupported, type FieldError } from '../schema/field-errors.ts';
import { validateLabels } from '../schema/metadata-validation.ts';
import { dns1123Label, qualifiedName } from '../schema/name-validation.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';

const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateScheduling: node selector labels, and tolerations as a pod's (key, operator, effect). */
function validateScheduling(o: KObject): FieldError[] {
  const errors = validateLabels(field(o, 'scheduling.nodeSelector'), 'scheduling.nodeSelector');
  const tolerations = field(o, 'scheduling.tolerations');
  (Array.isArray(tolerations) ? (tolerations as Record<string, unknown>[]) : []).forEach((t, i) => {
    const at = `scheduling.tolerations[${i}]`;
    if (typeof t.key === 'string' && t.key !== '') errors.push(...qualifiedName(t.key).map((p) => invalidValue(`${at}.key`, t.key, p)));
    if (t.operator === 'Exists' && typeof t.value === 'string' && t.value !== '') errors.push(invalidValue(`${at}.operator`, t.value, 'value must be empty when `operator` is \'Exists\''));
    else if (t.operator !== undefined && t.operator !== 'Equal' && t.operator !== 'Exists' && t.operator !== '') errors.push(notSupported(`${at}.operator`, t.operator, ['Equal', 'Exists']));
    if (t.effect !== undefined && t.effect !== '' && !effects.includes(t.effect as string)) errors.push(notSupported(`${at}.effect`, t.effect, effects));
  });
  return errors;
}

function validateRuntimeClass(o: KObject): FieldError[] {
  const handler = String(o.handler ?? '');
  const errors = dns1123Label(handler).map((p) => invalidValue('handler', handler, p));
  const podFixed = field(o, 'overhead.podFixed');
  for (const [resource, quantity] of Object.entries(typeof podFixed === 'object' && podFixed !== null ? podFixed : {})) {
    if (typeof quantity === 'string' && /^-\d*\.?\d*/.test(quantity) && /[1-9]/.test(quantity)) errors.push(invalidValue(`overhead.podFixed[${resource}]`, quantity, 'must be greater than or equal to 0'));
  }
  return [...errors, ...validateScheduling(o)];
}

/** RuntimeClasses (node.<domain>/v1): container runtime configurations pods may ask for. */
export const runtimeclasses: ResourceDeclaration = {
  group: 'node',
  groupQualified: true,
  version: 'v1',
  kind: 'RuntimeClass',
  plural: 'runtimeclasses',
  singular: 'runtimeclass',
  namespaced: false,
  nameRule: 'subdomain',
  description: 'RuntimeClass defines a class of container runtime supported in the cluster.',
  fields: builtinFields('io.k8s.api.node.v1.RuntimeClass'),
  required: builtinRequired('io.k8s.api.node.v1.RuntimeClass'),
  printerColumns: [nameColumn, { name: 'Handler', type: 'string', description: 'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.', cell: (o) => String(o.handler ?? '') }, ageColumn],
  strategy: {
    allowCreateOnUpdate: false,
    validate: validateRuntimeClass,
    validateUpdate: (o, old) => (o.handler === old.handler ? [] : [immutable('handler', o.handler ?? null)]),
  },
};
