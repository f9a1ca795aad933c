// The checks' results folded into one verdict and kube's two wordings of it
// (k8s.io/pod-security-admission/policy: AggregateCheckResults, ForbiddenReason, ForbiddenDetail).
import type { CheckResult } from './check.ts';

/** The verdict over several checks; reasons and details pair up by index. */
export interface AggregateCheckResult {
  readonly allowed: boolean;
  readonly forbiddenReasons: readonly string[];
  readonly forbiddenDetails: readonly string[];
}

/** Placeholder for a refusal that gave no reason (a bug in a check, kept visible). */
const unknownForbiddenReason = 'unknown forbidden reason';

/** Folds results: allowed only when every check allowed. */
export function aggregateCheckResults(results: readonly CheckResult[]): AggregateCheckResult {
  const refused = results.filter((r) => !r.allowed);
  return {
    allowed: refused.length === 0,
    forbiddenReasons: refused.map((r) => (r.forbiddenReason ? r.forbiddenReason : unknownForbiddenReason)),
    forbiddenDetails: refused.map((r) => r.forbiddenDetail ?? ''),
  };
}

/** `host ports, privileged`: the reasons only (used when summarizing many pods). */
export function forbiddenReason(result: AggregateCheckResult): string {
  return result.forbiddenReasons.join(', ');
}

/** `hostPort (container "a" uses hostPort 80), privileged`: reasons with their details (one object). */
export function forbiddenDetail(result: AggregateCheckResult): string {
  return result.forbiddenReasons
    .map((reason, i) => {
      const detail = result.forbiddenDetails[i] ?? '';
      return detail === '' ? reason : `${reason} (${detail})`;
    })
    .join(', ');
}
