// What quota knows about one kind of object (k8s.io/apiserver/pkg/quota/v1's Evaluator): which
// quota resource names it charges, how much one object uses, which scopes it falls in, and the
// generic rule that decides whether a quota applies to an object (generic.Matches).
import type { KObject } from '../registry/schema/declaration.ts';
import type { ResourceList } from './resource-list.ts';

/** One requirement of a quota's scope selector (core/v1 ScopedResourceSelectorRequirement). */
export interface ScopeRequirement {
  readonly scopeName: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** Measures quota usage for one group/resource. Every method is pure. */
export interface QuotaEvaluator {
  /** The group ('' core) and plural this evaluator charges. */
  readonly group: string;
  readonly resource: string;
  /** Whether an admission operation on the main resource may change usage (Evaluator.Handles). */
  handles(operation: string): boolean;
  /** The names of `names` this evaluator charges, sorted as kube sorts them (MatchingResources). */
  matchingResources(names: readonly string[]): string[];
  /** Whether the object falls in the scope a requirement names; false for scopes the kind has none of. */
  matchesScope(requirement: ScopeRequirement, object: KObject): boolean;
  /** What the object uses; `nowMs` decides whether a pod past its deletion grace still counts. */
  usage(object: KObject, nowMs: number): ResourceList;
  /** Why the object cannot be charged to a quota that limits `required` (Constraints), or undefined. */
  constraints(required: readonly string[], object: KObject): string | undefined;
}

type Json = Record<string, unknown>;

function specOf(quota: KObject): Json {
  return typeof quota.spec === 'object' && quota.spec !== null ? (quota.spec as Json) : {};
}

/** spec.scopes as Exists requirements, then spec.scopeSelector's (getScopeSelectorsFromQuota). */
export function quotaScopeRequirements(quota: KObject): ScopeRequirement[] {
  const spec = specOf(quota);
  const scopes = Array.isArray(spec.scopes) ? spec.scopes.map(String) : [];
  const out: ScopeRequirement[] = scopes.map((scopeName) => ({ scopeName, operator: 'Exists' }));
  const selector = spec.scopeSelector as Json | undefined | null;
  const expressions = typeof selector === 'object' && selector !== null && Array.isArray(selector.matchExpressions) ? (selector.matchExpressions as Json[]) : [];
  for (const e of expressions) {
    out.push({ scopeName: String(e?.scopeName ?? ''), operator: String(e?.operator ?? ''), values: Array.isArray(e?.values) ? e.values.map(String) : [] });
  }
  return out;
}

/** The names of a quota's `status.hard` (what the quota controller has agreed to enforce). */
export function hardResourceNames(quota: KObject): string[] {
  const status = quota.status as Json | undefined;
  const hard = typeof status?.hard === 'object' && status.hard !== null ? (status.hard as Json) : {};
  return Object.keys(hard);
}

/**
 * Whether the quota applies to the object (generic.Matches): its status.hard names at least one
 * resource the evaluator charges, and the object is in every one of its scopes.
 */
export function quotaMatches(evaluator: QuotaEvaluator, quota: KObject, object: KObject): boolean {
  if (evaluator.matchingResources(hardResourceNames(quota)).length === 0) return false;
  return quotaScopeRequirements(quota).every((r) => evaluator.matchesScope(r, object));
}

/** The requirements the object satisfies (Evaluator.MatchingScopes). */
export function matchingScopes(evaluator: QuotaEvaluator, object: KObject, requirements: readonly ScopeRequirement[]): ScopeRequirement[] {
  return requirements.filter((r) => evaluator.matchesScope(r, object));
}

/** The limited requirements no matched quota scope names (Evaluator.UncoveredQuotaScopes); by scope name only, as kube. */
export function uncoveredScopes(limited: readonly ScopeRequirement[], matched: readonly ScopeRequirement[]): ScopeRequirement[] {
  return limited.filter((l) => !matched.some((m) => m.scopeName === l.scopeName));
}

/** A requirement as Go's `%v` prints the struct: `{PriorityClass In [a b]}`. */
export function formatRequirement(r: ScopeRequirement): string {
  return `{${r.scopeName} ${r.operator} [${(r.values ?? []).join(' ')}]}`;
}
