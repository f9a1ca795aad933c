// SetDefaults_ValidatingAdmissionPolicySpec, SetDefaults_MatchResources, SetDefaults_ParamRef and SetDefaults_NamedRule
// of kube-apiserver 1.28's admissionregistration/v1alpha1 and v1beta1 (the same in both): what a
// stored policy or binding always carries, so the admission plugin never guesses at an absent field.
import type { KObject } from '../schema/declaration.ts';

type Entry = Record<string, unknown>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: unknown): Entry[] {
  return Array.isArray(value) ? value.filter(isEntry) : [];
}

/**
 * Removes every `null` member of the objects in `value` (recursively, through lists): kube decodes
 * a JSON null into a typed field as its zero value (an absent pointer, "", an empty list) and
 * never stores it, so `messageExpression: null` or `paramRef: null` is the field not given.
 */
export function dropNullMembers(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) dropNullMembers(item);
    return;
  }
  if (!isEntry(value)) return;
  for (const [key, member] of Object.entries(value)) {
    if (member === null) delete value[key];
    else dropNullMembers(member);
  }
}

/** Fills a MatchResources' defaults in place: matchPolicy Equivalent, empty selectors, rule scope `*`. */
export function defaultMatchResources(match: Entry): void {
  match.matchPolicy ??= 'Equivalent';
  match.namespaceSelector ??= {};
  match.objectSelector ??= {};
  for (const rule of [...entries(match.resourceRules), ...entries(match.excludeResourceRules)]) rule.scope ??= '*';
}

/** Fills a ValidatingAdmissionPolicy's defaults in place (its spec's nulls dropped first): failurePolicy Fail and its matchConstraints'. */
export function defaultValidatingAdmissionPolicy(obj: KObject): void {
  if (!isEntry(obj.spec)) return;
  dropNullMembers(obj.spec);
  obj.spec.failurePolicy ??= 'Fail';
  if (isEntry(obj.spec.matchConstraints)) defaultMatchResources(obj.spec.matchConstraints);
}

/** Fills a ValidatingAdmissionPolicyBinding's defaults in place (its spec's nulls dropped first): its matchResources', paramRef's parameterNotFoundAction Deny. */
export function defaultValidatingAdmissionPolicyBinding(obj: KObject): void {
  if (!isEntry(obj.spec)) return;
  dropNullMembers(obj.spec);
  if (isEntry(obj.spec.matchResources)) defaultMatchResources(obj.spec.matchResources);
  if (isEntry(obj.spec.paramRef)) obj.spec.paramRef.parameterNotFoundAction ??= 'Deny';
}
