// Expressions of ValidatingAdmissionPolicy and webhook matchConditions: compiled once over
// schemaless variables (`object`, `oldObject`, `request`, `params`, `namespaceObject`,
// `authorizer`, `variables`), evaluated per request. The authorizer library asks orch's
// asynchronous authorizer, so an evaluation runs in passes: the checks a pass could not answer
// are asked, cached, and the expression runs again (bounded); only the last pass's cost counts.
import type { CelInput } from '@bufbuild/cel';
import { cachedProgram } from './compile-cache.ts';
import { estimateCost } from './cost-estimate.ts';
import { dynamicValue, toJs } from './json-values.ts';
import { authorizerValue, DecisionCache, fillDecisions, pendingAuthorizations, type CelAuthorizer, type RequestResource } from './library/index.ts';
import { authorizerPassesMax, perCallCostLimit } from './limits.ts';
import { isStackOverflow, recursionDepthMessage, type Program } from './program.ts';

/** One admission expression, compiled; safe to share and evaluate concurrently. */
export interface CompiledExpression {
  readonly expression: string;
  /** Worst-case cost with every variable of unknown size. */
  readonly estimatedCost: number;
  /** Evaluates over the given variables (`authorizer` a CelAuthorizer); `costLimit` defaults to kube's per-call limit. */
  evaluate(activation: Readonly<Record<string, unknown>>, opts?: { costLimit?: number }): Promise<EvalOutcome>;
}

/** A value (converted to JavaScript: safe ints as numbers, lists as arrays, maps as objects) or an error text, with the cost. */
export type EvalOutcome = { readonly value: unknown; readonly cost: number } | { readonly error: string; readonly cost: number };

/** Compiles `expression` over the named variables; `error` is cel-go's compile error text. */
export function compileAdmissionExpression(expression: string, variables: readonly string[]): { readonly compiled?: CompiledExpression; readonly error?: string } {
  const outcome = cachedProgram(expression, [...variables].sort());
  if (outcome.program === undefined) return { error: `compilation failed: ${outcome.error}` };
  const program = outcome.program;
  let estimatedCost: number;
  try {
    estimatedCost = estimateCost(program.ast, new Map(variables.map((v) => [v, undefined])));
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return { error: `compilation failed: ERROR: <input>:-1:0: ${recursionDepthMessage}` };
  }
  return {
    compiled: {
      expression,
      estimatedCost,
      evaluate: (activation, opts) => evaluate(program, variables, activation, opts?.costLimit ?? perCallCostLimit),
    },
  };
}

function isAuthorizer(value: unknown): value is CelAuthorizer {
  return typeof value === 'object' && value !== null && typeof (value as { check?: unknown }).check === 'function';
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The request's own resource, for `authorizer.requestResource`. */
function requestResourceOf(request: unknown): RequestResource | undefined {
  const resource = field(request, 'resource');
  if (resource === undefined) return undefined;
  return {
    group: text(field(resource, 'group')),
    resource: text(field(resource, 'resource')),
    subresource: text(field(request, 'subResource')),
    namespace: text(field(request, 'namespace')),
    name: text(field(request, 'name')),
  };
}

async function evaluate(program: Program, variables: readonly string[], activation: Readonly<Record<string, unknown>>, costLimit: number): Promise<EvalOutcome> {
  const cache = new DecisionCache();
  const authorizer = activation['authorizer'];
  const bound: Record<string, CelInput> = {};
  for (const name of variables) {
    const value = activation[name];
    bound[name] = name === 'authorizer' && isAuthorizer(value) ? authorizerValue(cache, requestResourceOf(activation['request'])) : dynamicValue(value);
  }
  for (let pass = 1; ; pass++) {
    const outcome = program.run(bound, costLimit);
    const pending = pendingAuthorizations(cache);
    if (pending.length === 0 || !isAuthorizer(authorizer)) {
      return 'error' in outcome ? outcome : { value: toJs(outcome.value), cost: outcome.cost };
    }
    if (pass >= authorizerPassesMax) return { error: `authorization decisions still pending after ${pass} passes`, cost: outcome.cost };
    await fillDecisions(cache, authorizer);
  }
}
