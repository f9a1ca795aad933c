// validateMatchResources, validateNamedRuleWithOperations and validateParamKind of kube-apiserver
// 1.28's admissionregistration validation: which requests a policy or binding may name, and the
// kind its parameters are, with kube's messages and field paths.
import { duplicate, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { validateLabelSelector } from '../schema/label-selectors.ts';
import { dns1123Subdomain, pathSegmentName } from '../schema/name-validation.ts';
import { dns1035Label } from './go-values.ts';
import { validateRuleWithOperations } from './rule-validation.ts';

type Entry = Record<string, unknown>;

const matchPolicies = ['Equivalent', 'Exact'];

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** One `resourceRules[i]` or `excludeResourceRules[i]`: resourceNames are path segments, unique; then the rule. */
function validateNamedRule(rule: Entry, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(rule.resourceNames) ? rule.resourceNames : []).forEach((item, i) => {
    const name = String(item);
    for (const problem of pathSegmentName(name)) errors.push(invalidValue(`${path}.resourceNames[${i}]`, name, problem));
    if (seen.has(name)) errors.push(duplicate(`${path}.resourceNames[${i}]`, name));
    seen.add(name);
  });
  errors.push(...validateRuleWithOperations(rule, path));
  return errors;
}

/** Validates a MatchResources at `path` (after defaulting: matchPolicy and both selectors are set). */
export function validateMatchResources(match: Entry, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!present(match.matchPolicy)) errors.push(required(`${path}.matchPolicy`));
  else if (!matchPolicies.includes(String(match.matchPolicy))) errors.push(notSupported(`${path}.matchPolicy`, match.matchPolicy, matchPolicies));
  for (const selector of ['namespaceSelector', 'objectSelector']) {
    if (!present(match[selector])) errors.push(required(`${path}.${selector}`));
    else errors.push(...validateLabelSelector(match[selector], `${path}.${selector}`));
  }
  for (const list of ['resourceRules', 'excludeResourceRules']) {
    (Array.isArray(match[list]) ? match[list] : []).forEach((rule, i) => errors.push(...validateNamedRule(isEntry(rule) ? rule : {}, `${path}.${list}[${i}]`)));
  }
  return errors;
}

/** Splits `group/version` as kube's parseGroupVersion; an Error for more than one slash. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | Error {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** Validates `spec.paramKind` at `path`: an apiVersion with a DNS-subdomain group and a DNS-1035 version, and a kind. */
export function validateParamKind(paramKind: Entry, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const apiVersion = typeof paramKind.apiVersion === 'string' ? paramKind.apiVersion : '';
  if (apiVersion === '') errors.push(required(`${path}.apiVersion`));
  else {
    const gv = parseGroupVersion(apiVersion);
    if (gv instanceof Error) errors.push(invalidValue(`${path}.apiVersion`, apiVersion, gv.message));
    else {
      if (gv.group !== '') {
        const problems = dns1123Subdomain(gv.group);
        if (problems.length > 0) errors.push(invalidValue(`${path}.apiVersion`, gv.group, problems.join(',')));
      }
      if (gv.version === '') errors.push(invalidValue(`${path}.apiVersion`, apiVersion, 'version must be specified'));
      else {
        const problems = dns1035Label(gv.version);
        if (problems.length > 0) errors.push(invalidValue(`${path}.apiVersion`, gv.version, problems.join(',')));
      }
    }
  }
  const kind = typeof paramKind.kind === 'string' ? paramKind.kind : '';
  if (kind === '') errors.push(required(`${path}.kind`));
  else {
    const problems = dns1035Label(kind.toLowerCase());
    if (problems.length > 0) errors.push(invalidValue(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
  }
  return errors;
}
