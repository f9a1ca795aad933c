// Which level a request is audited at (k8s.io/apiserver pkg/audit/policy checker.go): the rules
// are tried in order and the first that matches decides; no match is level None with the policy's
// own stages and managed-fields setting.
import type { UserInfo } from '../authn/user-info.ts';
import type { Attributes } from '../authz/authorizer.ts';
import type { AuditConfig, Policy, PolicyRule } from './policy.ts';

/** A request as the policy sees it: authorization's attributes, with no user when authentication failed. */
export type AuditAttributes = Omit<Attributes, 'user'> & { readonly user: UserInfo | undefined };

/** The level, stages to omit and managed-fields setting of the first rule matching `attributes`. */
export function evaluatePolicy(policy: Policy, attributes: AuditAttributes): AuditConfig {
  for (const r of policy.rules) {
    if (ruleMatches(r, attributes)) return { level: r.level, omitStages: r.omitStages, omitManagedFields: r.omitManagedFields ?? policy.omitManagedFields };
  }
  return { level: 'None', omitStages: policy.omitStages, omitManagedFields: policy.omitManagedFields };
}

function ruleMatches(r: PolicyRule, attributes: AuditAttributes): boolean {
  const user = attributes.user;
  if (r.users.length > 0 && (user === undefined || !r.users.includes(user.username))) return false;
  if (r.userGroups.length > 0 && (user === undefined || !user.groups.some((g) => r.userGroups.includes(g)))) return false;
  if (r.verbs.length > 0 && !r.verbs.includes(attributes.verb)) return false;
  if (r.namespaces.length > 0 || r.resources.length > 0) return resourceMatches(r, attributes);
  if (r.nonResourceURLs.length > 0) return !attributes.resourceRequest && r.nonResourceURLs.some((spec) => pathMatches(attributes.path, spec));
  return true;
}

/** `*`, the path itself, or a prefix given as `<prefix>*`. */
function pathMatches(path: string, spec: string): boolean {
  return spec === '*' || spec === path || (spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, '')));
}

function resourceMatches(r: PolicyRule, attributes: AuditAttributes): boolean {
  if (!attributes.resourceRequest) return false;
  // Cluster-scoped requests have the namespace "".
  if (r.namespaces.length > 0 && !r.namespaces.includes(attributes.namespace)) return false;
  if (r.resources.length === 0) return true;
  const { resource, subresource, name } = attributes;
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  for (const gr of r.resources) {
    if (gr.group !== attributes.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (subresource !== '' && res.startsWith('*/') && res.slice(2) === subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === resource) return true;
    }
  }
  return false;
}
