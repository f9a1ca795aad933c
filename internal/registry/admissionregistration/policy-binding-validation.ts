// validateValidatingAdmissionPolicyBindingSpec of kube-apiserver 1.28: the policy it binds, where
// its parameters come from, which requests it narrows to, and what a failed validation does, with
// kube's messages and field paths.
import type { KObject } from '../schema/declaration.ts';
import { duplicate, forbidden, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { validateLabelSelector } from '../schema/label-selectors.ts';
import { dns1123Subdomain, pathSegmentName } from '../schema/name-validation.ts';
import { goSlice } from './go-values.ts';
import { validateMatchResources } from './policy-match-resources-validation.ts';

type Entry = Record<string, unknown>;

/** The validation actions, sorted as kube's set lists them. */
export const validationActions = ['Audit', 'Deny', 'Warn'];
const notFoundActions = ['Deny', 'Allow'];
const exclusive = 'name and selector are mutually exclusive';

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function validateParamRef(ref: Entry, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = typeof ref.name === 'string' ? ref.name : '';
  const hasSelector = present(ref.selector);
  if (name !== '') {
    for (const problem of pathSegmentName(name)) errors.push(invalidValue(`${path}.name`, name, problem));
    if (hasSelector) errors.push(forbidden(`${path}.name`, exclusive));
  }
  if (hasSelector) {
    errors.push(...validateLabelSelector(ref.selector, `${path}.selector`));
    if (name !== '') errors.push(forbidden(`${path}.selector`, exclusive));
  }
  if (name === '' && !hasSelector) errors.push(required(path, 'one of name or selector must be specified'));
  const action = ref.parameterNotFoundAction;
  if (!present(action) || action === '') errors.push(required(`${path}.parameterNotFoundAction`));
  else if (!notFoundActions.includes(String(action))) errors.push(notSupported(`${path}.parameterNotFoundAction`, action, notFoundActions));
  return errors;
}

function validateValidationActions(value: unknown, path: string): FieldError[] {
  const actions = Array.isArray(value) ? value.map(String) : [];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (!validationActions.includes(action)) errors.push(notSupported(`${path}[${i}]`, action, validationActions));
    if (seen.has(action)) errors.push(duplicate(`${path}[${i}]`, action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errors.push(invalidShown(path, goSlice('admissionregistration.ValidationAction', actions), 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errors.push(required(path, 'at least one validation action is required'));
  return errors;
}

/** Validates a ValidatingAdmissionPolicyBinding's spec (metadata is the registry's); run after defaulting. */
export function validateValidatingAdmissionPolicyBinding(obj: KObject): FieldError[] {
  const spec = isEntry(obj.spec) ? obj.spec : {};
  const errors: FieldError[] = [];
  const policyName = typeof spec.policyName === 'string' ? spec.policyName : '';
  if (policyName === '') errors.push(required('spec.policyName'));
  else for (const problem of dns1123Subdomain(policyName)) errors.push(invalidValue('spec.policyName', policyName, problem));
  if (isEntry(spec.paramRef)) errors.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  if (isEntry(spec.matchResources)) errors.push(...validateMatchResources(spec.matchResources, 'spec.matchResources'));
  errors.push(...validateValidationActions(spec.validationActions, 'spec.validationActions'));
  return errors;
}
