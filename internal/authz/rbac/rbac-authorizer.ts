// The RBAC authorizer (kube-apiserver 1.28 plugin/pkg/auth/authorizer/rbac): allows a request when
// a rule of a role bound to the user allows it; otherwise has no opinion, with `RBAC: <errors>` as
// the reason when a binding's role could not be found.
import type { UserInfo } from '../../authn/user-info.ts';
import { decide, noOpinion, type Attributes, type Decision, type NonResourceRuleInfo, type ResourceRuleInfo, type RuleResolvingAuthorizer, type RulesResult } from '../authorizer.ts';
import { aggregateMessage } from '../go-format.ts';
import { rbacCachedAttributeCharsMax, rbacDecisionsCachedMax } from '../limits.ts';
import { ruleAllows } from './policy-rule.ts';
import { describeSource, type Binding, type Subject } from './rbac-objects.ts';
import type { RbacIndex } from './rbac-index.ts';

/**
 * What an RBAC decision depends on besides the index: the user's name and groups and the request's
 * attributes the rules match. JSON of an array, so that no two requests share a key whatever their
 * strings hold; undefined (not cached) when longer than rbacCachedAttributeCharsMax.
 */
function decisionKey(a: Attributes): string | undefined {
  const key = JSON.stringify([a.user.username, a.user.groups, a.verb, a.resourceRequest, a.namespace, a.apiGroup, a.resource, a.subresource, a.name, a.path]);
  return key.length > rbacCachedAttributeCharsMax ? undefined : key;
}

/** Authorizes by the roles and bindings of an RbacIndex. */
export class RbacAuthorizer implements RuleResolvingAuthorizer {
  // The "allowed by" reason of each (binding, subject), made once: every subject object belongs to one stored binding.
  private readonly reasons = new WeakMap<Subject, Decision>();
  // Decisions since the index last changed: a client repeating one request (a controller, a writer
  // creating many objects) is decided once per change of the RBAC objects, not once per request.
  private readonly decisions = new Map<string, Decision>();
  private decisionsOfVersion = -1;

  constructor(private readonly index: RbacIndex) {}

  private allowedBy(binding: Binding, subject: Subject): Decision {
    let reason = this.reasons.get(subject);
    if (reason === undefined) this.reasons.set(subject, (reason = decide('allow', `RBAC: allowed by ${describeSource(binding, subject)}`)));
    return reason;
  }

  authorize(attributes: Attributes): Decision {
    if (this.decisionsOfVersion !== this.index.version) {
      this.decisions.clear();
      this.decisionsOfVersion = this.index.version;
    }
    const key = decisionKey(attributes);
    const known = key === undefined ? undefined : this.decisions.get(key);
    if (known !== undefined) return known;
    const decision = this.decide(attributes);
    if (key !== undefined) {
      if (this.decisions.size >= rbacDecisionsCachedMax) this.decisions.clear();
      this.decisions.set(key, decision);
    }
    return decision;
  }

  private decide(attributes: Attributes): Decision {
    let allowedBy: Decision | null = null;
    let errors: Error[] | null = null;
    this.index.visitRulesFor(attributes.user, attributes.namespace, (source, rule, error) => {
      if (error !== null) (errors ??= []).push(error);
      if (rule !== null && source !== null && ruleAllows(attributes, rule)) {
        allowedBy = this.allowedBy(source.binding, source.subject);
        return false;
      }
      return true;
    });
    if (allowedBy !== null) return allowedBy;
    if (errors === null) return noOpinion;
    return decide('no-opinion', `RBAC: ${aggregateMessage(errors)}`);
  }

  /** The rules the user holds in the namespace; never incomplete (kube's RBACAuthorizer.RulesFor). */
  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const { rules, errors } = this.index.rulesFor(user, namespace);
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const r of rules) {
      if (r.resources.length > 0) resourceRules.push({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames });
      if (r.nonResourceURLs.length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
    }
    return { resourceRules, nonResourceRules, incomplete: false, errors };
  }
}
