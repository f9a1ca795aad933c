import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { validateLabelSelector } from '../schema/label-selectors.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { validatePolicyRules } from './rbac-validation.ts';

/** ValidateClusterRole's aggregationRule: at least one selector, each a valid label selector. */
function validateAggregationRule(o: KObject): FieldError[] {
  const rule = o.aggregationRule as { clusterRoleSelectors?: unknown } | undefined;
  if (rule === undefined || rule === null) return [];
  const at = 'aggregationRule.clusterRoleSelectors';
  const selectors = Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : [];
  if (selectors.length === 0) return [required(at, 'at least one clusterRoleSelector required if aggregationRule is non-nil')];
  return selectors.flatMap((s, i) => (typeof s === 'object' && s !== null ? validateLabelSelector(s, `${at}[${i}]`) : [invalidValue(`${at}[${i}]`, s, 'invalid label selector.')]));
}

/**
 * ClusterRoles (rbac.authorization.<domain>/v1): cluster-wide policy rules, optionally aggregated
 * from other ClusterRoles by label. kube-apiserver 1.28: pkg/registry/rbac/clusterrole/strategy.go,
 * ValidateClusterRole (rules may name non-resource URLs here).
 */
export const clusterroles: ResourceDeclaration = {
  group: 'rbac.authorization',
  groupQualified: true,
  version: 'v1',
  kind: 'ClusterRole',
  plural: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  nameRule: 'path-segment',
  description: 'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
  fields: builtinFields('io.k8s.api.rbac.v1.ClusterRole'),
  required: builtinRequired('io.k8s.api.rbac.v1.ClusterRole'),
  strategy: {
    allowCreateOnUpdate: true,
    validate: (o) => [...validatePolicyRules(o, false), ...validateAggregationRule(o)],
  },
};
