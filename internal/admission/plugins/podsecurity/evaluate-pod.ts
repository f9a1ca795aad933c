// Evaluates one pod (or pod template) against a namespace's policy in the three modes
// (pod-security-admission's Admission.EvaluatePod): enforce refuses, audit annotates, warn warns.
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { StatusError } from '../../../registry/errors/status-error.ts';
import type { FieldError } from '../../../registry/schema/field-errors.ts';
import { formatFieldErrors } from './api/namespace-labels.ts';
import { formatLevelVersion, type LevelVersion, type Policy } from './api/policy.ts';
import { aggregateCheckResults, forbiddenDetail, type AggregateCheckResult } from './checks/aggregate.ts';
import type { PodView } from './checks/pod-view.ts';
import { evaluatePod } from './checks/registry.ts';
import { exemptDecision, type Decision } from './decision.ts';
import { exemptRuntimeClass, type PluginState } from './plugin-state.ts';

/** What to evaluate, and whether the enforce mode applies (pods: yes; workload templates: no). */
export interface PodEvaluation {
  readonly policy: Policy;
  /** The namespace labels that did not parse (the policy already fell back for them). */
  readonly policyErrors: readonly FieldError[];
  readonly pod: PodView;
  readonly enforce: boolean;
}

/** `"restricted:latest"`, quoted as kube quotes it. */
function quotedPolicy(lv: LevelVersion): string {
  return `"${formatLevelVersion(lv)}"`;
}

/** Evaluates the pod in each mode, reusing the result when two modes name the same level and version. */
export function evaluatePodPolicy(state: PluginState, attributes: AdmissionAttributes, input: PodEvaluation): Decision {
  if (exemptRuntimeClass(state, input.pod.spec.runtimeClassName)) return exemptDecision('runtimeClass');
  const { policy, pod } = input;
  const cache = new Map<string, AggregateCheckResult>();
  const evaluate = (lv: LevelVersion): AggregateCheckResult => {
    const key = formatLevelVersion(lv);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const result = aggregateCheckResults(evaluatePod(lv, pod));
    cache.set(key, result);
    return result;
  };
  const auditAnnotations: Record<string, string> = {};
  if (input.policyErrors.length > 0) auditAnnotations.error = `Failed to parse policy: ${formatFieldErrors(input.policyErrors)}`;

  let refusal: StatusError | undefined;
  if (input.enforce) {
    auditAnnotations['enforce-policy'] = formatLevelVersion(policy.enforce);
    const result = evaluate(policy.enforce);
    if (!result.allowed) refusal = admissionForbidden(attributes, `violates PodSecurity ${quotedPolicy(policy.enforce)}: ${forbiddenDetail(result)}`);
  }
  const audit = evaluate(policy.audit);
  if (!audit.allowed) auditAnnotations['audit-violations'] = `would violate PodSecurity ${quotedPolicy(policy.audit)}: ${forbiddenDetail(audit)}`;

  // A request about to be refused gets no warnings: the error already says it all.
  const warnings: string[] = [];
  if (refusal === undefined) {
    const warn = evaluate(policy.warn);
    if (!warn.allowed) warnings.push(`would violate PodSecurity ${quotedPolicy(policy.warn)}: ${forbiddenDetail(warn)}`);
  }
  return refusal === undefined ? { warnings, auditAnnotations } : { refusal, warnings, auditAnnotations };
}
