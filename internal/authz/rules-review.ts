// The status of a SelfSubjectRulesReview (and what `kubectl auth can-i --list` prints), as
// kube-apiserver 1.28's selfsubjectrulesreview REST builds it from the authorizers' RulesFor.
import type { UserInfo } from '../authn/user-info.ts';
import type { RuleResolver } from './authorizer.ts';
import { aggregateMessage } from './go-format.ts';

/** SubjectRulesReviewStatus as JSON: lists always present, empty lists of a rule left out, `evaluationError` only when set. */
export interface SubjectRulesReviewStatus {
  resourceRules: Record<string, string[]>[];
  nonResourceRules: Record<string, string[]>[];
  incomplete: boolean;
  evaluationError?: string;
}

function withoutEmpty(rule: Record<string, readonly string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(rule)) if (k === 'verbs' || v.length > 0) out[k] = [...v];
  return out;
}

/** The rules `user` holds in `namespace` per the resolver (RBAC rules, `*` for AlwaysAllow; incomplete with a webhook). */
export function subjectRulesReviewStatus(resolver: RuleResolver, user: UserInfo, namespace: string): SubjectRulesReviewStatus {
  const result = resolver.rulesFor(user, namespace);
  const status: SubjectRulesReviewStatus = {
    resourceRules: result.resourceRules.map((r) => withoutEmpty({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames })),
    nonResourceRules: result.nonResourceRules.map((r) => withoutEmpty({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
    incomplete: result.incomplete,
  };
  if (result.errors.length > 0) status.evaluationError = aggregateMessage(result.errors);
  return status;
}
