// Whether one set of rules covers another, kube-apiserver 1.28's pkg/registry/rbac/validation
// (Covers, BreakdownRule, ruleCovers, CompactRules) and rbacv1helpers.CompactString: the basis of
// escalation prevention and of `auth reconcile`.
import { all, nonResourceUrlCovers, policyRule, type PolicyRule } from './policy-rule.ts';
import { goQuoteList } from '../go-format.ts';

/** Splits a rule into rules of one group, resource, verb and at most one name (and URL + verb ones). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups) {
    for (const resource of rule.resources) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames.length === 0) out.push(policyRule({ apiGroups: [group], resources: [resource], verbs: [verb] }));
        else for (const name of rule.resourceNames) out.push(policyRule({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] }));
      }
    }
  }
  for (const url of rule.nonResourceURLs) for (const verb of rule.verbs) out.push(policyRule({ nonResourceURLs: [url], verbs: [verb] }));
  return out;
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) => set.includes(w));
}

// `*/scale` in the owner covers `deployments/scale`; `*` covers everything.
function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(all) || hasAll(owner, wanted)) return true;
  return wanted.every((path) => {
    if (owner.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owner.includes(`*/${path.slice(slash + 1)}`);
  });
}

/** Whether the owner rule covers the (broken-down) sub-rule (kube's ruleCovers). */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(all) || hasAll(owner.verbs, sub.verbs);
  const groups = owner.apiGroups.includes(all) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourcesCover(owner.resources, sub.resources);
  const urls = sub.nonResourceURLs.every((u) => owner.nonResourceURLs.some((o) => nonResourceUrlCovers(o, u)));
  const names = sub.resourceNames.length === 0 ? owner.resourceNames.length === 0 : owner.resourceNames.length === 0 || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && urls && names;
}

/** Whether `owner` rules cover every `servant` rule; the uncovered broken-down rules otherwise. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of servant) for (const sub of breakdownRule(rule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  return { covered: missing.length === 0, missing };
}

/** Merges rules of one group and resource (and at most one name) that differ only by verb (kube's CompactRules). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, { rule: PolicyRule; verbs: string[] }>();
  for (const r of rules) {
    const isSimple = r.resourceNames.length <= 1 && r.nonResourceURLs.length === 0 && r.apiGroups.length === 1 && r.resources.length === 1;
    if (!isSimple) {
      compacted.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames.length > 0, r.resourceNames[0] ?? '']);
    const existing = simple.get(key);
    if (existing === undefined) simple.set(key, { rule: r, verbs: [...r.verbs] });
    else existing.verbs.push(...r.verbs);
  }
  for (const { rule, verbs } of simple.values()) compacted.push({ ...rule, verbs });
  return compacted;
}

/** A rule as kube prints it in escalation errors: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups.length > 0) parts.push(`APIGroups:${goQuoteList(rule.apiGroups)}`);
  if (rule.resources.length > 0) parts.push(`Resources:${goQuoteList(rule.resources)}`);
  if (rule.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs)}`);
  if (rule.resourceNames.length > 0) parts.push(`ResourceNames:${goQuoteList(rule.resourceNames)}`);
  if (rule.verbs.length > 0) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
