// Matching a FlowSchema's rules against a request, as kube-apiserver 1.28 does
// (k8s.io/apiserver/pkg/util/flowcontrol/rule.go): a rule matches when one of its subjects is the
// requester and one of its resource rules (a resource request) or non-resource rules (a
// non-resource request) covers the request. A wildcard ("*") in a list of verbs, groups,
// resources or namespaces counts only as the list's one member (validation keeps it alone), as
// kube's containsString does.
import { obj, strings } from '../registry/flowcontrol/values.ts';
import type { RequestDigest } from './types.ts';

/** A FlowSchema subject (spec.rules[].subjects[]): exactly one of user, group, serviceAccount by kind. */
export interface Subject {
  readonly kind: string;
  readonly user?: { readonly name: string };
  readonly group?: { readonly name: string };
  readonly serviceAccount?: { readonly namespace: string; readonly name: string };
}

/** A ResourcePolicyRule (spec.rules[].resourceRules[]). */
export interface ResourcePolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  /** Resource names, `resource/subresource`, or "*". */
  readonly resources: readonly string[];
  /** Whether the rule covers cluster-scoped requests (those with no namespace). */
  readonly clusterScope: boolean;
  readonly namespaces: readonly string[];
}

/** A NonResourcePolicyRule (spec.rules[].nonResourceRules[]). */
export interface NonResourcePolicyRule {
  readonly verbs: readonly string[];
  /** Exact paths, "*", or prefixes ending in "/*". */
  readonly nonResourceURLs: readonly string[];
}

/** One PolicyRulesWithSubjects (spec.rules[]). */
export interface PolicyRule {
  readonly subjects: readonly Subject[];
  readonly resourceRules: readonly ResourcePolicyRule[];
  readonly nonResourceRules: readonly NonResourcePolicyRule[];
}

const serviceAccountPrefix = 'system:serviceaccount:';

function name(v: unknown): { name: string } | undefined {
  const o = obj(v);
  return typeof o.name === 'string' ? { name: o.name } : undefined;
}

function parseSubject(v: unknown): Subject {
  const o = obj(v);
  const sa = obj(o.serviceAccount);
  const user = name(o.user);
  const group = name(o.group);
  return {
    kind: typeof o.kind === 'string' ? o.kind : '',
    ...(user ? { user } : {}),
    ...(group ? { group } : {}),
    ...(typeof sa.name === 'string' && typeof sa.namespace === 'string' ? { serviceAccount: { namespace: sa.namespace, name: sa.name } } : {}),
  };
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** spec.rules of a (v1beta3) FlowSchema's JSON; what is missing or malformed reads as empty. */
export function parsePolicyRules(spec: unknown): PolicyRule[] {
  return list(obj(spec).rules).map((r) => {
    const rule = obj(r);
    return {
      subjects: list(rule.subjects).map(parseSubject),
      resourceRules: list(rule.resourceRules).map((x) => {
        const rr = obj(x);
        return { verbs: strings(rr.verbs), apiGroups: strings(rr.apiGroups), resources: strings(rr.resources), clusterScope: rr.clusterScope === true, namespaces: strings(rr.namespaces) };
      }),
      nonResourceRules: list(rule.nonResourceRules).map((x) => {
        const nr = obj(x);
        return { verbs: strings(nr.verbs), nonResourceURLs: strings(nr.nonResourceURLs) };
      }),
    };
  });
}

/** Whether `list` holds `x`, or is just the wildcard (kube's containsString). */
function containsOrAll(x: string, list: readonly string[], wildcard: string): boolean {
  return (list.length === 1 && list[0] === wildcard) || list.includes(x);
}

/** Whether `username` is a service account's of `namespace` (any name). */
function isServiceAccountIn(namespace: string, username: string): boolean {
  return username.startsWith(`${serviceAccountPrefix}${namespace}:`);
}

/** Whether the subject names the requester. */
export function matchesSubject(user: RequestDigest['user'], subject: Subject): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.user !== undefined && (subject.user.name === '*' || subject.user.name === user.username);
    case 'Group':
      return subject.group !== undefined && (subject.group.name === '*' || user.groups.includes(subject.group.name));
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (sa === undefined) return false;
      if (sa.name === '*') return isServiceAccountIn(sa.namespace, user.username);
      return user.username === `${serviceAccountPrefix}${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

/** Whether a resource rule covers a resource request. */
export function matchesResourceRule(request: NonNullable<RequestDigest['resource']>, rule: ResourcePolicyRule): boolean {
  if (!containsOrAll(request.verb, rule.verbs, '*')) return false;
  const resource = request.subresource === '' ? request.resource : `${request.resource}/${request.subresource}`;
  if (!containsOrAll(resource, rule.resources, '*')) return false;
  if (!containsOrAll(request.apiGroup, rule.apiGroups, '*')) return false;
  if (request.namespace === '') return rule.clusterScope;
  return containsOrAll(request.namespace, rule.namespaces, '*');
}

/**
 * Whether one of `urls` covers `path`: "*", the path itself, or a prefix. As kube, a URL's
 * trailing "*" is dropped and a "/" added when missing, so "/apis/*" and "/apis" both cover
 * "/apis/x" (but not "/apis" itself for the former, nor "/apisx").
 */
export function matchesNonResourceURL(urls: readonly string[], path: string): boolean {
  for (const url of urls) {
    if (url === '*' || url === path) return true;
    let prefix = url.endsWith('*') ? url.slice(0, -1) : url;
    if (!prefix.endsWith('/')) prefix += '/';
    if (path.startsWith(prefix)) return true;
  }
  return false;
}

/** Whether a non-resource rule covers a non-resource request. */
export function matchesNonResourceRule(request: NonNullable<RequestDigest['nonResource']>, rule: NonResourcePolicyRule): boolean {
  return containsOrAll(request.verb, rule.verbs, '*') && matchesNonResourceURL(rule.nonResourceURLs, request.path);
}

/** Whether the rule matches: one subject is the requester, and one resource (or non-resource) rule covers the request. */
export function matchesPolicyRule(digest: RequestDigest, rule: PolicyRule): boolean {
  if (!rule.subjects.some((s) => matchesSubject(digest.user, s))) return false;
  const resource = digest.resource;
  if (resource !== undefined) return rule.resourceRules.some((r) => matchesResourceRule(resource, r));
  const nonResource = digest.nonResource;
  return nonResource !== undefined && rule.nonResourceRules.some((r) => matchesNonResourceRule(nonResource, r));
}

/** Whether any of a FlowSchema's rules matches the request (kube's matchesFlowSchema). */
export function matchesPolicyRules(digest: RequestDigest, rules: readonly PolicyRule[]): boolean {
  return rules.some((rule) => matchesPolicyRule(digest, rule));
}
