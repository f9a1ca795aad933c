// validateValidatingWebhookConfiguration / validateMutatingWebhookConfiguration of kube-apiserver
// 1.28 (pkg/apis/admissionregistration/validation), with the options of a create: side effects
// must be None or NoneOnDryRun, a known AdmissionReview version is required, names are unique.
// matchConditions are compiled (policy-match-conditions.ts).
import type { KObject } from '../schema/declaration.ts';
import { duplicate, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { validateLabelSelector } from '../schema/label-selectors.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';
import { validateWebhookService, validateWebhookUrl } from './client-config-validation.ts';
import { dns1035Label, goSlice } from './go-values.ts';
import { validateRuleWithOperations } from './rule-validation.ts';
import { validateMatchConditions } from './policy-match-conditions.ts';

type Entry = Record<string, unknown>;

/** The AdmissionReview versions this server sends, in preference order. */
export const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'];
const failurePolicies = ['Fail', 'Ignore'];
const matchPolicies = ['Equivalent', 'Exact'];
const noSideEffectClasses = ['None', 'NoneOnDryRun'];
const reinvocationPolicies = ['IfNeeded', 'Never'];

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** IsFullyQualifiedName: a DNS subdomain of at least three segments (a trailing dot is dropped). */
function validateFullyQualifiedName(name: string, path: string): FieldError[] {
  if (name === '') return [required(path)];
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  const problems = dns1123Subdomain(trimmed);
  if (problems.length > 0) return [invalidValue(path, trimmed, problems.join(','))];
  if (trimmed.split('.').length < 3) return [invalidValue(path, trimmed, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateEnum(hook: Entry, fieldName: string, allowed: readonly string[], path: string): FieldError[] {
  const value = hook[fieldName];
  return present(value) && !allowed.includes(String(value)) ? [notSupported(`${path}.${fieldName}`, value, allowed)] : [];
}

function validateClientConfig(clientConfig: unknown, path: string): FieldError[] {
  const cc = isEntry(clientConfig) ? clientConfig : {};
  const hasUrl = present(cc.url);
  const hasService = isEntry(cc.service);
  if (hasUrl === hasService) return [required(path, 'exactly one of url or service is required')];
  if (hasUrl) return validateWebhookUrl(String(cc.url), `${path}.url`);
  return validateWebhookService(cc.service as Entry, `${path}.service`);
}

/** validateValidatingWebhook / validateMutatingWebhook: one webhook at `path` (`webhooks[0]`). */
function validateWebhook(hook: Entry, mutating: boolean, path: string): FieldError[] {
  const errors = validateFullyQualifiedName(typeof hook.name === 'string' ? hook.name : '', `${path}.name`);
  list(hook.rules).forEach((rule, i) => errors.push(...validateRuleWithOperations(isEntry(rule) ? rule : {}, `${path}.rules[${i}]`)));
  errors.push(...validateEnum(hook, 'failurePolicy', failurePolicies, path));
  errors.push(...validateEnum(hook, 'matchPolicy', matchPolicies, path));
  if (!present(hook.sideEffects)) errors.push(required(`${path}.sideEffects`, `must specify one of ${noSideEffectClasses.join(', ')}`));
  errors.push(...validateEnum(hook, 'sideEffects', noSideEffectClasses, path));
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) errors.push(invalidValue(`${path}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  errors.push(...validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`));
  errors.push(...validateLabelSelector(hook.objectSelector, `${path}.objectSelector`));
  if (mutating) errors.push(...validateEnum(hook, 'reinvocationPolicy', reinvocationPolicies, path));
  errors.push(...validateClientConfig(hook.clientConfig, `${path}.clientConfig`));
  errors.push(...validateMatchConditions(hook.matchConditions, `${path}.matchConditions`));
  return errors;
}

/** admissionReviewVersions: required, no duplicates, DNS-1035 labels, one of them known. */
function validateAdmissionReviewVersions(value: unknown, path: string): FieldError[] {
  const versions = list(value).map(String);
  if (versions.length === 0) return [required(path, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errors.push(invalidValue(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const problem of dns1035Label(v)) errors.push(invalidValue(`${path}[${i}]`, v, problem));
  });
  if (!versions.some((v) => acceptedAdmissionReviewVersions.includes(v))) {
    errors.push(invalidShown(path, goSlice('string', versions), `must include at least one of ${acceptedAdmissionReviewVersions.join(', ')}`));
  }
  return errors;
}

/** Validates the webhooks of a Validating- or MutatingWebhookConfiguration (metadata is the registry's). */
export function validateWebhookConfiguration(obj: KObject, mutating: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  list(obj.webhooks).forEach((item, i) => {
    const hook = isEntry(item) ? item : {};
    const path = `webhooks[${i}]`;
    errors.push(...validateWebhook(hook, mutating, path));
    errors.push(...validateAdmissionReviewVersions(hook.admissionReviewVersions, `${path}.admissionReviewVersions`));
    const name = typeof hook.name === 'string' ? hook.name : '';
    if (name !== '' && names.has(name)) errors.push(duplicate(`${path}.name`, name));
    names.add(name);
  });
  return errors;
}
