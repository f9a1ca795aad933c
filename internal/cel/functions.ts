// The function set of every environment: the standard library and the Kubernetes libraries (with
// the strings extension), behind a resolver that charges each call's cost to the running meter;
// equality and list concatenation made set/map-list aware; and the cost hooks the instrumented
// AST calls. The resolver wraps whole overload groups, so a call is dispatched once.
import { celEnv, isCelError, isCelList, isCelMap, type CelEnv, type CelFunc, type CelValue } from '@bufbuild/cel';
import { callCost, hasSizedCost } from './call-costs.ts';
import { actualSize, charge, isStringLike } from './cost-meter.ts';
import { celEquals } from './equality.ts';
import { concatLists } from './list-concat.ts';
import { libraryFunctions, libraryRuntimeCosts } from './libraries.ts';
import { listLiteralBaseCost, mapLiteralBaseCost, selectAndIdentCost, stringTraversalCostFactor } from './limits.ts';

/** Names of the cost hooks the instrumented AST calls; no expression can name them (`@` is not an identifier character). */
export const costHook = {
  attribute: '@orch.attr',
  step: '@orch.step',
  list: '@orch.list',
  map: '@orch.map',
} as const;

/** The engine's overload group as its planner calls it. */
type CallResult = CelValue | Error | undefined;
interface Group {
  readonly name: string;
  [Symbol.iterator](): IterableIterator<CelFunc>;
  call(id: number, target: CelValue | undefined, args: CelValue[]): CallResult;
}

const base = celEnv({ funcs: [...libraryFunctions] });

function originalGroup(name: string): Group {
  const group = base.funcs.find(name);
  if (group === undefined) throw new Error(`the environment has no function ${name}`);
  return group as unknown as Group;
}

function group(name: string, call: Group['call'], overloads: Iterable<CelFunc> = []): Group {
  return { name, [Symbol.iterator]: () => [...overloads][Symbol.iterator](), call };
}

/** Whether a value has a size beyond 1 (strings, bytes, lists, maps). */
function isSized(value: CelValue | undefined): boolean {
  return typeof value === 'string' || value instanceof Uint8Array || isCelList(value) || isCelMap(value);
}

/** Whether every operand has size 1, so a size-dependent cost is the flat 1. */
function allUnsized(target: CelValue | undefined, args: readonly CelValue[]): boolean {
  if (isSized(target)) return false;
  for (const a of args) if (isSized(a)) return false;
  return true;
}

/** A group that charges each successful call's cost (from its operands' sizes) after the call. */
function metered(original: Group): Group {
  const name = original.name;
  const libraryCost = libraryRuntimeCosts.get(name);
  const sized = hasSizedCost(name);
  return group(name, (id, target, args) => {
    const result = original.call(id, target, args);
    if (result === undefined || isCelError(result)) return result;
    if (libraryCost === undefined && (!sized || allUnsized(target, args))) {
      charge(1);
      return result;
    }
    const operands = target === undefined ? args : [target, ...args];
    const library = libraryCost?.(operands, result as CelValue);
    if (library !== undefined) {
      charge(library);
    } else {
      const sizes = { target: target === undefined ? undefined : actualSize(target), args: args.map((a) => actualSize(a)), result: actualSize(result as CelValue) };
      charge(callCost(name, sizes, operands.map((v) => isStringLike(v))));
    }
    return result;
  }, original);
}

const scalarEquals = originalGroup('_==_');
const scalar = (a: CelValue, b: CelValue): boolean => scalarEquals.call(0, undefined, [a, b]) === true;
const equalityCost = (a: CelValue, b: CelValue): number => callCost('_==_', { args: [actualSize(a), actualSize(b)] }, []);

function equality(name: '_==_' | '_!=_', negate: boolean): Group {
  return group(name, (_id, target, args) => {
    const [a, b] = args;
    if (target !== undefined || args.length !== 2 || a === undefined || b === undefined) return undefined;
    charge(equalityCost(a, b));
    return celEquals(a, b, scalar) !== negate;
  }, originalGroup(name));
}

/** `_+_` with set/map-list semantics when a list operand is one, else the standard overloads. */
function addition(): Group {
  const standard = metered(originalGroup('_+_'));
  return group('_+_', (id, target, args) => {
    const [x, y] = args;
    if (target === undefined && isCelList(x) && isCelList(y)) {
      const merged = concatLists(x, y, scalar);
      if (merged !== undefined) {
        // The merge hashes both operands: charged by their sizes, as a traversal of both.
        charge(Math.max(1, Math.ceil((x.size + y.size) * stringTraversalCostFactor)));
        return merged;
      }
    }
    return standard.call(id, target, args);
  }, standard);
}

function hook(name: string, units: number): Group {
  return group(name, (_id, _target, args) => {
    charge(units);
    return args[0];
  });
}

const stepHook = group(costHook.step, (_id, _target, args) => {
  charge(Number(args[1] ?? 0n));
  return args[0];
});

function buildGroups(): ReadonlyMap<string, Group> {
  const groups = new Map<string, Group>();
  for (const f of base.funcs) if (!groups.has(f.name)) groups.set(f.name, metered(originalGroup(f.name)));
  groups.set('_==_', equality('_==_', false));
  groups.set('_!=_', equality('_!=_', true));
  groups.set('_+_', addition());
  groups.set(costHook.attribute, hook(costHook.attribute, selectAndIdentCost));
  groups.set(costHook.list, hook(costHook.list, listLiteralBaseCost));
  groups.set(costHook.map, hook(costHook.map, mapLiteralBaseCost));
  groups.set(costHook.step, stepHook);
  return groups;
}

const groups = buildGroups();

/**
 * The environment expressions are planned in: the base environment with a resolver of metered
 * groups. The planner reads only `funcs`, `registry` and `namespace` of an environment.
 */
export const meteredEnvironment: CelEnv = {
  namespace: base.namespace,
  registry: base.registry,
  variables: base.variables,
  funcs: {
    [Symbol.iterator]: () => base.funcs[Symbol.iterator](),
    find: (name: string) => groups.get(name),
  },
} as unknown as CelEnv;

/** Names an expression may call (the cost hooks excluded). */
export const callableNames: ReadonlySet<string> = new Set([...base.funcs].map((f) => f.name));
