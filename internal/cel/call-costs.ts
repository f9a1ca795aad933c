// What one function call costs, as a function of the sizes of its operands (cel-go's cost model
// and kube's library costs): the runtime meter passes actual sizes, the estimator worst-case ones.
// A size is a string's or bytes' length, a list's items or a map's entries, and 1 for anything else.
import { authorizerCheckCost, regexLengthCostFactor, stringTraversalCostFactor } from './limits.ts';

/** Sizes of a call's receiver, arguments and result (the result only where the cost needs it). */
export interface CallSizes {
  readonly target?: number;
  readonly args: readonly number[];
  readonly result?: number;
}

/** The cost of one call of one function, from the sizes of its operands. */
export type CallCostFunction = (sizes: CallSizes) => number;

const traverse = (size: number): number => Math.ceil(size * stringTraversalCostFactor);

/** Cost of a regex of `regexSize` bytes run over `inputSize` bytes of input. */
export function regexCost(inputSize: number, regexSize: number): number {
  return Math.ceil((1 + inputSize) * stringTraversalCostFactor) * Math.ceil(regexSize * regexLengthCostFactor);
}

/** Operands in cel-go's order: a method's receiver first, then its arguments. */
function operands(s: CallSizes): readonly number[] {
  return s.target === undefined ? s.args : [s.target, ...s.args];
}

const first = (s: CallSizes): number => operands(s)[0] ?? 1;
const second = (s: CallSizes): number => operands(s)[1] ?? 1;

const compare: CallCostFunction = (s) => traverse(Math.min(first(s), second(s)));

/** Functions whose cost is not the flat 1 of a fixed-width operation. */
const costs: ReadonlyMap<string, CallCostFunction> = new Map<string, CallCostFunction>([
  ['_==_', compare], ['_!=_', compare], ['_<_', compare], ['_<=_', compare], ['_>_', compare], ['_>=_', compare],
  ['@in', (s) => second(s)],
  ['startsWith', (s) => traverse(first(s))],
  ['endsWith', (s) => traverse(first(s))],
  ['strings.quote', (s) => traverse(first(s))],
  ['format', (s) => traverse(first(s))],
  ['matches', (s) => regexCost(first(s), second(s))],
  ['find', (s) => regexCost(first(s), second(s))],
  ['findAll', (s) => regexCost(first(s), second(s))],
  ['contains', (s) => traverse(first(s)) * traverse(second(s))],
  ['lowerAscii', (s) => traverse(first(s))],
  ['upperAscii', (s) => traverse(first(s))],
  ['substring', (s) => traverse(first(s))],
  ['trim', (s) => traverse(first(s))],
  ['url', (s) => traverse(first(s))],
  ['isURL', (s) => traverse(first(s))],
  ['replace', (s) => traverse(first(s) * 2)],
  ['split', (s) => traverse(first(s) * 2)],
  ['join', (s) => traverse((s.result ?? first(s)) * 2)],
  ['isSorted', (s) => first(s)],
  ['sum', (s) => first(s)],
  ['max', (s) => first(s)],
  ['min', (s) => first(s)],
  ['indexOf', (s) => first(s)],
  ['lastIndexOf', (s) => first(s)],
  ['check', () => authorizerCheckCost],
]);

/** Functions whose cost grows with a string operand when the operand's type decides (`+`, conversions). */
export function stringOperandCost(name: string, sizes: CallSizes, stringLike: readonly boolean[]): number | undefined {
  if (name === '_+_' && stringLike[0] === true && stringLike[1] === true) return traverse(first(sizes) + second(sizes));
  if ((name === 'string' || name === 'bytes') && stringLike[0] === true) return traverse(first(sizes));
  return undefined;
}

/**
 * The cost of one call of `name` by the built-in table (library costs are asked first by the
 * caller); `stringLike` says which operands (receiver first) are strings or bytes.
 */
export function callCost(name: string, sizes: CallSizes, stringLike: readonly boolean[]): number {
  const own = costs.get(name);
  if (own !== undefined) return own(sizes);
  return stringOperandCost(name, sizes, stringLike) ?? 1;
}

/** Whether `name`'s cost depends on operand sizes (otherwise every call costs 1). */
export function hasSizedCost(name: string): boolean {
  return costs.has(name) || name === '_+_' || name === 'string' || name === 'bytes';
}
