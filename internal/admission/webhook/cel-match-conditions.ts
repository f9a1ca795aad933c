// The expression-language evaluator of webhook matchConditions (kube's webhook/matchconditions
// Matcher): every condition must be true for the webhook to be called; any false condition skips
// it (named); otherwise an evaluation error is the verdict, which the webhook's failurePolicy turns
// into a refusal (Fail) or a skipped webhook (Ignore). Each distinct expression is compiled once.
import type { Authorizer } from '../../authz/authorizer.ts';
import { compileAdmissionExpression } from '../../cel/admission-expressions.ts';
import { matchConditionVariables } from '../../registry/admissionregistration/policy-match-conditions.ts';
import type { AdmissionAttributes } from '../attributes.ts';
import { authorizerVariable } from '../policy/authorizer-variable.ts';
import type { ExpressionSlot } from '../policy/compiled-policy.ts';
import { CostBudgetExceeded, ExpressionRunner } from '../policy/expression-runner.ts';
import { policyRuntimeCostBudget } from '../policy/limits.ts';
import { requestVariable } from '../policy/request-variable.ts';
import type { MatchConditionEvaluator, MatchConditionsResult } from './match-conditions.ts';
import type { MatchCondition } from './webhook-types.ts';

/** Distinct condition expressions kept compiled; past it the oldest is dropped (and compiled again when met). */
export const compiledConditionsMax = 4096;

/** A MatchConditionEvaluator over orch's expression language, asking `authorizer` for `authorizer` checks. */
export class CelMatchConditions implements MatchConditionEvaluator {
  private readonly compiled = new Map<string, ExpressionSlot>();
  private readonly variables = matchConditionVariables();

  constructor(private readonly authorizer: Authorizer) {}

  async evaluate(conditions: readonly MatchCondition[], attributes: AdmissionAttributes): Promise<MatchConditionsResult> {
    const activation = {
      object: attributes.object ?? null,
      oldObject: attributes.oldObject ?? null,
      request: requestVariable(attributes, { resource: attributes.resource, kind: attributes.kind }),
      namespaceObject: null,
      authorizer: authorizerVariable(this.authorizer, attributes),
    };
    const runner = new ExpressionRunner(activation, [], policyRuntimeCostBudget);
    const errors: string[] = [];
    try {
      for (const condition of conditions) {
        const outcome = await runner.run(this.slot(condition.expression));
        if ('error' in outcome) errors.push(outcome.error);
        else if (outcome.value === false) return { matches: false, failedCondition: condition.name };
        else if (outcome.value !== true) errors.push(`expression '${condition.expression}' resulted in error: must evaluate to bool`);
      }
    } catch (err) {
      if (err instanceof CostBudgetExceeded) return { error: err };
      throw err;
    }
    if (errors.length === 0) return { matches: true };
    return { error: new Error(errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`) };
  }

  private slot(expression: string): ExpressionSlot {
    const known = this.compiled.get(expression);
    if (known !== undefined) return known;
    const result = compileAdmissionExpression(expression, this.variables);
    const slot: ExpressionSlot = result.compiled !== undefined ? { expression, compiled: result.compiled } : { expression, error: result.error ?? 'unknown compilation failure' };
    if (this.compiled.size >= compiledConditionsMax) {
      const oldest = this.compiled.keys().next().value;
      if (oldest !== undefined) this.compiled.delete(oldest);
    }
    this.compiled.set(expression, slot);
    return slot;
  }
}
