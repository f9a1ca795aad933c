// A ValidatingAdmissionPolicy with every expression compiled once (kube's policy reconciler
// compiling a definition's validator): the compile result of each expression is kept beside it,
// so an expression that does not compile is an evaluation error of every request it meets, as kube
// reports it ("compilation error: ..."), never a crash and never a silent pass.
import { compileAdmissionExpression, type CompiledExpression } from '../../cel/admission-expressions.ts';
import { policyVariables } from '../../registry/admissionregistration/policy-validation.ts';
import { matchConditionVariables } from '../../registry/admissionregistration/policy-match-conditions.ts';
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

/** Compiles every expression of a stored (defaulted) policy. */
export function compilePolicy(policy: KObject): CompiledPolicy {
  const spec = (typeof policy.spec === 'object' && policy.spec !== null ? policy.spec : {}) as PolicySpec;
  const variables = policyVariables(spec as Record<string, unknown>);
  const messageVariables = variables.filter((v) => v !== 'authorizer');
  const conditionVariables = [...matchConditionVariables({ allowParams: spec.paramKind !== undefined }), ...(variables.includes('variables') ? ['variables'] : [])];
  return {
    name: policy.metadata.name ?? '',
    key: policyKey(policy),
    spec,
    failurePolicy: spec.failurePolicy ?? 'Fail',
    paramKind: spec.paramKind ?? undefined,
    matchConditions: (spec.matchConditions ?? []).map((c) => ({ name: c.name, slot: compileSlot(c.expression, conditionVariables) })),
    variables: (spec.variables ?? []).map((v) => ({ name: v.name, slot: compileSlot(v.expression, variables) })),
    validations: (spec.validations ?? []).map((validation) => ({
      validation,
      slot: compileSlot(validation.expression, variables),
      ...(validation.messageExpression !== undefined && validation.messageExpression.trim() !== '' ? { messageSlot: compileSlot(validation.messageExpression, messageVariables) } : {}),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({ key: a.key, slot: compileSlot(a.valueExpression.trim(), variables) })),
  };
}
