// Compiling the `x-kubernetes-validations` of one schema node: each rule (and messageExpression)
// over `self` and `oldSelf` typed by the node, with its worst-case cost. Cached per schema node.
import { SchemaKeyedCache, cachedProgram } from './compile-cache.ts';
import { estimateCost } from './cost-estimate.ts';
import { declTypeOf, type DeclType } from './decl-type.ts';
import { isStackOverflow, issueText, recursionDepthMessage, type Program } from './program.ts';
import { referencesVariable } from './references.ts';
import type { StructuralSchema, ValidationRule } from './schema.ts';
import { typeProblem, type ExpectedResult } from './type-check.ts';

/** The variables of a validation rule. */
export const ruleVariables: readonly string[] = ['self', 'oldSelf'];

/** One compiled rule; `error`/`messageError` hold kube's compile error details when compilation failed. */
export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program?: Program;
  readonly error?: string;
  readonly usesOldSelf: boolean;
  readonly estimatedCost: number;
  readonly messageProgram?: Program;
  readonly messageError?: string;
  readonly messageEstimatedCost: number;
}

/** The compiled rules of a node with their node's expression type. */
export interface CompiledNode {
  readonly type: DeclType | undefined;
  readonly rules: readonly CompiledRule[];
}

const cache = new SchemaKeyedCache<CompiledNode>();

/** The rules a node carries: its own and those of its `allOf` entries. */
export function rulesOf(schema: StructuralSchema): readonly ValidationRule[] {
  const own = schema['x-kubernetes-validations'] ?? [];
  const nested = (schema.allOf ?? []).flatMap((s) => s['x-kubernetes-validations'] ?? []);
  return nested.length === 0 ? own : [...own, ...nested];
}

/** A program, or the compile error detail kube gives (`<prefix>compilation failed: ...`, or a result-type error as is). */
function compileTyped(expression: string, types: ReadonlyMap<string, DeclType | undefined>, expected: ExpectedResult, prefix: string): { program?: Program; error?: string } {
  const compiled = cachedProgram(expression, ruleVariables);
  if (compiled.program === undefined) return { error: `${prefix}compilation failed: ${compiled.error}` };
  const problem = typeProblem(compiled.program.ast, types, expected);
  if (problem === undefined) return { program: compiled.program };
  if (problem.id === 0n) return { error: problem.message };
  return { error: `${prefix}compilation failed: ${issueText(expression, compiled.program.offsetOf(problem.id), problem.message)}` };
}

function compileRule(rule: ValidationRule, type: DeclType | undefined): CompiledRule {
  try {
    return compileRuleUnguarded(rule, type);
  } catch (e) {
    // The AST depth is bounded at parse time; a stack overflow here is still a compile error, never a 500.
    if (!isStackOverflow(e)) throw e;
    return { rule, error: `compilation failed: ERROR: <input>:-1:0: ${recursionDepthMessage}`, usesOldSelf: false, estimatedCost: 0, messageEstimatedCost: 0 };
  }
}

function compileRuleUnguarded(rule: ValidationRule, type: DeclType | undefined): CompiledRule {
  const variables = new Map([['self', type], ['oldSelf', type]]);
  const compiled = compileTyped(rule.rule, variables, 'bool', '');
  const base = compiled.program === undefined
    ? { rule, error: compiled.error, usesOldSelf: false, estimatedCost: 0 }
    : { rule, program: compiled.program, usesOldSelf: referencesVariable(compiled.program.ast, 'oldSelf'), estimatedCost: estimateCost(compiled.program.ast, variables) };
  const messageExpression = rule.messageExpression?.trim() ?? '';
  if (messageExpression === '') return { ...base, messageEstimatedCost: 0 };
  const message = compileTyped(messageExpression, variables, 'string', 'messageExpression ');
  if (message.program === undefined) return { ...base, messageError: message.error, messageEstimatedCost: 0 };
  return { ...base, messageProgram: message.program, messageEstimatedCost: estimateCost(message.program.ast, variables) };
}

/** The compiled rules of a schema node (compiled once per node object). */
export function compileNode(schema: StructuralSchema, isResourceRoot: boolean): CompiledNode {
  return cache.get(schema, isResourceRoot ? 'root' : 'node', () => {
    const type = declTypeOf(schema, isResourceRoot);
    return { type, rules: rulesOf(schema).map((rule) => compileRule(rule, type)) };
  });
}
