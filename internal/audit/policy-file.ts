// Reads an audit policy file (--audit-policy-file) as kube-apiserver does (pkg/audit/policy
// reader.go and apis/audit/validation): YAML or JSON, kind Policy of audit.k8s.io/v1 (v1beta1 is
// taken too, with a warning, as releases before 1.24 took it), every rule's level and stages
// known, non-resource URLs that are paths with at most a trailing `*`, at least one rule. Any
// problem is a PolicyFileError naming the file and the field.
import { readFileSync, statSync } from 'node:fs';
import { parse } from 'yaml';
import { policyFileBytesMax } from './limits.ts';
import { levels, stages, type GroupResources, type Level, type Policy, type PolicyRule, type Stage } from './policy.ts';

/** A policy file that cannot be used; the message names the file and what is wrong. */
export class PolicyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyFileError';
  }
}

/** The group versions a policy may name; all but the first are deprecated. */
const acceptedApiVersions = ['audit.k8s.io/v1', 'audit.k8s.io/v1beta1'];

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown, path: string, errors: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    errors.push(`${path}: must be a list of strings`);
    return [];
  }
  return value as string[];
}

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function supported(values: readonly string[]): string {
  return [...values].sort().map((v) => JSON.stringify(v)).join(', ');
}

function stageList(value: unknown, path: string, errors: string[]): Stage[] {
  const list = strings(value, path, errors);
  for (const [i, stage] of list.entries()) {
    if (!(stages as readonly string[]).includes(stage)) errors.push(`${path}[${i}]: Unsupported value: ${JSON.stringify(stage)}: supported values: ${supported(stages)}`);
  }
  return list as Stage[];
}

function groupResources(value: unknown, path: string, errors: string[]): GroupResources[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    errors.push(`${path}: must be a list`);
    return [];
  }
  return value.map((item: unknown, i) => {
    const at = `${path}[${i}]`;
    const fields = isFields(item) ? item : {};
    if (!isFields(item)) errors.push(`${at}: must be a mapping`);
    const group = fields.group ?? '';
    if (typeof group !== 'string') errors.push(`${at}.group: must be a string`);
    const groupText = typeof group === 'string' ? group : '';
    if (groupText !== '' && (groupText.length > 253 || !dnsSubdomain.test(groupText))) {
      errors.push(`${at}.group: Invalid value: ${JSON.stringify(groupText)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`);
    }
    const resources = strings(fields.resources, `${at}.resources`, errors);
    const resourceNames = strings(fields.resourceNames, `${at}.resourceNames`, errors);
    if (resourceNames.length > 0 && resources.length === 0) errors.push(`${at}.resourceNames: Invalid value: ${JSON.stringify(resourceNames)}: using resourceNames requires at least one resource`);
    return { group: groupText, resources, resourceNames };
  });
}

function nonResourceUrls(value: unknown, path: string, errors: string[]): string[] {
  const urls = strings(value, path, errors);
  for (const [i, url] of urls.entries()) {
    if (url === '*') continue;
    if (!url.startsWith('/')) errors.push(`${path}[${i}]: Invalid value: ${JSON.stringify(url)}: non-resource URL rules must begin with a '/' character`);
    if (url !== '' && url.slice(0, -1).includes('*')) errors.push(`${path}[${i}]: Invalid value: ${JSON.stringify(url)}: non-resource URL wildcards '*' must be the final character of the rule`);
  }
  return urls;
}

function optionalBoolean(value: unknown, path: string, errors: string[]): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    errors.push(`${path}: must be true or false`);
    return undefined;
  }
  return value;
}

function rule(value: unknown, path: string, policyStages: readonly Stage[], errors: string[]): PolicyRule {
  const fields = isFields(value) ? value : {};
  if (!isFields(value)) errors.push(`${path}: must be a mapping`);
  const level = fields.level;
  if (typeof level !== 'string' || !(levels as readonly string[]).includes(level)) {
    errors.push(`${path}.level: Unsupported value: ${JSON.stringify(level ?? '')}: supported values: ${supported(levels)}`);
  }
  const resources = groupResources(fields.resources, `${path}.resources`, errors);
  const namespaces = strings(fields.namespaces, `${path}.namespaces`, errors);
  const urls = nonResourceUrls(fields.nonResourceURLs, `${path}.nonResourceURLs`, errors);
  if (urls.length > 0 && (resources.length > 0 || namespaces.length > 0)) {
    errors.push(`${path}.nonResourceURLs: Invalid value: ${JSON.stringify(urls)}: rules cannot apply to both regular resources and non-resource URLs`);
  }
  const own = stageList(fields.omitStages, `${path}.omitStages`, errors);
  return {
    level: level as Level,
    users: strings(fields.users, `${path}.users`, errors),
    userGroups: strings(fields.userGroups, `${path}.userGroups`, errors),
    verbs: strings(fields.verbs, `${path}.verbs`, errors),
    resources,
    namespaces,
    nonResourceURLs: urls,
    omitStages: [...new Set([...policyStages, ...own])],
    omitManagedFields: optionalBoolean(fields.omitManagedFields, `${path}.omitManagedFields`, errors),
  };
}

/**
 * The policy in `text` (YAML or JSON). Throws PolicyFileError with every problem found;
 * `warn` hears of a deprecated apiVersion.
 */
export function parsePolicy(text: string, warn: (message: string) => void = () => undefined): Policy {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new PolicyFileError(`failed decoding: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
  if (!isFields(doc)) throw new PolicyFileError('failed decoding: the policy is not a mapping');
  const { apiVersion, kind } = doc;
  if (typeof kind !== 'string' || kind === '') throw new PolicyFileError("failed decoding: Object 'Kind' is missing");
  if (typeof apiVersion !== 'string' || !acceptedApiVersions.includes(apiVersion) || kind !== 'Policy') {
    throw new PolicyFileError(`unknown group version field ${JSON.stringify(`${String(apiVersion ?? '')}, Kind=${kind}`)} in policy (expected kind Policy of audit.k8s.io/v1)`);
  }
  if (apiVersion !== acceptedApiVersions[0]) warn(`"${apiVersion}" is deprecated and will be removed in a future release, use "audit.k8s.io/v1" instead`);
  const errors: string[] = [];
  const omitStages = stageList(doc.omitStages, 'omitStages', errors);
  const omitManagedFields = optionalBoolean(doc.omitManagedFields, 'omitManagedFields', errors) ?? false;
  const rawRules = doc.rules ?? [];
  if (!Array.isArray(rawRules)) errors.push('rules: must be a list');
  const rules = Array.isArray(rawRules) ? rawRules.map((r: unknown, i) => rule(r, `rules[${i}]`, omitStages, errors)) : [];
  if (errors.length > 0) throw new PolicyFileError(errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`);
  if (rules.length === 0) throw new PolicyFileError('loaded illegal policy with 0 rules');
  return { rules, omitStages, omitManagedFields };
}

/** Reads and parses the policy file at `path`; every error names the file. */
export function loadPolicyFile(path: string, warn?: (message: string) => void): Policy {
  let text: string;
  try {
    if (statSync(path).size > policyFileBytesMax) throw new Error(`larger than ${policyFileBytesMax} bytes`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new PolicyFileError(`failed to read file path ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  try {
    return parsePolicy(text, warn);
  } catch (err) {
    if (err instanceof PolicyFileError) throw new PolicyFileError(`${err.message}: from file ${path}`);
    throw err;
  }
}
