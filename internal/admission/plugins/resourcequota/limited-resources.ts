// What the configuration's limitedResources demand of one object (filterLimitedResourcesByGroupResource,
// limitedByDefault, getMatchedLimitedScopes): the usage names that must be covered by some quota,
// and the scopes that must be.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { matchingScopes, type QuotaEvaluator, type ScopeRequirement } from '../../../quota/evaluator.ts';
import type { LimitedResource } from './configuration.ts';

/** The usage names (consumed above zero) that a limited entry for this group/resource matches by substring. */
export function limitedNames(evaluator: QuotaEvaluator, object: KObject, limited: readonly LimitedResource[], nowMs: number): Set<string> {
  const mine = limited.filter((l) => l.apiGroup === evaluator.group && l.resource === evaluator.resource);
  const names = new Set<string>();
  if (mine.length === 0) return names;
  const usage = evaluator.usage(object, nowMs);
  for (const entry of mine) {
    for (const [name, value] of usage) {
      if (value.units > 0n && entry.matchContains.some((part) => name.includes(part))) names.add(name);
    }
  }
  return names;
}

/** The configured scopes the object is in (every entry's matchScopes, whatever its resource, as kube). */
export function limitedScopes(evaluator: QuotaEvaluator, object: KObject, limited: readonly LimitedResource[]): ScopeRequirement[] {
  return limited.flatMap((l) => matchingScopes(evaluator, object, l.matchScopes));
}
