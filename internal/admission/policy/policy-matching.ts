// Whether a request falls under a policy's matchConstraints or a binding's matchResources (kube's
// validatingadmissionpolicy/matching): the namespace and object selectors, then the exclude rules,
// then the resource rules (with resourceNames, and with matchPolicy Equivalent the request's other
// group-versions); a selector's error counts only when the rules match.
import { StatusError } from '../../registry/errors/status-error.ts';
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from '../attributes.ts';
import type { ObjectReader } from '../plugin.ts';
import type { EquivalentResources } from '../webhook/equivalents.ts';
import { ruleMatches } from '../webhook/rules.ts';
import { matchNamespaceSelector, matchObjectSelector } from '../webhook/selectors.ts';
import type { MatchResources, NamedRule } from './policy-types.ts';

/** What matching reads besides the request. */
export interface MatchingDeps {
  readonly objects: ObjectReader;
  readonly equivalents: EquivalentResources;
}

/** The verdict: no match; a match as the resource and kind the policy sees the request as; or a configuration error. */
export type MatchVerdict =
  | { readonly matches: false }
  | { readonly matches: true; readonly resource: GroupVersionResource; readonly kind: GroupVersionKind }
  | { readonly error: Error };

const noMatch: MatchVerdict = { matches: false };

function nameMatches(rule: NamedRule, attributes: AdmissionAttributes): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(attributes.name);
}

function same(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

/** kube's matchesResourceRules: the requested resource first, then (Equivalent) its equivalents. */
function matchRules(rules: readonly NamedRule[], matchPolicy: string | undefined, attributes: AdmissionAttributes, equivalents: EquivalentResources): MatchVerdict {
  for (const rule of rules) {
    if (ruleMatches(rule, attributes) && nameMatches(rule, attributes)) return { matches: true, resource: attributes.resource, kind: attributes.kind };
  }
  if (matchPolicy !== 'Equivalent') return noMatch;
  const candidates = equivalents.equivalentResourcesFor(attributes.resource, attributes.subresource).filter((r) => !same(r, attributes.resource));
  for (const rule of rules) {
    for (const resource of candidates) {
      if (!ruleMatches(rule, { ...attributes, resource })) continue;
      const kind = equivalents.kindFor(resource, attributes.subresource);
      if (kind === undefined) return { error: new Error(`unable to convert to ${resource.group}/${resource.version}, Resource=${resource.resource}: unknown kind`) };
      if (nameMatches(rule, attributes)) return { matches: true, resource, kind };
    }
  }
  return noMatch;
}

/** Whether the request matches `criteria` (an absent or null criteria matches everything: a binding without matchResources). */
export async function matchCriteria(criteria: MatchResources | null | undefined, attributes: AdmissionAttributes, deps: MatchingDeps): Promise<MatchVerdict> {
  if (criteria === undefined || criteria === null) return { matches: true, resource: attributes.resource, kind: attributes.kind };
  const selectors = { name: '', clientConfig: {}, namespaceSelector: criteria.namespaceSelector, objectSelector: criteria.objectSelector };
  const namespaceMatch = await matchNamespaceSelector(selectors, attributes, deps.objects);
  if (namespaceMatch === false) return noMatch;
  if (!matchObjectSelector(selectors, attributes)) return noMatch;
  const excluded = matchRules(criteria.excludeResourceRules ?? [], criteria.matchPolicy, attributes, deps.equivalents);
  if ('error' in excluded) return excluded;
  if (excluded.matches) return noMatch;
  const rules = criteria.resourceRules ?? [];
  const verdict = rules.length === 0 ? ({ matches: true, resource: attributes.resource, kind: attributes.kind } as const) : matchRules(rules, criteria.matchPolicy, attributes, deps.equivalents);
  if ('error' in verdict || !verdict.matches) return verdict;
  if (namespaceMatch instanceof StatusError) return { error: namespaceMatch };
  return verdict;
}
