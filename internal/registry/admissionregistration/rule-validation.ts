// validateRuleWithOperations of kube-apiserver 1.28's admissionregistration validation: which
// operations, groups, versions and resources (with `*`, `*/*`, `x/*` and `*/x` forms) and which
// scope a webhook rule may name, with kube's field paths and messages.
import { invalidShown, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { goSlice } from './go-values.ts';

/** The operations a rule may list, sorted as kube's set lists them. */
export const ruleOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
/** The scopes a rule may name, sorted as kube's set lists them. */
export const ruleScopes = ['*', 'Cluster', 'Namespaced'];

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : String(v))) : [];
}

// Resources: a lone star (no sub-resources) and star-slash-star (all) exclude others; `x/` plus a
// star, and a star plus `/y`, exclude what they cover.
function validateResources(resources: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(required(path));
  const wildcardSubresourceOf = new Set<string>();
  const wildcardResourceFor = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plainResource = false;
  resources.forEach((item, i) => {
    if (item === '') {
      errors.push(required(`${path}[${i}]`));
      return;
    }
    if (item === '*/*') doubleWildcard = true;
    if (item === '*') singleWildcard = true;
    const slash = item.indexOf('/');
    if (slash < 0) {
      // As kube: only the last plain entry decides whether one stands beside `*`.
      plainResource = item !== '*';
      return;
    }
    const resource = item.slice(0, slash);
    const subresource = item.slice(slash + 1);
    if (wildcardSubresourceOf.has(resource)) errors.push(invalidShown(`${path}[${i}]`, JSON.stringify(item), `if '${resource}/*' is present, must not specify ${item}`));
    if (wildcardResourceFor.has(subresource)) errors.push(invalidShown(`${path}[${i}]`, JSON.stringify(item), `if '*/${subresource}' is present, must not specify ${item}`));
    if (subresource === '*') wildcardSubresourceOf.add(resource);
    if (resource === '*') wildcardResourceFor.add(subresource);
  });
  if (resources.length > 1 && doubleWildcard) errors.push(invalidShown(path, goSlice('string', resources), "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plainResource) errors.push(invalidShown(path, goSlice('string', resources), "if '*' is present, must not specify other resources without subresources"));
  return errors;
}

/** apiGroups and apiVersions: required, and `*` stands alone. */
function validateNames(values: readonly string[], path: string, what: string, typeName: string): FieldError[] {
  const errors: FieldError[] = [];
  if (values.length === 0) errors.push(required(path));
  if (values.length > 1 && values.includes('*')) errors.push(invalidShown(path, goSlice(typeName, values), `if '*' is present, must not specify other ${what}`));
  return errors;
}

/** Validates one `rules[i]` of a webhook at `path` (`webhooks[0].rules[1]`). */
export function validateRuleWithOperations(rule: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const operations = strings(rule.operations);
  if (operations.length === 0) errors.push(required(`${path}.operations`));
  if (operations.length > 1 && operations.includes('*')) {
    errors.push(invalidShown(`${path}.operations`, goSlice('admissionregistration.OperationType', operations), "if '*' is present, must not specify other operations"));
  }
  operations.forEach((op, i) => {
    if (!ruleOperations.includes(op)) errors.push(notSupported(`${path}.operations[${i}]`, op, ruleOperations));
  });
  errors.push(...validateNames(strings(rule.apiGroups), `${path}.apiGroups`, 'API groups', 'string'));
  const versions = strings(rule.apiVersions);
  errors.push(...validateNames(versions, `${path}.apiVersions`, 'API versions', 'string'));
  versions.forEach((v, i) => {
    if (v === '') errors.push(required(`${path}.apiVersions[${i}]`));
  });
  errors.push(...validateResources(strings(rule.resources), `${path}.resources`));
  if (rule.scope !== undefined && rule.scope !== null && !ruleScopes.includes(String(rule.scope))) errors.push(notSupported(`${path}.scope`, rule.scope, ruleScopes));
  return errors;
}
