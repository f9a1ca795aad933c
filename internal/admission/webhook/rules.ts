// Whether a request matches one webhook rule (kube's predicates/rules Matcher): scope, operation,
// group, version and resource with its sub-resource, each exact or `*`.
import type { GroupVersionResource, Operation } from '../attributes.ts';
import type { WebhookRule } from './webhook-types.ts';

/** The parts of a request a rule looks at; `resource` may be an equivalent of the requested one. */
export interface RuleTarget {
  readonly operation: Operation;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  /** '' for cluster-scoped resources. */
  readonly namespace: string;
}

function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  return (items ?? []).some((item) => item === '*' || item === requested);
}

function isNamespaceResource(r: GroupVersionResource): boolean {
  return r.group === '' && r.version === 'v1' && r.resource === 'namespaces';
}

/** Namespace objects are cluster-scoped even when the request carries their name as namespace. */
function scopeMatches(scope: string | undefined, target: RuleTarget): boolean {
  if (scope === undefined || scope === '*') return true;
  if (scope === 'Namespaced') return !isNamespaceResource(target.resource) && target.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(target.resource) || target.namespace === '';
  return false;
}

/** `pods` matches the main resource only, `pods/*` it and every sub-resource, `*` every main resource (kube's splitResource match). */
function resourceMatches(resources: readonly string[] | undefined, target: RuleTarget): boolean {
  return (resources ?? []).some((item) => {
    const slash = item.indexOf('/');
    const resource = slash < 0 ? item : item.slice(0, slash);
    const subresource = slash < 0 ? '' : item.slice(slash + 1);
    return (resource === '*' || resource === target.resource.resource) && (subresource === '*' || subresource === target.subresource);
  });
}

/** Whether `target` matches `rule`. */
export function ruleMatches(rule: WebhookRule, target: RuleTarget): boolean {
  return (
    scopeMatches(rule.scope, target) &&
    (rule.operations ?? []).some((op) => op === '*' || op === target.operation) &&
    exactOrWildcard(rule.apiGroups, target.resource.group) &&
    exactOrWildcard(rule.apiVersions, target.resource.version) &&
    resourceMatches(rule.resources, target)
  );
}
