// kube-apiserver 1.28's validation of a FlowSchema (ValidateFlowSchema of
// pkg/apis/flowcontrol/validation/validation.go), with its field paths and messages.
import type { KObject } from '../schema/declaration.ts';
import { duplicate, forbidden, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { dns1123Label, dns1123Subdomain } from '../schema/name-validation.ts';
import { mandatoryFlowSchemas } from './bootstrap-configuration.ts';
import { matchingPrecedenceMax } from './limits.ts';
import { goEqual, obj, strings } from './values.ts';

const distinguisherMethods = ['ByNamespace', 'ByUser'];
const subjectKinds = ['Group', 'ServiceAccount', 'User'];
const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];

/** Required, a lone '*', and known verbs (a '*' among others is refused). */
function validateVerbs(list: string[], at: string): FieldError[] {
  if (list.length === 0) return [required(at, 'verbs must contain at least one value')];
  if (list.includes('*')) return list.length > 1 ? [invalidValue(at, list, "if '*' is present, must not specify other verbs")] : [];
  return list.flatMap((v, i) => (verbs.includes(v) ? [] : [notSupported(`${at}[${i}]`, v, verbs)]));
}

/** A lone '*' or a list without one. */
function wildcardAlone(list: string[], at: string, what: string): FieldError[] {
  return list.includes('*') && list.length > 1 ? [invalidValue(at, list, `if '*' is present, must not specify other ${what}`)] : [];
}

/** ValidateNonResourceURLPath. */
function validateUrl(path: string, at: string): FieldError[] {
  if (path === '') return [invalidValue(at, path, 'must not be empty')];
  if (path === '/') return [];
  if (!path.startsWith('/')) return [invalidValue(at, path, 'must start with slash')];
  if (path.includes(' ')) return [invalidValue(at, path, 'must not contain white-space')];
  if (path.includes('//')) return [invalidValue(at, path, 'must not contain double slash')];
  const wildcards = path.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith('/*'))) return [invalidValue(at, path, 'wildcard can only do suffix glob matching')];
  return [];
}

function validateResourceRule(r: Record<string, unknown>, at: string): FieldError[] {
  const errors = validateVerbs(strings(r.verbs), `${at}.verbs`);
  const apiGroups = strings(r.apiGroups);
  const resources = strings(r.resources);
  const namespaces = strings(r.namespaces);
  if (apiGroups.length === 0) errors.push(required(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
  else errors.push(...wildcardAlone(apiGroups, `${at}.apiGroups`, 'api groups'));
  if (resources.length === 0) errors.push(required(`${at}.resources`, 'resource rules must supply at least one resource'));
  else errors.push(...wildcardAlone(resources, `${at}.resources`, 'resources'));
  if (namespaces.length === 0 && r.clusterScope !== true) errors.push(required(`${at}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  else if (namespaces.includes('*') && namespaces.length > 1) errors.push(...wildcardAlone(namespaces, `${at}.namespaces`, 'namespaces'));
  else namespaces.forEach((ns, i) => ns !== '*' && errors.push(...dns1123Label(ns).map((m) => invalidValue(`${at}.namespaces[${i}]`, ns, m))));
  return errors;
}

function validateNonResourceRule(r: Record<string, unknown>, at: string): FieldError[] {
  const errors = validateVerbs(strings(r.verbs), `${at}.verbs`);
  const urls = strings(r.nonResourceURLs);
  if (urls.length === 0) errors.push(required(`${at}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*') && urls.length > 1) errors.push(invalidValue(`${at}.nonResourceURLs`, urls, "if '*' is present, must not specify other non-resource URLs"));
  else urls.forEach((u, i) => u !== '*' && errors.push(...validateUrl(u, `${at}.nonResourceURLs[${i}]`)));
  return errors;
}

const subjectFields: Readonly<Record<string, string>> = { User: 'user', Group: 'group', ServiceAccount: 'serviceAccount' };

function validateSubject(s: Record<string, unknown>, at: string): FieldError[] {
  const kind = typeof s.kind === 'string' ? s.kind : '';
  const own = subjectFields[kind];
  if (own === undefined) return [notSupported(`${at}.kind`, kind, subjectKinds)];
  const errors: FieldError[] = [];
  const subject = s[own];
  if (subject === undefined || subject === null) errors.push(required(`${at}.${own}`, `${own} is required when subject kind is '${kind}'`));
  else {
    const name = typeof obj(subject).name === 'string' ? (obj(subject).name as string) : '';
    if (name === '') errors.push(required(`${at}.${own}.name`));
    if (kind === 'ServiceAccount') {
      if (name !== '' && name !== '*') errors.push(...dns1123Subdomain(name).map((m) => invalidValue(`${at}.serviceAccount.name`, name, m)));
      const ns = typeof obj(subject).namespace === 'string' ? (obj(subject).namespace as string) : '';
      if (ns === '') errors.push(required(`${at}.serviceAccount.namespace`, 'must specify namespace for service account'));
      else errors.push(...dns1123Label(ns).map((m) => invalidValue(`${at}.serviceAccount.namespace`, ns, m)));
    }
  }
  for (const [otherKind, field] of Object.entries(subjectFields)) {
    if (field !== own && s[field] !== undefined && s[field] !== null) errors.push(forbidden(`${at}.${field}`, `${field} is forbidden when subject kind is not '${otherKind}'`));
  }
  return errors;
}

function validateRule(rule: Record<string, unknown>, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const subjects = Array.isArray(rule.subjects) ? rule.subjects : [];
  if (subjects.length === 0) errors.push(required(`${at}.subjects`, 'subjects must contain at least one value'));
  subjects.forEach((s, i) => errors.push(...validateSubject(obj(s), `${at}.subjects[${i}]`)));
  const resourceRules = Array.isArray(rule.resourceRules) ? rule.resourceRules : [];
  const nonResourceRules = Array.isArray(rule.nonResourceRules) ? rule.nonResourceRules : [];
  if (resourceRules.length === 0 && nonResourceRules.length === 0) errors.push(required(at, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => errors.push(...validateResourceRule(obj(r), `${at}.resourceRules[${i}]`)));
  nonResourceRules.forEach((r, i) => errors.push(...validateNonResourceRule(obj(r), `${at}.nonResourceRules[${i}]`)));
  return errors;
}

/** Condition types must be given and unique (ValidateFlowSchemaStatus and its PLC twin). */
export function validateConditions(status: unknown): FieldError[] {
  const seen = new Set<string>();
  const conditions = Array.isArray(obj(status).conditions) ? (obj(status).conditions as unknown[]) : [];
  return conditions.flatMap((c, i) => {
    const type = typeof obj(c).type === 'string' ? (obj(c).type as string) : '';
    if (type === '') return [required(`status.conditions[${i}].type`, 'must not be empty')];
    if (seen.has(type)) return [duplicate(`status.conditions[${i}].type`, type)];
    seen.add(type);
    return [];
  });
}

/** ValidateFlowSchema over a defaulted v1beta3 object. */
export function validateFlowSchema(o: KObject): FieldError[] {
  const spec = obj(o.spec);
  const name = o.metadata.name ?? '';
  const errors: FieldError[] = [];
  const precedence = typeof spec.matchingPrecedence === 'number' ? spec.matchingPrecedence : 0;
  if (precedence <= 0) errors.push(invalidValue('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > matchingPrecedenceMax) errors.push(invalidValue('spec.matchingPrecedence', precedence, `must not be greater than ${matchingPrecedenceMax}`));
  if (precedence === 1 && name !== 'exempt') errors.push(invalidValue('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = spec.distinguisherMethod;
  if (method !== undefined && method !== null && !distinguisherMethods.includes(obj(method).type as string)) errors.push(notSupported('spec.distinguisherMethod.type', obj(method).type ?? '', distinguisherMethods));
  const level = typeof obj(spec.priorityLevelConfiguration).name === 'string' ? (obj(spec.priorityLevelConfiguration).name as string) : '';
  if (level === '') errors.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  else errors.push(...dns1123Subdomain(level).map((m) => invalidValue('spec.priorityLevelConfiguration.name', level, m)));
  (Array.isArray(spec.rules) ? spec.rules : []).forEach((r, i) => errors.push(...validateRule(obj(r), `spec.rules[${i}]`)));
  const mandatory = mandatoryFlowSchemas.find((m) => m.name === name);
  if (mandatory !== undefined && !goEqual(spec, mandatory.spec)) errors.push(invalidValue('spec', spec, `spec of '${name}' must equal the fixed value`));
  errors.push(...validateConditions(o.status));
  return errors;
}
