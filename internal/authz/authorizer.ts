// The authorizer contract (k8s.io/apiserver's authorizer.Authorizer and RuleResolver): what a request
// is about goes in; allow, deny or no opinion comes out, with a reason a person can read.
import type { UserInfo } from '../authn/user-info.ts';

/** What a request asks to do, as authorizers see it (kube's authorizer.Attributes). */
export interface Attributes {
  readonly user: UserInfo;
  /** `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`, a special verb (`impersonate`, `escalate`, `bind`, `approve`, `sign`, `use`), or the lower-cased HTTP method of a non-resource request. */
  readonly verb: string;
  /** True for `/api` and `/apis` object paths; false for every other path (health, discovery, metrics). */
  readonly resourceRequest: boolean;
  /** '' for cluster-scoped requests and non-resource requests. */
  readonly namespace: string;
  /** '' is the core group. */
  readonly apiGroup: string;
  readonly apiVersion: string;
  /** The plural (`pods`); '' for non-resource requests. */
  readonly resource: string;
  readonly subresource: string;
  /** The object's name; '' for collection requests (list, create, deletecollection) unless a `metadata.name` field selector names one. */
  readonly name: string;
  /** The URL path of a non-resource request (no query); '' for resource requests. */
  readonly path: string;
}

/** An authorizer's answer: only `allow` lets a request through; `deny` stops the union, `no-opinion` asks the next authorizer. */
export type DecisionKind = 'allow' | 'deny' | 'no-opinion';

/** A decision with its reason ('' when there is none) and an error met while deciding. */
export interface Decision {
  readonly decision: DecisionKind;
  readonly reason: string;
  /** Set when the authorizer could not decide properly (a webhook down, a role missing); kube answers 500 when nothing allowed the request and an error was met. */
  readonly error?: Error;
}

/** One rule about resources a user holds (SelfSubjectRulesReview's ResourceRule). */
export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

/** One rule about non-resource paths a user holds (SelfSubjectRulesReview's NonResourceRule). */
export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** The rules a user holds in a namespace, as far as an authorizer can tell. */
export interface RulesResult {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  /** True when the authorizer cannot list everything it would allow (a webhook). */
  readonly incomplete: boolean;
  /** Errors met while listing (a binding naming a missing role); the rules are still those found. */
  readonly errors: readonly Error[];
}

/** Decides whether a request may go ahead. May be asynchronous (the webhook); never throws for an operating error. */
export interface Authorizer {
  authorize(attributes: Attributes): Decision | Promise<Decision>;
}

/** Lists the rules a user holds (for SelfSubjectRulesReview and `kubectl auth can-i --list`). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult;
}

/** An authorizer that can also list rules. */
export interface RuleResolvingAuthorizer extends Authorizer, RuleResolver {}

/** A decision value (kept small: the hot path returns shared constants). */
export function decide(decision: DecisionKind, reason = '', error?: Error): Decision {
  return error === undefined ? { decision, reason } : { decision, reason, error };
}

/** The shared "no opinion, nothing to say" decision. */
export const noOpinion: Decision = Object.freeze({ decision: 'no-opinion', reason: '' });

/** The shared "allowed, no reason" decision. */
export const allowed: Decision = Object.freeze({ decision: 'allow', reason: '' });
