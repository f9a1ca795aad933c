// One policy evaluated for one binding and one param (kube's validator.Validate): the
// matchConditions, then every validation (a false one denies with its message, reason and code;
// an error admits or denies by the failure policy), then the audit annotations. Budget exhaustion
// ends the evaluation with one error decision.
import type { CompiledPolicy, CompiledValidation } from './compiled-policy.ts';
import { CostBudgetExceeded, ExpressionRunner, type RunOutcome } from './expression-runner.ts';
import { evaluatedMessageBytesMax, policyRuntimeCostBudget } from './limits.ts';

/** What one validation decided: admit, or deny (a failed validation or an error under failurePolicy Fail). */
export interface PolicyDecision {
  readonly action: 'admit' | 'deny';
  /** Whether it came from the expression's answer or from an error. */
  readonly evaluation: 'admit' | 'deny' | 'error';
  readonly message: string;
  /** The Status reason of a denial (`Invalid` unless the validation names another). */
  readonly reason?: string;
}

/** One audit annotation's outcome: a value to publish, nothing, or an error (denies under Fail). */
export type AuditAnnotationResult =
  | { readonly action: 'publish'; readonly key: string; readonly value: string }
  | { readonly action: 'exclude'; readonly key: string }
  | { readonly action: 'error'; readonly key: string; readonly error: string };

/** The decisions, one per validation in order (none when a matchCondition was false), and the audit annotations. */
export interface ValidateResult {
  readonly decisions: readonly PolicyDecision[];
  readonly auditAnnotations: readonly AuditAnnotationResult[];
}

function errorDecision(failurePolicy: string, message: string): PolicyDecision {
  return { action: failurePolicy === 'Ignore' ? 'admit' : 'deny', evaluation: 'error', message };
}

/** What an admission expression's value is called in CEL, for messages. */
export function celTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'null_type';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (value instanceof Uint8Array) return 'bytes';
  if (Array.isArray(value)) return 'list';
  return 'map';
}

/** kube's matchconditions Matcher: any false skips (naming it); else any error is the error; else all true. */
export async function evaluateMatchConditions(policy: CompiledPolicy, runner: ExpressionRunner): Promise<{ matches: boolean; error?: string }> {
  const errors: string[] = [];
  for (const condition of policy.matchConditions) {
    const outcome = await runner.run(condition.slot);
    if ('error' in outcome) errors.push(outcome.error);
    else if (outcome.value === false) return { matches: false };
    else if (outcome.value !== true) errors.push(`expression '${condition.slot.expression}' resulted in error: must evaluate to bool`);
  }
  if (errors.length === 0) return { matches: true };
  return { matches: false, error: errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]` };
}

/** The message of a failed validation: its messageExpression's string, else its message, else the expression. */
async function failureMessage(validation: CompiledValidation, runner: ExpressionRunner): Promise<string | { error: string }> {
  if (validation.messageSlot !== undefined) {
    let outcome: RunOutcome;
    try {
      outcome = await runner.run(validation.messageSlot);
    } catch (err) {
      if (err instanceof CostBudgetExceeded) return { error: `failed messageExpression: ${err.message}` };
      throw err;
    }
    if (!('error' in outcome) && typeof outcome.value === 'string') {
      const message = outcome.value.trim();
      if (message !== '' && Buffer.byteLength(message) <= evaluatedMessageBytesMax && !message.includes('\n')) return message;
    }
  }
  const message = (validation.validation.message ?? '').trim();
  return message !== '' ? message : `failed expression: ${validation.slot.expression.trim()}`;
}

async function decide(validation: CompiledValidation, policy: CompiledPolicy, runner: ExpressionRunner): Promise<PolicyDecision> {
  const outcome = await runner.run(validation.slot);
  if ('error' in outcome) return errorDecision(policy.failurePolicy, outcome.error);
  if (outcome.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
  if (outcome.value !== false) return errorDecision(policy.failurePolicy, `expression '${validation.slot.expression}' resulted in error: must evaluate to bool`);
  const message = await failureMessage(validation, runner);
  if (typeof message !== 'string') return errorDecision(policy.failurePolicy, message.error);
  return { action: 'deny', evaluation: 'deny', message, reason: validation.validation.reason ?? 'Invalid' };
}

async function auditAnnotations(policy: CompiledPolicy, runner: ExpressionRunner): Promise<AuditAnnotationResult[]> {
  const results: AuditAnnotationResult[] = [];
  for (const { key, slot } of policy.auditAnnotations) {
    const outcome = await runner.run(slot);
    if ('error' in outcome) {
      results.push(policy.failurePolicy === 'Ignore' ? { action: 'exclude', key } : { action: 'error', key, error: outcome.error });
    } else if (typeof outcome.value === 'string') {
      const value = outcome.value.trim();
      results.push(value === '' ? { action: 'exclude', key } : { action: 'publish', key, value });
    } else if (outcome.value === null || outcome.value === undefined) {
      results.push({ action: 'exclude', key });
    } else {
      results.push({ action: 'error', key, error: `valueExpression '${slot.expression}' resulted in unsupported return type: ${celTypeName(outcome.value)}. Return type must be either string or null.` });
    }
  }
  return results;
}

/** Evaluates `policy` over `activation` (object, oldObject, request, params, namespaceObject, authorizer). */
export async function validatePolicy(policy: CompiledPolicy, activation: Readonly<Record<string, unknown>>): Promise<ValidateResult> {
  const none: ValidateResult = { decisions: [], auditAnnotations: [] };
  const failed = (message: string): ValidateResult => ({ decisions: [errorDecision(policy.failurePolicy, message)], auditAnnotations: [] });
  try {
    if (policy.matchConditions.length > 0) {
      const conditions = await evaluateMatchConditions(policy, new ExpressionRunner(activation, policy.variables, policyRuntimeCostBudget));
      if (conditions.error !== undefined) return failed(conditions.error);
      if (!conditions.matches) return none;
    }
    const runner = new ExpressionRunner(activation, policy.variables, policyRuntimeCostBudget);
    const decisions: PolicyDecision[] = [];
    for (const validation of policy.validations) decisions.push(await decide(validation, policy, runner));
    const annotations = await auditAnnotations(policy, new ExpressionRunner(activation, policy.variables, policyRuntimeCostBudget));
    return { decisions, auditAnnotations: annotations };
  } catch (err) {
    if (err instanceof CostBudgetExceeded) return failed(err.message);
    throw err;
  }
}
