// A ResourceQuota's scopes and scope selector as kube-apiserver 1.28 checks them
// (validateResourceQuotaScopes, validateScopedResourceSelectorRequirement): known scopes, known
// operators, Exists for the scopes that take no values, no two scopes that contradict each other.
// kube reports a bad scope on the whole list, printed as Go's `%#v` prints it.
import type { KObject } from '../schema/declaration.ts';
import { invalidShown, invalidValue, required, type FieldError } from '../schema/field-errors.ts';

type Json = Record<string, unknown>;

const standardScopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
/** The scopes a selector may only test for presence. */
const presenceOnlyScopes = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'];
const conflictingPairs = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']] as const;

function goList(type: string, values: unknown[]): string {
  return `[]${type}{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

function conflicts(at: string, scopes: ReadonlySet<unknown>, shown: string): FieldError[] {
  return conflictingPairs.filter(([a, b]) => scopes.has(a) && scopes.has(b)).map(() => invalidShown(at, shown, 'conflicting scopes'));
}

function validateScopes(spec: Json): FieldError[] {
  const scopes = Array.isArray(spec.scopes) ? (spec.scopes as unknown[]) : [];
  if (scopes.length === 0) return [];
  const shown = goList('core.ResourceQuotaScope', scopes);
  const errors = scopes.filter((s) => !standardScopes.includes(s as string)).map(() => invalidShown('spec.scopes', shown, 'unsupported scope'));
  return [...errors, ...conflicts('spec.scopes', new Set(scopes), shown)];
}

function validateRequirement(req: Json, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!standardScopes.includes(req.scopeName as string)) errors.push(invalidValue(`${at}.scopeName`, req.scopeName ?? '', 'unsupported scope'));
  if (presenceOnlyScopes.includes(req.scopeName as string) && req.operator !== 'Exists') {
    errors.push(invalidValue(`${at}.operator`, req.operator ?? '', "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
  }
  const values = Array.isArray(req.values) ? (req.values as unknown[]) : [];
  if (req.operator === 'In' || req.operator === 'NotIn') {
    if (values.length === 0) errors.push(required(`${at}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
  } else if (req.operator === 'Exists' || req.operator === 'DoesNotExist') {
    if (values.length !== 0) errors.push(invalidShown(`${at}.values`, goList('string', values), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
  } else errors.push(invalidValue(`${at}.operator`, req.operator ?? '', 'not a valid selector operator'));
  return errors;
}

function validateScopeSelector(spec: Json): FieldError[] {
  const selector = spec.scopeSelector as Json | undefined | null;
  if (typeof selector !== 'object' || selector === null) return [];
  const at = 'spec.scopeSelector.matchExpressions';
  const requirements = (Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) as Json[];
  const errors = requirements.flatMap((req) => validateRequirement(req ?? {}, at));
  // kube prints spec.scopes here (not the selector), as its code does.
  const scopes = Array.isArray(spec.scopes) ? (spec.scopes as unknown[]) : [];
  const shown = scopes.length === 0 ? '[]core.ResourceQuotaScope(nil)' : goList('core.ResourceQuotaScope', scopes);
  return [...errors, ...conflicts(at, new Set(requirements.map((r) => r?.scopeName)), shown)];
}

/** The scope rules of ValidateResourceQuotaSpec: `spec.scopes`, then `spec.scopeSelector`. */
export function validateResourceQuotaScopes(o: KObject): FieldError[] {
  const spec = (typeof o.spec === 'object' && o.spec !== null ? o.spec : {}) as Json;
  return [...validateScopes(spec), ...validateScopeSelector(spec)];
}
