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

/** Fills a MatchResources' defaults in place: matchPolicy Equivalent, empty selectors, rule scope `*`. */
export function defaultMatchResources(match: Entry): void {
  match.matchPolicy ??= 'Equivalent';
  match.namespaceSelector ??= {};
  match.objectSelector ??= {};
  for (const rule of [...entries(match.resourceRules), ...entries(match.excludeResourceRules)]) rule.scope ??= '*';
}

/** Fills a ValidatingAdmissionPolicy's defaults in place: failurePolicy Fail and its matchConstraints'. */
export function defaultValidatingAdmissionPolicy(obj: KObject): void {
  if (!isEntry(obj.spec)) return;
  obj.spec.failurePolicy ??= 'Fail';
  if (isEntry(obj.spec.matchConstraints)) defaultMatchResources(obj.spec.matchConstraints);
}

/** Fills a ValidatingAdmissionPolicyBinding's defaults in place: its matchResources', paramRef's parameterNotFoundAction Deny. */
export function defaultValidatingAdmissionPolicyBinding(obj: KObject): void {
  if (!isEntry(obj.spec)) return;
  if (isEntry(obj.spec.matchResources)) defaultMatchResources(obj.spec.matchResources);
  if (isEntry(obj.spec.paramRef)) obj.spec.paramRef.parameterNotFoundAction ??= 'Deny';
}
