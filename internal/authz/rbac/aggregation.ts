// ClusterRole aggregation, as kube-controller-manager 1.28's clusterrole-aggregation controller
// computes it: an aggregated ClusterRole's rules are the rules of every other ClusterRole its
// aggregationRule's selectors match, role by role in name order, each distinct rule once. As kube's
// controller, the caller recomputes every aggregated role on any ClusterRole change (a role whose
// labels changed may have stopped matching).
import { labelSelectorMatches } from '../../registry/schema/label-selectors.ts';
import { semanticEqual } from './semantic-equal.ts';

type KObject = Record<string, unknown>;

function nameOf(o: KObject): string {
  const name = (o.metadata as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : '';
}

function selectorsOf(role: KObject): unknown[] | null {
  const rule = role.aggregationRule as { clusterRoleSelectors?: unknown } | undefined | null;
  if (rule === undefined || rule === null) return null;
  return Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : [];
}

/** The rules (JSON) an aggregated ClusterRole should have, or null when it has no aggregationRule. */
export function aggregatedRules(role: KObject, clusterRoles: Iterable<KObject>): unknown[] | null {
  const selectors = selectorsOf(role);
  if (selectors === null) return null;
  const all = [...clusterRoles].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
  const rules: unknown[] = [];
  for (const selector of selectors) {
    for (const other of all) {
      if (nameOf(other) === nameOf(role)) continue;
      const labels = (other.metadata as { labels?: Record<string, string> } | undefined)?.labels;
      if (!labelSelectorMatches(selector, labels)) continue;
      for (const rule of Array.isArray(other.rules) ? other.rules : []) if (!rules.some((r) => semanticEqual(r, rule))) rules.push(rule);
    }
  }
  return rules;
}

/** The aggregated role with its rules brought up to date, or null when nothing is to change (no aggregationRule, or rules already equal). */
export function aggregationUpdate(role: KObject, clusterRoles: Iterable<KObject>): KObject | null {
  const rules = aggregatedRules(role, clusterRoles);
  if (rules === null || semanticEqual(rules, role.rules)) return null;
  return { ...role, rules };
}

