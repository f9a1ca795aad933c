// The fixed authorizers of kube-apiserver 1.28 (k8s.io/apiserver authorizerfactory/builtin.go):
// AlwaysAllow, AlwaysDeny, and the privileged-groups authorizer that lets system:masters do anything.
import type { UserInfo } from '../authn/user-info.ts';
import { allowed, decide, noOpinion, type Attributes, type Decision, type RuleResolvingAuthorizer, type RulesResult } from './authorizer.ts';

/** `--authorization-mode=AlwaysAllow`: allows everything; lists `*` rules. */
export const alwaysAllow: RuleResolvingAuthorizer = {
  authorize: (): Decision => allowed,
  rulesFor: (): RulesResult => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
    errors: [],
  }),
};

const everythingForbidden = decide('no-opinion', 'Everything is forbidden.');

/** `--authorization-mode=AlwaysDeny`: as kube, it has no opinion (a later mode may still allow) and says why; lists no rules. */
export const alwaysDeny: RuleResolvingAuthorizer = {
  authorize: (): Decision => everythingForbidden,
  rulesFor: (): RulesResult => ({ resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] }),
};

/** Allows every request of a member of one of `groups` (kube puts one for system:masters before the configured modes). */
export function privilegedGroups(groups: readonly string[]): { authorize(attributes: Attributes): Decision } {
  const privileged = new Set(groups);
  return {
    authorize: (attributes: Attributes): Decision => (isMember(attributes.user, privileged) ? allowed : noOpinion),
  };
}

function isMember(user: UserInfo, groups: ReadonlySet<string>): boolean {
  return user.groups.some((g) => groups.has(g));
}
