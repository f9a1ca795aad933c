// validateMatchConditions of kube-apiserver 1.28's admissionregistration validation, shared by the
// webhook configurations and ValidatingAdmissionPolicies: at most 64 conditions, each with a
// qualified name unique in the list and an expression that compiles (kube's messages and paths).
import { duplicate, invalidValue, required, tooMany, type FieldError } from '../schema/field-errors.ts';
import { qualifiedName } from '../schema/name-validation.ts';
import { checkExpression, requestVariables } from './policy-expression-check.ts';

/** Most matchConditions one webhook or policy may have. */
export const matchConditionsMax = 64;

/** What the conditions' expressions may name besides the request's variables. */
export interface MatchConditionsOptions {
  /** True for a policy with a paramKind: `params` is declared. */
  readonly allowParams?: boolean;
}

function isEntry(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The variables a condition's expression is compiled over: kube 1.28's base environment declares
 * `namespaceObject` for webhooks too (it is null when a webhook's conditions run).
 */
export function matchConditionVariables(options: MatchConditionsOptions = {}): string[] {
  return [...requestVariables, 'namespaceObject', ...(options.allowParams === true ? ['params'] : [])];
}

/**
 * Validates a `matchConditions` list at `path` (`webhooks[0].matchConditions`,
 * `spec.matchConditions`). Call it from the webhook configurations' validation in place of the
 * shape-only check, with default options.
 */
export function validateMatchConditions(conditions: unknown, path: string, options: MatchConditionsOptions = {}): FieldError[] {
  const items = Array.isArray(conditions) ? conditions : [];
  const errors: FieldError[] = [];
  if (items.length > matchConditionsMax) errors.push(tooMany(path, items.length, matchConditionsMax));
  const variables = matchConditionVariables(options);
  const names = new Set<string>();
  items.forEach((item, i) => {
    const condition = isEntry(item) ? item : {};
    const at = `${path}[${i}]`;
    const expression = typeof condition.expression === 'string' ? condition.expression.trim() : '';
    if (expression === '') errors.push(required(`${at}.expression`));
    else {
      const invalid = checkExpression(expression, variables, `${at}.expression`);
      if (invalid !== undefined) errors.push(invalid);
    }
    const name = typeof condition.name === 'string' ? condition.name : '';
    if (name === '') errors.push(required(`${at}.name`));
    else for (const problem of qualifiedName(name)) errors.push(invalidValue(`${at}.name`, name, problem));
    if (name !== '') {
      if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
      names.add(name);
    }
  });
  return errors;
}
