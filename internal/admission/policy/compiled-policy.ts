// A ValidatingAdmissionPolicy with every expression compiled once (kube's policy reconciler
// compiling a definition's validator): the compile result of each expression is kept beside it,
// so an expression that does not compile is an evaluation error of every request it meets, as kube
// reports it ("compilation error: ..."), never a crash and never a silent pass.
import { compileAdmissionExpression, type CompiledExpression } from '../../cel/admission-expressions.ts';
import { policyVariables } from '../../registry/admissionregistration/policy-validation.ts';
import { matchConditionVariables } from '../../registry/admissionregistration/policy-match-conditions.ts';
import { defaultMatchResources } from '../../registry/admissionregistration/policy-defaults.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { ParamKind, PolicySpec, Validation } from './policy-types.ts';

/** One expression and what compiling it gave: a program, or the compiler's error. */
export interface ExpressionSlot {
  readonly expression: string;
  readonly compiled?: CompiledExpression;
  readonly error?: string;
}

/** A named expression (a matchCondition or a variable). */
export interface NamedSlot {
  readonly name: string;
  readonly slot: ExpressionSlot;
}

/** One validation with its compiled expression and messageExpression. */
export interface CompiledValidation {
  readonly validation: Validation;
  readonly slot: ExpressionSlot;
  readonly messageSlot?: ExpressionSlot;
}

/** A policy ready to evaluate. Immutable; a new generation of the policy makes a new one. */
export interface CompiledPolicy {
  readonly name: string;
  /** `uid/generation`: a policy whose key is unchanged is not compiled again. */
  readonly key: string;
  readonly spec: PolicySpec;
  readonly failurePolicy: string;
  readonly paramKind: ParamKind | undefined;
  readonly matchConditions: readonly NamedSlot[];
  readonly variables: readonly NamedSlot[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly { readonly key: string; readonly slot: ExpressionSlot }[];
}

function compileSlot(expression: string, variables: readonly string[]): ExpressionSlot {
  const result = compileAdmissionExpression(expression, variables);
  if (result.compiled !== undefined) return { expression, compiled: result.compiled };
  return { expression, error: result.error ?? 'unknown compilation failure' };
}

/** The key under which `policy`'s compiled form is cached. */
export function policyKey(policy: KObject): string {
  const generation = policy.metadata.generation ?? policy.metadata.resourceVersion ?? '';
  return `${policy.metadata.uid ?? policy.metadata.name ?? ''}/${String(generation)}`;
}

/** A string field's text; null, absent or another type is "" (kube decodes a JSON null string as ""). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function entries<T>(value: unknown): T[] {
  return Array.isArray(value) ? value.filter((item): item is T => typeof item === 'object' && item !== null) : [];
}

/** Compiles every expression of a stored (defaulted) policy; null fields count as absent. */
export function compilePolicy(policy: KObject): CompiledPolicy {
  const spec = (typeof policy.spec === 'object' && policy.spec !== null ? policy.spec : {}) as PolicySpec;
  const variables = policyVariables(spec as Record<string, unknown>);
  const messageVariables = variables.filter((v) => v !== 'authorizer');
  const paramKind = typeof spec.paramKind === 'object' && spec.paramKind !== null ? spec.paramKind : undefined;
  const conditionVariables = [...matchConditionVariables({ allowParams: paramKind !== undefined }), ...(variables.includes('variables') ? ['variables'] : [])];
  return {
    name: policy.metadata.name ?? '',
    key: policyKey(policy),
    spec,
    failurePolicy: text(spec.failurePolicy) || 'Fail',
    paramKind,
    matchConditions: entries<{ name: string; expression: string }>(spec.matchConditions).map((c) => ({ name: text(c.name), slot: compileSlot(text(c.expression), conditionVariables) })),
    variables: entries<{ name: string; expression: string }>(spec.variables).map((v) => ({ name: text(v.name), slot: compileSlot(text(v.expression), variables) })),
    validations: entries<Validation>(spec.validations).map((validation) => {
      const messageExpression = text(validation.messageExpression);
      return {
        validation,
        slot: compileSlot(text(validation.expression), variables),
        ...(messageExpression.trim() !== '' ? { messageSlot: compileSlot(messageExpression, messageVariables) } : {}),
      };
    }),
    auditAnnotations: entries<{ key: string; valueExpression: string }>(spec.auditAnnotations).map((a) => ({ key: text(a.key), slot: compileSlot(text(a.valueExpression).trim(), variables) })),
  };
}

/** `value[key]`, or undefined when reading it throws. */
function safeRead(value: unknown, key: string): unknown {
  try {
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A policy whose compiling threw (a stored object no compiler expects): it is kept, as kube keeps
 * a policy with compile errors, matching by its (defaulted) matchConstraints, as one validation
 * that is an error for every request it meets, so its bindings fail by the failure policy; the
 * other policies are unaffected.
 */
export function brokenPolicy(policy: KObject, err: unknown): CompiledPolicy {
  const given = safeRead(policy, 'spec');
  const failurePolicy = text(safeRead(given, 'failurePolicy')) || 'Fail';
  const paramKind = safeRead(given, 'paramKind');
  let matchConstraints: unknown;
  try {
    matchConstraints = structuredClone(safeRead(given, 'matchConstraints'));
    if (typeof matchConstraints === 'object' && matchConstraints !== null && !Array.isArray(matchConstraints)) defaultMatchResources(matchConstraints as Record<string, unknown>);
  } catch {
    matchConstraints = undefined;
  }
  const spec = { failurePolicy, ...(matchConstraints === undefined ? {} : { matchConstraints }), ...(typeof paramKind === 'object' && paramKind !== null ? { paramKind } : {}) } as PolicySpec;
  const error = err instanceof Error ? err.message : String(err);
  return {
    name: text(safeRead(safeRead(policy, 'metadata'), 'name')),
    key: policyKey(policy),
    spec,
    failurePolicy,
    paramKind: spec.paramKind,
    matchConditions: [],
    variables: [],
    validations: [{ validation: { expression: '' }, slot: { expression: '', error } }],
    auditAnnotations: [],
  };
}
