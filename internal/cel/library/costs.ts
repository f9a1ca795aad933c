// Costs of the library functions, as kube's library CostEstimator (k8s.io/apiserver/pkg/cel/
// library/cost.go) gives them, in cel-go's cost units. Two views of one rule:
//   - runtime (CallCost): the cost of a call given its actual arguments and result;
//   - static (EstimateCallCost): the min..max cost given size ranges of receiver and arguments.
// A function absent from a map, or a cost function returning undefined, means "the default
// call cost" (1 in cel-go). String sizes are code points, as cel-go's String.Size counts.
import { isCelList, isCelMap, type CelValue } from '@bufbuild/cel';

/** cel-go's common.StringTraversalCostFactor. */
export const stringTraversalCostFactor = 0.1;
/** cel-go's common.RegexStringLengthCostFactor. */
export const regexStringLengthCostFactor = 0.25;
/** One authorization check: set so that two fit in an expression's budget. */
export const authorizationCheckCost = 350000;
/** Costs saturate at uint64's maximum, as cel-go's do. */
const costMax = 2 ** 64 - 1;

/**
 * Runtime cost of one call. `args` lists the receiver first for member calls (as cel-go passes
 * them), then the arguments; `result` is the call's value. undefined: use the default cost.
 */
export type RuntimeCallCost = (args: readonly CelValue[], result: CelValue | undefined) => number | undefined;

/** A size range (string code points, bytes, list or map entries), max possibly costMax. */
export interface SizeRange {
  readonly min: number;
  readonly max: number;
}

/** What the static estimator knows about a receiver or argument. */
export interface EstimateNode {
  readonly size: SizeRange;
  /** For a list, its element kind and size range when the schema gives them. */
  readonly kind?: 'list' | 'string' | 'bytes' | 'other';
  readonly elementKind?: 'string' | 'bytes' | 'other';
  readonly elementSize?: SizeRange;
}

/** A static estimate: the cost range and, when known, the result's size range. */
export interface CallEstimate {
  readonly cost: SizeRange;
  readonly resultSize?: SizeRange;
}

/** Static cost of one call from its receiver (target) and arguments. undefined: use the default. */
export type EstimatedCallCost = (target: EstimateNode | undefined, args: readonly EstimateNode[]) => CallEstimate | undefined;

const utf8 = new TextEncoder();

function saturate(n: number): number {
  return n > costMax ? costMax : n;
}

/** cel-go's actualSize: the Size() of strings, bytes, lists and maps, else 1. */
export function actualSize(value: CelValue | undefined): number {
  if (typeof value === 'string') return [...value].length;
  if (value instanceof Uint8Array) return value.length;
  if (isCelList(value) || isCelMap(value)) return value.size;
  return 1;
}

/** kube's traversalCost: strings and bytes by length (UTF-8 bytes) × 0.1, lists and maps summed. */
export function traversalCost(value: CelValue | undefined): number {
  if (typeof value === 'string') return Math.trunc(utf8.encode(value).length * stringTraversalCostFactor);
  if (value instanceof Uint8Array) return Math.trunc(value.length * stringTraversalCostFactor);
  if (isCelList(value)) {
    let cost = 0;
    for (const item of value) cost += traversalCost(item);
    return cost;
  }
  if (isCelMap(value)) {
    let cost = 0;
    for (const [key, item] of value) cost += traversalCost(key) + traversalCost(item);
    return cost;
  }
  return 1;
}

function scaled(size: number, factor: number): number {
  return saturate(Math.ceil(size * factor));
}

const fixed = (cost: number): RuntimeCallCost => () => cost;
const traversal: RuntimeCallCost = (args) => (args.length > 0 ? traversalCost(args[0]) : 0);
const stringScan = (factor: number): RuntimeCallCost => (args) => (args.length >= 1 ? scaled(actualSize(args[0]), factor) : undefined);
const regexCost: RuntimeCallCost = (args) =>
  args.length >= 2 ? saturate(scaled(1 + actualSize(args[0]), stringTraversalCostFactor) * scaled(actualSize(args[1]), regexStringLengthCostFactor)) : undefined;

const nominalAuthorizerFunctions = ['serviceAccount', 'path', 'group', 'resource', 'subresource', 'namespace', 'name', 'allowed', 'reason', 'error', 'errored'];
const nominalQuantityFunctions = ['sign', 'asInteger', 'isInteger', 'asApproximateFloat', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub'];

/** Runtime costs by function name (kube's CallCost). */
export const libraryCosts: ReadonlyMap<string, RuntimeCallCost> = new Map<string, RuntimeCallCost>([
  ['check', fixed(authorizationCheckCost)],
  ...nominalAuthorizerFunctions.map((name) => [name, fixed(1)] as const),
  ...['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf'].map((name) => [name, traversal] as const),
  ...['url', 'lowerAscii', 'upperAscii', 'substring', 'trim', 'quantity', 'isQuantity'].map((name) => [name, stringScan(stringTraversalCostFactor)] as const),
  ...['replace', 'split'].map((name) => [name, stringScan(2 * stringTraversalCostFactor)] as const),
  ['join', (args, result) => (args.length >= 1 ? scaled(actualSize(result), 2 * stringTraversalCostFactor) : undefined)],
  ['find', regexCost],
  ['findAll', regexCost],
  ...nominalQuantityFunctions.map((name) => [name, fixed(1)] as const),
]);

function range(min: number, max: number): SizeRange {
  return { min: saturate(min), max: saturate(max) };
}

function times(size: SizeRange, factor: number): SizeRange {
  return range(Math.ceil(size.min * factor), Math.ceil(size.max * factor));
}

function product(a: SizeRange, b: SizeRange): SizeRange {
  return range(a.min * b.min, a.max * b.max);
}

function sum(a: SizeRange, b: SizeRange): SizeRange {
  return range(a.min + b.min, a.max + b.max);
}

const unknownSize: SizeRange = { min: 0, max: costMax };

const listEstimate: EstimatedCallCost = (target) => {
  if (target === undefined) return undefined;
  if (target.kind === 'list') {
    let elementCost: SizeRange = { min: 1, max: 1 };
    if (target.elementKind === 'string' || target.elementKind === 'bytes') {
      elementCost = sum(elementCost, times(target.elementSize ?? unknownSize, stringTraversalCostFactor));
    }
    return { cost: product(target.size, elementCost) };
  }
  return { cost: times(target.size, stringTraversalCostFactor) };
};

const stringEstimate: EstimatedCallCost = (target) =>
  target === undefined ? undefined : { cost: times(target.size, stringTraversalCostFactor), resultSize: target.size };

const regexEstimate: EstimatedCallCost = (target, args) => {
  const pattern = args[0];
  if (target === undefined || pattern === undefined) return undefined;
  const textCost = times(sum(target.size, { min: 1, max: 1 }), stringTraversalCostFactor);
  return { cost: product(textCost, times(pattern.size, regexStringLengthCostFactor)), resultSize: { min: 0, max: target.size.max } };
};

/** join: the result is the elements plus separators; its traversal is the cost. */
function joinEstimate(target: EstimateNode | undefined, args: readonly EstimateNode[]): CallEstimate | undefined {
  if (target === undefined) return undefined;
  let size: SizeRange = target.elementSize === undefined ? { min: 0, max: 0 } : product(target.size, target.elementSize);
  const separator = args[0];
  if (separator !== undefined) {
    const separators = range(Math.max(0, target.size.min - 1), Math.max(0, target.size.max - 1));
    size = sum(size, product(separator.size, separators));
  }
  return { cost: times(size, stringTraversalCostFactor), resultSize: size };
}

/**
 * Static estimates by function name (kube's EstimateCallCost). replace and split follow kube's
 * cost but give no result size (kube's finer result-size rules are not carried over).
 * quantity/isQuantity have none: kube's estimator requires a receiver they never have.
 */
export const libraryCostEstimates: ReadonlyMap<string, EstimatedCallCost> = new Map<string, EstimatedCallCost>([
  ['check', () => ({ cost: { min: authorizationCheckCost, max: authorizationCheckCost } })],
  ...nominalAuthorizerFunctions.map((name) => [name, () => ({ cost: { min: 1, max: 1 } })] as const),
  ...['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf'].map((name) => [name, listEstimate] as const),
  ['url', (_target, args) => (args.length === 1 && args[0] !== undefined ? { cost: times(args[0].size, stringTraversalCostFactor) } : undefined)],
  ...['lowerAscii', 'upperAscii', 'substring', 'trim'].map((name) => [name, stringEstimate] as const),
  ...['replace', 'split'].map((name) => [name, (target: EstimateNode | undefined) => (target === undefined ? undefined : { cost: times(target.size, 2 * stringTraversalCostFactor) })] as const),
  ['join', joinEstimate],
  ['find', regexEstimate],
  ['findAll', regexEstimate],
  ...nominalQuantityFunctions.map((name) => [name, () => ({ cost: { min: 1, max: 1 } })] as const),
]);
