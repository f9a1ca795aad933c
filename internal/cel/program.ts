// Compiling and running one expression: parse, check references, instrument for cost, plan once;
// each run gets its own cost meter. Errors are worded as kube-apiserver (cel-go) words them.
import { isCelError, parse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { forEachChild, type Expr } from './ast.ts';
import { costLimitExceededMessage, CostMeter, withMeter } from './cost-meter.ts';
import { callableNames, meteredEnvironment } from './functions.ts';
import { instrument } from './instrument.ts';
import { undeclaredReference } from './references.ts';
import { expressionCodePointLimit, expressionRecursionDepthMax } from './limits.ts';

/** Calls the planner treats as syntax rather than functions. */
const syntaxCalls = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '_[?_]', '_?._', '@not_strictly_false', '__not_strictly_false__']);

/** Identifiers that name types (`type(x) == int`). */
const typeNames = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn'];


/** Whether `name` is a function or operator an expression may call. */
export function isCallable(name: string): boolean {
  return callableNames.has(name) || syntaxCalls.has(name);
}

/** The result of one run: a value, or an error message; with the cost charged either way. */
export type RunOutcome = { readonly value: CelValue; readonly cost: number } | { readonly error: string; readonly cost: number };

/** A planned expression, reusable across runs and safe to share. */
export interface Program {
  readonly expression: string;
  readonly ast: Expr;
  /** The source offset of an AST node (0 when unknown). */
  offsetOf(id: bigint): number;
  /** Runs with the given variables, halting once the cost passes `costLimit`. */
  run(variables: Readonly<Record<string, CelInput>>, costLimit: number): RunOutcome;
}

/** A compiled program, or the compile error in cel-go's form (`ERROR: <input>:1:5: ...`). */
export type CompileOutcome = { readonly program: Program; readonly error?: undefined } | { readonly program?: undefined; readonly error: string };

/** cel-go's text for an issue with no source position. */
function unlocatedIssue(message: string): string {
  return `ERROR: <input>:-1:0: ${message}`;
}

/** cel-go's parser message for an expression nested deeper than its recursion limit. */
export const recursionDepthMessage = 'max recursion depth exceeded';

/** Whether an error is the engine running out of stack (deep nesting that slipped past the checks). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

function codePointCount(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Whether the AST nests deeper than `limit` (walked without recursion). */
function nestsDeeperThan(root: Expr, limit: number): boolean {
  const stack: [Expr, number][] = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > limit) return true;
    forEachChild(node, (child) => stack.push([child, depth + 1]));
  }
  return false;
}

/**
 * Compiles `expression` over the declared variables. As cel-go's parser, refuses an expression
 * over 100,000 code points or nested deeper than 250; a stack overflow anywhere in compiling is
 * the same recursion error, never an exception.
 */
export function compileProgram(expression: string, variables: readonly string[]): CompileOutcome {
  const size = codePointCount(expression);
  if (size > expressionCodePointLimit) {
    return { error: unlocatedIssue(`expression code point size exceeds limit: size: ${size}, limit ${expressionCodePointLimit}`) };
  }
  try {
    return compileParsed(expression, variables);
  } catch (e) {
    if (isStackOverflow(e)) return { error: unlocatedIssue(recursionDepthMessage) };
    return { error: `ERROR: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function compileParsed(expression: string, variables: readonly string[]): CompileOutcome {
  let parsedExpr: ReturnType<typeof parse>;
  try {
    parsedExpr = parse(expression);
  } catch (e) {
    if (isStackOverflow(e)) return { error: unlocatedIssue(recursionDepthMessage) };
    return { error: `ERROR: ${e instanceof Error ? e.message : String(e)}` };
  }
  const parsed = parsedExpr.expr;
  if (nestsDeeperThan(parsed, expressionRecursionDepthMax)) return { error: unlocatedIssue(recursionDepthMessage) };
  const problem = undeclaredReference(parsed, new Set([...variables, ...typeNames]), isCallable);
  if (problem !== undefined) {
    const offset = parsedExpr.sourceInfo?.positions[problem.id.toString()] ?? 0;
    return { error: issueText(expression, offset, problem.message) };
  }
  let planned: ReturnType<typeof plan>;
  try {
    planned = plan(meteredEnvironment, instrument(parsed, isCallable));
  } catch (e) {
    if (isStackOverflow(e)) return { error: unlocatedIssue(recursionDepthMessage) };
    return { error: `ERROR: ${e instanceof Error ? e.message : String(e)}` };
  }
  const ast = parsed;
  return {
    program: {
      expression,
      ast,
      offsetOf: (id) => parsedExpr.sourceInfo?.positions[id.toString()] ?? 0,
      run(vars, costLimit) {
        const meter = new CostMeter(costLimit);
        let result: ReturnType<typeof planned>;
        try {
          result = withMeter(meter, () => planned(vars as Record<string, CelInput>));
        } catch (e) {
          if (!isStackOverflow(e)) throw e;
          return { error: recursionDepthMessage, cost: meter.cost };
        }
        if (meter.exceeded) return { error: costLimitExceededMessage, cost: meter.cost };
        if (isCelError(result)) return { error: runtimeErrorText(result.message), cost: meter.cost };
        return { value: result, cost: meter.cost };
      },
    },
  };
}

/** A compile issue as cel-go prints it: `ERROR: <input>:line:col: message`, the source line and a caret. */
export function issueText(expression: string, offset: number, message: string): string {
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = offset - lineStart;
  const sourceLine = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${sourceLine}\n | ${'.'.repeat(column)}^`;
}

/** The engine's runtime error texts in cel-go's words, which kube's messages embed. */
export function runtimeErrorText(message: string): string {
  const noKey = /^field not found: (.*)$/.exec(message) ?? /^key not found: (.*)$/.exec(message);
  if (noKey) return `no such key: ${noKey[1]}`;
  if (message.startsWith('found no matching overload') || message.startsWith('no such overload')) return 'no such overload';
  if (message.includes('divide by zero') || message.includes('division by zero')) return 'division by zero';
  if (message.includes('modulus by zero')) return 'modulus by zero';
  if (message.includes('overflow')) return 'integer overflow';
  if (message.startsWith('index out of bounds') || message.includes('out of range')) return `index out of bounds: ${message.replace(/^.*?: /, '')}`;
  return message;
}
