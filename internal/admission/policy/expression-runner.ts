// Runs a policy's compiled expressions for one (policy, binding, param) evaluation: one activation,
// one cost budget shared by the expressions run through it, and the policy's variables evaluated
// at most once each, only when an expression names them (kube's composition context with its lazy
// `variables` map). Outcomes are worded as kube's filter words them.
import type { ExpressionSlot, NamedSlot } from './compiled-policy.ts';
import { perCallCostLimit } from '../../cel/limits.ts';

/** What running one expression gave: a value, or an error message (already worded for the client). */
export type RunOutcome = { readonly value: unknown } | { readonly error: string };

/** The budget was spent: kube stops evaluating the policy for this request. */
export class CostBudgetExceeded extends Error {
  constructor() {
    super('validation failed due to running out of cost budget, no further validation rules will be run');
    this.name = 'CostBudgetExceeded';
  }
}

const variableReference = /\bvariables\s*\.\s*([_a-zA-Z][_a-zA-Z0-9]*)/g;

/** The variable names an expression reads (`variables.<name>`). */
export function referencedVariables(expression: string): string[] {
  return [...new Set([...expression.matchAll(variableReference)].map((m) => m[1] ?? ''))];
}

type VariableOutcome = { readonly value: unknown } | { readonly error: string };

/** One evaluation's expressions over one activation. Not shared between requests. */
export class ExpressionRunner {
  private remaining: number;
  private readonly variableValues = new Map<string, Promise<VariableOutcome>>();
  private readonly bySlotName: ReadonlyMap<string, NamedSlot>;

  constructor(
    private readonly activation: Readonly<Record<string, unknown>>,
    variables: readonly NamedSlot[],
    budget: number,
  ) {
    this.remaining = budget;
    this.bySlotName = new Map(variables.map((v) => [v.name, v]));
  }

  /**
   * Runs `slot`; throws CostBudgetExceeded once the shared budget is spent. A compile error or an
   * evaluation error is an outcome, not a throw.
   */
  async run(slot: ExpressionSlot): Promise<RunOutcome> {
    if (slot.compiled === undefined) return { error: `compilation error: ${slot.error ?? ''}` };
    const variables = await this.variablesFor(slot.expression, new Set());
    if ('error' in variables) return { error: `expression '${slot.expression}' resulted in error: ${variables.error}` };
    const outcome = await this.evaluate(slot, variables.value);
    if ('error' in outcome) return { error: `expression '${slot.expression}' resulted in error: ${outcome.error}` };
    return outcome;
  }

  private async evaluate(slot: ExpressionSlot, variables: Record<string, unknown> | undefined): Promise<{ value: unknown } | { error: string }> {
    const compiled = slot.compiled;
    if (compiled === undefined) throw new Error('assert: evaluate of an expression that did not compile');
    const activation = variables === undefined ? this.activation : { ...this.activation, variables };
    const outcome = await compiled.evaluate(activation, { costLimit: perCallCostLimit });
    this.remaining -= outcome.cost;
    if (this.remaining < 0) throw new CostBudgetExceeded();
    return outcome;
  }

  /** The `variables` value an expression needs (only the variables it names, each evaluated once), or the first failure. */
  private async variablesFor(expression: string, evaluating: ReadonlySet<string>): Promise<{ value: Record<string, unknown> | undefined } | { error: string }> {
    const names = referencedVariables(expression).filter((n) => this.bySlotName.has(n));
    if (names.length === 0) return { value: this.bySlotName.size > 0 ? {} : undefined };
    const value: Record<string, unknown> = {};
    for (const name of names) {
      const outcome = await this.variable(name, evaluating);
      if ('error' in outcome) return outcome;
      value[name] = outcome.value;
    }
    return { value };
  }

  private variable(name: string, evaluating: ReadonlySet<string>): Promise<VariableOutcome> {
    if (evaluating.has(name)) return Promise.resolve({ error: `composited variable "${name}" fails to evaluate: it refers to itself` });
    let known = this.variableValues.get(name);
    if (known === undefined) {
      known = this.evaluateVariable(name, new Set([...evaluating, name]));
      this.variableValues.set(name, known);
    }
    return known;
  }

  private async evaluateVariable(name: string, evaluating: ReadonlySet<string>): Promise<VariableOutcome> {
    const slot = this.bySlotName.get(name)?.slot;
    if (slot === undefined) throw new Error(`assert: no variable ${name}`);
    if (slot.compiled === undefined) return { error: `composited variable "${name}" fails to compile: ${slot.error ?? ''}` };
    const variables = await this.variablesFor(slot.expression, evaluating);
    if ('error' in variables) return variables;
    const outcome = await this.evaluate(slot, variables.value);
    return 'error' in outcome ? { error: `composited variable "${name}" fails to evaluate: ${outcome.error}` } : outcome;
  }
}
