// validateValidatingAdmissionPolicySpec of kube-apiserver 1.28 (pkg/apis/admissionregistration/
// validation): the failure policy, the param kind, the match constraints, and every expression of
// the policy compiled over the variables it may name, with kube's messages and field paths.
import { celReservedWords } from '../../cel/escaping.ts';
import type { KObject } from '../schema/declaration.ts';
import { duplicate, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { qualifiedName } from '../schema/name-validation.ts';
import { validateMatchConditions } from './policy-match-conditions.ts';
import { validateMatchResources, validateParamKind } from './policy-match-resources-validation.ts';
import { checkExpression, requestVariables } from './policy-expression-check.ts';

type Entry = Record<string, unknown>;

const failurePolicies = ['Fail', 'Ignore'];
/** The reasons a validation may give (kube 1.28's supportedValidationPolicyReason). */
const validationReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
/** Most auditAnnotations one policy may have. */
export const auditAnnotationsMax = 20;
/** Longest auditAnnotations valueExpression, in bytes. */
export const auditAnnotationValueExpressionBytesMax = 5 * 1024;

const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The variables a policy's validation, variable and audit annotation expressions are compiled over. */
export function policyVariables(spec: Entry): string[] {
  return [
    ...requestVariables, 'namespaceObject',
    ...(isEntry(spec.paramKind) ? ['params'] : []),
    ...(list(spec.variables).length > 0 ? ['variables'] : []),
  ];
}

/** Whether `name` may be a variable's name (a CEL identifier that is not reserved). */
export function isCelIdentifier(name: string): boolean {
  return celIdentifier.test(name) && !celReservedWords.has(name);
}

function validateVariable(variable: Entry, variables: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = textOf(variable.name);
  if (name.trim() === '') errors.push(required(`${path}.name`, 'name is not specified'));
  else if (!isCelIdentifier(name)) errors.push(invalidValue(`${path}.name`, name, 'name is not a valid CEL identifier'));
  const expression = textOf(variable.expression);
  if (expression.trim() === '') errors.push(required(`${path}.expression`, 'expression is not specified'));
  else {
    const invalid = checkExpression(expression, variables, `${path}.expression`);
    if (invalid !== undefined) errors.push(invalid);
  }
  return errors;
}

function validateValidation(validation: Entry, variables: readonly string[], messageVariables: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const expression = textOf(validation.expression);
  if (expression.trim() === '') errors.push(required(`${path}.expression`, 'expression is not specified'));
  else {
    const invalid = checkExpression(expression, variables, `${path}.expression`);
    if (invalid !== undefined) errors.push(invalid);
  }
  const messageExpression = textOf(validation.messageExpression);
  if (messageExpression !== '' && messageExpression.trim() === '') errors.push(invalidValue(`${path}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  else if (messageExpression !== '') {
    const invalid = checkExpression(messageExpression, messageVariables, `${path}.messageExpression`);
    if (invalid !== undefined) errors.push(invalid);
  }
  const message = textOf(validation.message);
  if (message !== '' && message.trim() === '') errors.push(invalidValue(`${path}.message`, message, 'message must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim())) errors.push(invalidValue(`${path}.message`, message, 'message must not contain line breaks'));
  if (validation.reason !== undefined && validation.reason !== null && !validationReasons.includes(String(validation.reason))) {
    errors.push(notSupported(`${path}.reason`, validation.reason, validationReasons));
  }
  return errors;
}

function validateAuditAnnotation(annotation: Entry, policyName: string, variables: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const key = textOf(annotation.key);
  if (policyName !== '') {
    const qualified = `${policyName}/${key}`;
    for (const problem of qualifiedName(qualified)) errors.push(invalidValue(`${path}.key`, qualified, problem));
  } else errors.push(invalidValue(`${path}.key`, key, 'requires metadata.name be non-empty'));
  const valueExpression = textOf(annotation.valueExpression).trim();
  if (valueExpression === '') errors.push(required(`${path}.valueExpression`, 'valueExpression is not specified'));
  else if (Buffer.byteLength(valueExpression) > auditAnnotationValueExpressionBytesMax) {
    errors.push(required(`${path}.valueExpression`, `must not exceed ${auditAnnotationValueExpressionBytesMax} bytes in length`));
  } else {
    const invalid = checkExpression(valueExpression, variables, `${path}.valueExpression`);
    if (invalid !== undefined) errors.push({ ...invalid, message: invalid.message.replace(JSON.stringify(valueExpression), JSON.stringify(textOf(annotation.valueExpression))) });
  }
  return errors;
}

function validateExpressions(spec: Entry, policyName: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const variables = policyVariables(spec);
  list(spec.variables).forEach((v, i) => errors.push(...validateVariable(isEntry(v) ? v : {}, variables, `${path}.variables[${i}]`)));
  const validations = list(spec.validations);
  const auditAnnotations = list(spec.auditAnnotations);
  if (validations.length === 0 && auditAnnotations.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    return [...errors, required(`${path}.validations`, detail), required(`${path}.auditAnnotations`, detail)];
  }
  // kube 1.28 compiles messageExpression without the authorizer.
  const messageVariables = variables.filter((v) => v !== 'authorizer');
  validations.forEach((v, i) => errors.push(...validateValidation(isEntry(v) ? v : {}, variables, messageVariables, `${path}.validations[${i}]`)));
  if (auditAnnotations.length > auditAnnotationsMax) {
    errors.push(invalidShown(`${path}.auditAnnotations`, `${auditAnnotations.length} auditAnnotations`, `must not have more than ${auditAnnotationsMax} auditAnnotations`));
  }
  const keys = new Set<string>();
  auditAnnotations.forEach((a, i) => {
    const annotation = isEntry(a) ? a : {};
    errors.push(...validateAuditAnnotation(annotation, policyName, variables, `${path}.auditAnnotations[${i}]`));
    const key = textOf(annotation.key);
    if (keys.has(key)) errors.push(duplicate(`${path}.auditAnnotations[${i}].key`, key));
    keys.add(key);
  });
  return errors;
}

/** Validates a ValidatingAdmissionPolicy's spec (metadata is the registry's); run after defaulting. */
export function validateValidatingAdmissionPolicy(obj: KObject): FieldError[] {
  const spec = isEntry(obj.spec) ? obj.spec : {};
  const path = 'spec';
  const errors: FieldError[] = [];
  if (spec.failurePolicy === undefined || spec.failurePolicy === null) errors.push(required(`${path}.failurePolicy`));
  else if (!failurePolicies.includes(String(spec.failurePolicy))) errors.push(notSupported(`${path}.failurePolicy`, spec.failurePolicy, failurePolicies));
  if (isEntry(spec.paramKind)) errors.push(...validateParamKind(spec.paramKind, `${path}.paramKind`));
  if (!isEntry(spec.matchConstraints)) errors.push(required(`${path}.matchConstraints`));
  else {
    errors.push(...validateMatchResources(spec.matchConstraints, `${path}.matchConstraints`));
    if (list(spec.matchConstraints.resourceRules).length === 0) errors.push(required(`${path}.matchConstraints.resourceRules`));
  }
  errors.push(...validateMatchConditions(spec.matchConditions, `${path}.matchConditions`, { allowParams: isEntry(spec.paramKind) }));
  errors.push(...validateExpressions(spec, obj.metadata.name ?? '', path));
  return errors;
}

/**
 * ValidateValidatingAdmissionPolicyUpdate: as on create, except that matchConditions are not
 * compiled again when neither they nor the paramKind changed (an expression valid when stored stays so).
 */
export function validateValidatingAdmissionPolicyUpdate(obj: KObject, old: KObject): FieldError[] {
  const errors = validateValidatingAdmissionPolicy(obj);
  const spec = isEntry(obj.spec) ? obj.spec : {};
  const oldSpec = isEntry(old.spec) ? old.spec : {};
  const unchanged = JSON.stringify(spec.matchConditions ?? null) === JSON.stringify(oldSpec.matchConditions ?? null) && JSON.stringify(spec.paramKind ?? null) === JSON.stringify(oldSpec.paramKind ?? null);
  return unchanged ? errors.filter((e) => !(e.field.startsWith('spec.matchConditions[') && e.field.endsWith('.expression') && e.type === 'FieldValueInvalid')) : errors;
}
