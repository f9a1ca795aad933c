// RBAC policy rules and how a request matches one, exactly as kube-apiserver 1.28's RuleAllows and
// the rbac/v1 helpers (VerbMatches, APIGroupMatches, ResourceMatches, ResourceNameMatches,
// NonResourceURLMatches) decide.
import type { Attributes } from '../authorizer.ts';

/** A rule of a Role or ClusterRole, every list present (absent lists read as empty). */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** The wildcard of verbs, groups, resources and URLs. */
export const all = '*';

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A rule read from stored JSON, tolerant of missing or malformed lists (the registry validated it). */
export function policyRuleFromJson(value: unknown): PolicyRule {
  const r = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { verbs: strings(r.verbs), apiGroups: strings(r.apiGroups), resources: strings(r.resources), resourceNames: strings(r.resourceNames), nonResourceURLs: strings(r.nonResourceURLs) };
}

/** The rules of a Role or ClusterRole object (`rules: null` reads as none). */
export function rulesOf(object: { rules?: unknown }): PolicyRule[] {
  return Array.isArray(object.rules) ? object.rules.map(policyRuleFromJson) : [];
}

/** A rule as JSON, the empty lists left out as the API prints them. */
export function policyRuleToJson(rule: PolicyRule): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (rule.apiGroups.length > 0) out.apiGroups = [...rule.apiGroups];
  if (rule.nonResourceURLs.length > 0) out.nonResourceURLs = [...rule.nonResourceURLs];
  if (rule.resourceNames.length > 0) out.resourceNames = [...rule.resourceNames];
  if (rule.resources.length > 0) out.resources = [...rule.resources];
  out.verbs = [...rule.verbs];
  return out;
}

/** A rule from partial lists. */
export function policyRule(parts: Partial<PolicyRule>): PolicyRule {
  return { verbs: parts.verbs ?? [], apiGroups: parts.apiGroups ?? [], resources: parts.resources ?? [], resourceNames: parts.resourceNames ?? [], nonResourceURLs: parts.nonResourceURLs ?? [] };
}

/** Whether the rule names the verb or `*`. */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === all || v === verb);
}

/** Whether the rule names the group or `*` ('' is the core group). */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return rule.apiGroups.some((g) => g === all || g === group);
}

/**
 * Whether the rule names the resource: `*` (sub-resources included), the exact `resource` or
 * `resource/subresource`, or `*` + `/subresource` for a sub-resource request. `pods/*` is not a
 * wildcard in kube, only a literal name.
 */
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  for (const r of rule.resources) {
    if (r === all || r === combinedResource) return true;
    if (subresource === '') continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** Whether the name is allowed: a rule without resourceNames allows every name, one with them only those (never '' — a list or create). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(name);
}

/** Whether `ruleUrl` covers `path`: equal, `*`, or a trailing-`*` prefix (`/healthz/*` covers `/healthz/etcd`, not `/healthz`). */
export function nonResourceUrlCovers(ruleUrl: string, path: string): boolean {
  if (ruleUrl === all || ruleUrl === path) return true;
  return ruleUrl.endsWith('*') && path.startsWith(ruleUrl.replace(/\*+$/, ''));
}

/** Whether the rule names the non-resource path. */
export function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return rule.nonResourceURLs.some((u) => nonResourceUrlCovers(u, path));
}

/** Whether one rule allows the request (kube's RuleAllows). */
export function ruleAllows(attributes: Attributes, rule: PolicyRule): boolean {
  if (!attributes.resourceRequest) return verbMatches(rule, attributes.verb) && nonResourceUrlMatches(rule, attributes.path);
  const combined = attributes.subresource === '' ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  return (
    verbMatches(rule, attributes.verb) &&
    apiGroupMatches(rule, attributes.apiGroup) &&
    resourceMatches(rule, combined, attributes.subresource) &&
    resourceNameMatches(rule, attributes.name)
  );
}
