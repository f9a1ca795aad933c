// The plugin's configuration: PodSecurityConfiguration (pod-security.admission.config.k8s.io v1,
// v1beta1, v1alpha1), decoded strictly and validated as kube-apiserver does at start.
import { duplicate, invalidValue, required, type FieldError } from '../../../registry/schema/field-errors.ts';
import { dns1123Label, dns1123Subdomain } from '../../../registry/schema/name-validation.ts';
import { formatFieldErrors } from './api/namespace-labels.ts';
import { parseLevel } from './api/level.ts';
import type { LevelVersion, Policy } from './api/policy.ts';
import { parseVersion } from './api/version.ts';
import { objectOf } from './checks/pod-view.ts';

/** Who and what is never checked. */
export interface PodSecurityExemptions {
  readonly usernames: readonly string[];
  readonly namespaces: readonly string[];
  readonly runtimeClasses: readonly string[];
}

/** The validated configuration: the policy of namespaces without labels, and the exemptions. */
export interface PodSecurityConfiguration {
  readonly defaults: Policy;
  readonly exemptions: PodSecurityExemptions;
}

const configGroup = 'pod-security.admission.config.k8s.io';
const apiVersions = ['v1', 'v1beta1', 'v1alpha1'].map((v) => `${configGroup}/${v}`);
const defaultsFields = ['enforce', 'enforce-version', 'audit', 'audit-version', 'warn', 'warn-version'] as const;
const exemptionsFields = ['usernames', 'namespaces', 'runtimeClasses'] as const;

/** What kube uses with no configuration: everything privileged, nothing exempt. */
export const defaultConfiguration: PodSecurityConfiguration = {
  defaults: {
    enforce: { level: 'privileged', version: 'latest' },
    audit: { level: 'privileged', version: 'latest' },
    warn: { level: 'privileged', version: 'latest' },
  },
  exemptions: { usernames: [], namespaces: [], runtimeClasses: [] },
};

function fail(message: string): never {
  throw new Error(`PodSecurity configuration: ${message}`);
}

/** An object's fields, refusing any not in `known` (kube decodes this configuration strictly). */
function strictObject(value: unknown, path: string, known: readonly string[]): Readonly<Record<string, unknown>> {
  if (value === undefined || value === null) return {};
  const object = objectOf(value) ?? fail(`${path} must be an object`);
  for (const key of Object.keys(object)) if (!known.includes(key)) fail(`unknown field "${path === '' ? key : `${path}.${key}`}"`);
  return object;
}

function stringField(object: Readonly<Record<string, unknown>>, key: string, path: string): string {
  const value = object[key];
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : fail(`${path}.${key} must be a string`);
}

function stringListField(object: Readonly<Record<string, unknown>>, key: string, path: string): string[] {
  const value = object[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) fail(`${path}.${key} must be a list of strings`);
  return value as string[];
}

/** One mode's default, blank fields meaning privileged and latest (v1's defaulting). */
function modeDefault(defaults: Readonly<Record<string, unknown>>, mode: 'enforce' | 'audit' | 'warn', errors: FieldError[]): LevelVersion {
  const levelText = stringField(defaults, mode, 'defaults') || 'privileged';
  const versionText = stringField(defaults, `${mode}-version`, 'defaults') || 'latest';
  const level = parseLevel(levelText);
  if (level.error !== undefined) errors.push(invalidValue(`defaults.${mode}`, levelText, level.error));
  const version = parseVersion(versionText);
  if (version.error !== undefined) errors.push(invalidValue(`defaults.${mode}-version`, versionText, version.error));
  return { level: level.level, version: version.version };
}

/** Field errors for a list that must hold valid, distinct names; `problemOf` says what is wrong with one. */
function validateNames(names: readonly string[], path: string, problemOf: (name: string, field: string) => FieldError | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  names.forEach((name, i) => {
    const field = `${path}[${i}]`;
    const problem = problemOf(name, field);
    if (problem !== undefined) errors.push(problem);
    else if (seen.has(name)) errors.push(duplicate(field, name));
    else seen.add(name);
  });
  return errors;
}

/** A name check from a rule that lists problems (kube joins them with ", "). */
function nameRule(rule: (name: string) => string[]): (name: string, field: string) => FieldError | undefined {
  return (name, field) => {
    const problems = rule(name);
    return problems.length === 0 ? undefined : invalidValue(field, name, problems.join(', '));
  };
}

/**
 * Decodes and validates the plugin's configuration; undefined gives kube's defaults. Throws an
 * Error naming the bad field (unknown fields, wrong types, bad levels, versions or exemptions).
 */
export function parsePodSecurityConfiguration(raw: unknown): PodSecurityConfiguration {
  if (raw === undefined || raw === null) return defaultConfiguration;
  const top = strictObject(raw, '', ['apiVersion', 'kind', 'defaults', 'exemptions']);
  if (!apiVersions.includes(String(top.apiVersion))) fail(`apiVersion must be one of ${apiVersions.join(', ')}, not ${JSON.stringify(top.apiVersion ?? '')}`);
  if (top.kind !== 'PodSecurityConfiguration') fail(`kind must be PodSecurityConfiguration, not ${JSON.stringify(top.kind ?? '')}`);
  const defaults = strictObject(top.defaults, 'defaults', defaultsFields);
  const exemptions = strictObject(top.exemptions, 'exemptions', exemptionsFields);
  const errors: FieldError[] = [];
  // Validated in kube's order (enforce, warn, audit), so a multi-error message reads the same.
  const enforce = modeDefault(defaults, 'enforce', errors);
  const warn = modeDefault(defaults, 'warn', errors);
  const audit = modeDefault(defaults, 'audit', errors);
  const policy: Policy = { enforce, audit, warn };
  const namespaces = stringListField(exemptions, 'namespaces', 'exemptions');
  const runtimeClasses = stringListField(exemptions, 'runtimeClasses', 'exemptions');
  const usernames = stringListField(exemptions, 'usernames', 'exemptions');
  errors.push(...validateNames(namespaces, 'exemptions.namespaces', nameRule(dns1123Label)));
  errors.push(...validateNames(runtimeClasses, 'exemptions.runtimeClasses', nameRule(dns1123Subdomain)));
  errors.push(...validateNames(usernames, 'exemptions.usernames', (name, field) => (name === '' ? required(field) : undefined)));
  if (errors.length > 0) throw new Error(`PodSecurity invalid: ${formatFieldErrors(errors)}`);
  return { defaults: policy, exemptions: { usernames, namespaces, runtimeClasses } };
}
