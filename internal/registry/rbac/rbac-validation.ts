// What RBAC objects share, as kube-apiserver 1.28 validates and defaults them
// (pkg/apis/rbac/validation/validation.go, pkg/apis/rbac/v1/defaults.go) and prints bindings
// (pkg/printers/internalversion/printers.go). Authorization by them is another layer's job.
import type { KObject, PrinterColumn } from '../schema/declaration.ts';
import { invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { dns1123Subdomain, pathSegmentName } from '../schema/name-validation.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';

interface PolicyRule {
  verbs?: unknown[];
  apiGroups?: unknown[];
  resources?: unknown[];
  resourceNames?: unknown[];
  nonResourceURLs?: unknown[];
}

interface Subject {
  kind?: unknown;
  apiGroup?: unknown;
  name?: unknown;
  namespace?: unknown;
}

const count = (list: unknown): number => (Array.isArray(list) ? list.length : 0);

/** The RBAC group as served (`rbac.authorization.<domain>`), read from the object's apiVersion. */
export function rbacGroupOf(o: KObject): string {
  return String(o.apiVersion ?? '').split('/')[0] ?? '';
}

/** ValidatePolicyRule for each of `rules`; namespaced rules may not name non-resource URLs. */
export function validatePolicyRules(o: KObject, namespaced: boolean): FieldError[] {
  const rules = Array.isArray(o.rules) ? (o.rules as PolicyRule[]) : [];
  return rules.flatMap((rule, i) => {
    const at = `rules[${i}]`;
    const errors: FieldError[] = [];
    if (count(rule.verbs) === 0) errors.push(required(`${at}.verbs`, 'verbs must contain at least one value'));
    if (count(rule.nonResourceURLs) > 0) {
      if (namespaced) errors.push(invalidValue(`${at}.nonResourceURLs`, rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
      if (count(rule.apiGroups) > 0 || count(rule.resources) > 0 || count(rule.resourceNames) > 0) {
        errors.push(invalidValue(`${at}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
      }
      return errors;
    }
    if (count(rule.apiGroups) === 0) errors.push(required(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
    if (count(rule.resources) === 0) errors.push(required(`${at}.resources`, 'resource rules must supply at least one resource'));
    return errors;
  });
}

/** SetDefaults_RoleBinding/ClusterRoleBinding and SetDefaults_Subject: the API groups left out. */
export function defaultBinding(o: KObject): void {
  const group = rbacGroupOf(o);
  const roleRef = o.roleRef as Record<string, unknown> | undefined;
  if (typeof roleRef === 'object' && roleRef !== null && (roleRef.apiGroup === undefined || roleRef.apiGroup === '')) roleRef.apiGroup = group;
  for (const s of Array.isArray(o.subjects) ? (o.subjects as Subject[]) : []) {
    if (typeof s !== 'object' || s === null || (s.apiGroup !== undefined && s.apiGroup !== '')) continue;
    // A ServiceAccount's group is the empty string, which Go's omitempty leaves off the wire.
    if (s.kind === 'ServiceAccount') delete s.apiGroup;
    else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = group;
  }
}

function validateSubject(s: Subject, at: string, namespaced: boolean, group: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = typeof s.name === 'string' ? s.name : '';
  if (name === '') errors.push(required(`${at}.name`));
  if (s.kind === 'ServiceAccount') {
    if (name !== '') for (const p of dns1123Subdomain(name)) errors.push(invalidValue(`${at}.name`, name, p));
    if (s.apiGroup !== undefined && s.apiGroup !== '') errors.push(notSupported(`${at}.apiGroup`, s.apiGroup, ['']));
    if (!namespaced && (s.namespace === undefined || s.namespace === '')) errors.push(required(`${at}.namespace`));
  } else if (s.kind === 'User' || s.kind === 'Group') {
    if (s.apiGroup !== group) errors.push(notSupported(`${at}.apiGroup`, s.apiGroup ?? '', [group]));
  } else {
    errors.push(notSupported(`${at}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errors;
}

/**
 * ValidateRoleBinding/ClusterRoleBinding: a roleRef of the RBAC group naming a role of an allowed
 * kind (Role or ClusterRole in a namespace, ClusterRole only cluster-wide), valid subjects.
 */
export function validateBinding(o: KObject, namespaced: boolean): FieldError[] {
  const group = rbacGroupOf(o);
  const errors: FieldError[] = [];
  const apiGroup = field(o, 'roleRef.apiGroup') ?? '';
  if (apiGroup !== group) errors.push(notSupported('roleRef.apiGroup', apiGroup, [group]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = field(o, 'roleRef.kind') ?? '';
  if (!kinds.includes(kind as string)) errors.push(notSupported('roleRef.kind', kind, kinds));
  const name = field(o, 'roleRef.name');
  if (typeof name !== 'string' || name === '') errors.push(required('roleRef.name'));
  else for (const p of pathSegmentName(name)) errors.push(invalidValue('roleRef.name', name, p));
  const subjects = Array.isArray(o.subjects) ? (o.subjects as Subject[]) : [];
  subjects.forEach((s, i) => errors.push(...validateSubject(s ?? {}, `subjects[${i}]`, namespaced, group)));
  return errors;
}

/** A binding's roleRef may not change (ValidateRoleBindingUpdate). */
export function validateRoleRefUnchanged(o: KObject, old: KObject): FieldError[] {
  const ref = (x: KObject): string => JSON.stringify(['apiGroup', 'kind', 'name'].map((k) => field(x, `roleRef.${k}`) ?? ''));
  return ref(o) === ref(old) ? [] : [invalidValue('roleRef', o.roleRef ?? null, 'cannot change roleRef')];
}

function subjectNames(o: KObject, kind: string): string {
  const subjects = Array.isArray(o.subjects) ? (o.subjects as Subject[]) : [];
  return subjects
    .filter((s) => s?.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${String(s.namespace ?? '')}/${String(s.name ?? '')}` : String(s.name ?? '')))
    .join(', ');
}

/** The columns of RoleBindings and ClusterRoleBindings: Role (`Kind/name`), Age, and the subjects (wide). */
export function bindingColumns(what: string): readonly PrinterColumn[] {
  return [
    nameColumn,
    { name: 'Role', type: 'string', description: 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.', cell: (o) => `${String(field(o, 'roleRef.kind') ?? '')}/${String(field(o, 'roleRef.name') ?? '')}` },
    ageColumn,
    { name: 'Users', type: 'string', priority: 1, description: `Users in the ${what}`, cell: (o) => subjectNames(o, 'User') },
    { name: 'Groups', type: 'string', priority: 1, description: `Groups in the ${what}`, cell: (o) => subjectNames(o, 'Group') },
    { name: 'ServiceAccounts', type: 'string', priority: 1, description: `ServiceAccounts in the ${what}`, cell: (o) => subjectNames(o, 'ServiceAccount') },
  ];
}
