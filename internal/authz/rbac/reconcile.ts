// Reconciliation of RBAC objects with their expected form, kube-apiserver 1.28's
// pkg/registry/rbac/reconciliation (computeReconciledRole, computeReconciledRoleBinding), used for
// the bootstrap policy at start and by `kubectl auth reconcile`: missing rules, selectors and
// subjects are added, extra ones kept (unless asked to remove them), expected labels and
// annotations merged in; an object annotated `rbac.authorization.kubernetes.io/autoupdate: "false"`
// is protected and left as it is.
import { covers } from './covers.ts';
import { policyRuleToJson, rulesOf } from './policy-rule.ts';
import { autoupdateAnnotation } from './rbac-objects.ts';
import { semanticEqual } from './semantic-equal.ts';

type KObject = Record<string, unknown>;

/** What to do with the object: nothing, create it, update it, or delete and create it (a binding's roleRef changed). */
export type ReconcileOperation = 'none' | 'create' | 'update' | 'recreate';

/** The outcome: the object to write and whether to write it. */
export interface ReconcileResult {
  readonly operation: ReconcileOperation;
  /** The existing object carries autoupdate "false": it is not written even when it differs. */
  readonly protected: boolean;
  readonly object: KObject;
  /** Whether the caller should write `object` (an operation other than none, on an unprotected object). */
  readonly shouldWrite: boolean;
}

function meta(o: KObject): Record<string, unknown> {
  return (o.metadata ?? {}) as Record<string, unknown>;
}

function stringMap(v: unknown): Record<string, string> {
  return typeof v === 'object' && v !== null ? (v as Record<string, string>) : {};
}

function result(operation: ReconcileOperation, isProtected: boolean, object: KObject): ReconcileResult {
  return { operation, protected: isProtected, object, shouldWrite: operation !== 'none' && !isProtected };
}

// Copies the existing object with expected labels and annotations merged in (existing values win); reports whether that changed it.
function mergedMetadata(expected: KObject, existing: KObject): { object: KObject; changed: boolean } {
  const m = meta(existing);
  const annotations = { ...stringMap(meta(expected).annotations), ...stringMap(m.annotations) };
  const labels = { ...stringMap(meta(expected).labels), ...stringMap(m.labels) };
  const changed = !semanticEqual(annotations, m.annotations) || !semanticEqual(labels, m.labels);
  return { object: { ...structuredClone(existing), metadata: { ...structuredClone(m), annotations, labels } }, changed };
}

function isProtected(existing: KObject): boolean {
  return stringMap(meta(existing).annotations)[autoupdateAnnotation] === 'false';
}

function selectors(o: KObject): unknown[] | null {
  const rule = o.aggregationRule as { clusterRoleSelectors?: unknown } | undefined | null;
  if (rule === undefined || rule === null) return null;
  return Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : [];
}

// The selectors of `servant` that `owner` lacks (kube's aggregationRuleCovers).
function missingSelectors(owner: unknown[] | null, servant: unknown[] | null): unknown[] {
  if (servant === null) return [];
  if (owner === null) return servant;
  return servant.filter((s) => !owner.some((o) => semanticEqual(o, s)));
}

/** Reconciles a Role or ClusterRole with its expected form. */
export function reconcileRole(expected: KObject, existing: KObject | undefined, options: { removeExtraPermissions?: boolean } = {}): ReconcileResult {
  if (existing === undefined) return result('create', false, structuredClone(expected));
  const remove = options.removeExtraPermissions === true;
  const { object, changed } = mergedMetadata(expected, existing);
  let operation: ReconcileOperation = changed ? 'update' : 'none';
  const expectedRules = rulesOf(expected);
  const existingRules = rulesOf(existing);
  // Two aggregated roles: the rules are the controller's business, extra ones are expected.
  const extra = selectors(expected) === null || selectors(existing) === null ? covers(expectedRules, existingRules).missing : [];
  const missing = covers(existingRules, expectedRules).missing;
  if (!remove && missing.length > 0) {
    object.rules = [...(Array.isArray(existing.rules) ? structuredClone(existing.rules) : []), ...missing.map(policyRuleToJson)];
    operation = 'update';
  } else if (remove && (missing.length > 0 || extra.length > 0)) {
    object.rules = structuredClone(expected.rules ?? []);
    operation = 'update';
  }
  const expectedSelectors = selectors(expected);
  const existingSelectors = selectors(existing);
  const missingSel = missingSelectors(existingSelectors, expectedSelectors);
  const extraSel = missingSelectors(expectedSelectors, existingSelectors);
  if (expectedSelectors === null && existingSelectors !== null) {
    delete object.aggregationRule;
    operation = 'update';
  } else if (!remove && missingSel.length > 0) {
    object.aggregationRule = { clusterRoleSelectors: [...(existingSelectors ?? []), ...structuredClone(missingSel)] };
    operation = 'update';
  } else if (remove && (missingSel.length > 0 || extraSel.length > 0)) {
    object.aggregationRule = structuredClone(expected.aggregationRule);
    operation = 'update';
  }
  return result(operation, isProtected(existing), object);
}

function roleRefKey(o: KObject): string {
  const r = (o.roleRef ?? {}) as Record<string, unknown>;
  return JSON.stringify([r.apiGroup ?? '', r.kind ?? '', r.name ?? '']);
}

function subjectsOf(o: KObject): Record<string, unknown>[] {
  return Array.isArray(o.subjects) ? (o.subjects as Record<string, unknown>[]) : [];
}

function sameSubject(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return ['kind', 'apiGroup', 'name', 'namespace'].every((k) => (a[k] ?? '') === (b[k] ?? ''));
}

/** Reconciles a RoleBinding or ClusterRoleBinding with its expected form; a different roleRef means recreate. */
export function reconcileBinding(expected: KObject, existing: KObject | undefined, options: { removeExtraSubjects?: boolean } = {}): ReconcileResult {
  if (existing === undefined) return result('create', false, structuredClone(expected));
  if (roleRefKey(expected) !== roleRefKey(existing)) return result('recreate', isProtected(existing), structuredClone(expected));
  const { object, changed } = mergedMetadata(expected, existing);
  let operation: ReconcileOperation = changed ? 'update' : 'none';
  const want = subjectsOf(expected);
  const have = subjectsOf(existing);
  const missing = want.filter((s) => !have.some((h) => sameSubject(h, s)));
  const extra = have.filter((h) => !want.some((s) => sameSubject(h, s)));
  if (options.removeExtraSubjects !== true && missing.length > 0) {
    object.subjects = [...structuredClone(have), ...structuredClone(missing)];
    operation = 'update';
  } else if (options.removeExtraSubjects === true && (missing.length > 0 || extra.length > 0)) {
    object.subjects = structuredClone(want);
    operation = 'update';
  }
  return result(operation, isProtected(existing), object);
}
