// matchConditions (CEL expressions on the request) are evaluated by an injected evaluator: the
// server's is CelMatchConditions (cel-match-conditions.ts). Without one, every webhook that has
// conditions reports an evaluation error, which its failurePolicy turns into a refusal (Fail) or a
// skipped webhook (Ignore) — never a silent call or a silent skip.
import type { AdmissionAttributes } from '../attributes.ts';
import type { MatchCondition, WebhookSpec } from './webhook-types.ts';

/** The verdict on one webhook's conditions (kube's matchconditions MatchResult). */
export type MatchConditionsResult =
  | { readonly matches: true }
  | { readonly matches: false; readonly failedCondition: string }
  | { readonly error: Error };

/** Evaluates a webhook's matchConditions against a request. */
export interface MatchConditionEvaluator {
  evaluate(conditions: readonly MatchCondition[], attributes: AdmissionAttributes, webhook: WebhookSpec): Promise<MatchConditionsResult>;
}

/** The evaluator used when the replica supplies none: an error naming what is missing (tests without an authorizer). */
export const unsupportedMatchConditions: MatchConditionEvaluator = {
  evaluate: () => Promise.resolve({ error: new Error('matchConditions cannot be evaluated: this server has no expression-language (CEL) support yet') }),
};
