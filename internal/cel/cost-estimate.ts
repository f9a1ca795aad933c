// The worst-case cost of an expression, estimated from its AST and the size bounds of the schema
// (cel-go's checker cost estimator with kube's size estimates): a comprehension costs its range's
// most items times one step, string operations their operands' most bytes, calls their table cost.
import type { ComprehensionExpr, Expr } from './ast.ts';
import { callCost } from './call-costs.ts';
import { dynType, maxStringBytesPerRequest, type DeclType } from './decl-type.ts';
import { libraryEstimates } from './libraries.ts';
import type { EstimateNode } from './library/index.ts';
import { listLiteralBaseCost, mapLiteralBaseCost, selectAndIdentCost } from './limits.ts';

/** What the estimator knows of a subexpression: its worst-case cost, its type, and its most elements or bytes. */
interface Estimate {
  readonly cost: number;
  readonly type: DeclType | undefined;
  readonly size: number;
}

const unknownSize = maxStringBytesPerRequest;
const scalar = (kind: 'int' | 'double' | 'bool' | 'string' | 'bytes', size: number): DeclType => ({ kind, minSize: 1, maxElements: size });

function sizeOf(type: DeclType | undefined): number {
  if (type === undefined) return unknownSize;
  switch (type.kind) {
    case 'list': case 'map': case 'object': case 'string': case 'bytes': case 'int-or-string': case 'dyn':
      return type.maxElements;
    default:
      return 1;
  }
}

const known = (cost: number, type: DeclType | undefined): Estimate => ({ cost, type, size: sizeOf(type) });

function fieldType(type: DeclType | undefined, field: string): DeclType | undefined {
  if (type === undefined) return undefined;
  if (type.kind === 'object') return type.fields.get(field)?.type ?? (type.preserveUnknown ? dynType : undefined);
  if (type.kind === 'map') return type.value;
  return undefined;
}

function elementType(type: DeclType | undefined): DeclType | undefined {
  if (type?.kind === 'list') return type.elem;
  if (type?.kind === 'map') return scalar('string', unknownSize);
  return undefined;
}

const isStringy = (e: Estimate): boolean => e.type?.kind === 'string' || e.type?.kind === 'bytes';

/** Worst-case estimated cost of an expression whose free variables have the given types. */
export function estimateCost(root: Expr, variables: ReadonlyMap<string, DeclType | undefined>): number {
  const visit = (e: Expr, scope: ReadonlyMap<string, DeclType | undefined>): Estimate => {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': {
        const c = k.value.constantKind;
        if (c.case === 'stringValue') return { cost: 0, type: scalar('string', Buffer.byteLength(c.value)), size: Buffer.byteLength(c.value) };
        if (c.case === 'bytesValue') return { cost: 0, type: scalar('bytes', c.value.length), size: c.value.length };
        return { cost: 0, type: undefined, size: 1 };
      }
      case 'identExpr':
        return known(selectAndIdentCost, scope.get(k.value.name));
      case 'selectExpr': {
        const operand = k.value.operand === undefined ? known(0, undefined) : visit(k.value.operand, scope);
        if (k.value.testOnly) return { cost: operand.cost, type: undefined, size: 1 };
        return known(operand.cost + selectAndIdentCost, fieldType(operand.type, k.value.field));
      }
      case 'listExpr': {
        const elements = k.value.elements.map((x) => visit(x, scope));
        const elem = elements[0]?.type;
        const type: DeclType = { kind: 'list', elem: elem ?? dynType, listType: 'atomic', mapKeys: [], minSize: 2, maxElements: elements.length };
        return known(elements.reduce((s, x) => s + x.cost, listLiteralBaseCost), type);
      }
      case 'structExpr': {
        let cost = mapLiteralBaseCost;
        let value: DeclType | undefined;
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') cost += visit(entry.keyKind.value, scope).cost;
          if (entry.value) {
            const v = visit(entry.value, scope);
            cost += v.cost;
            value ??= v.type;
          }
        }
        return known(cost, { kind: 'map', value: value ?? dynType, minSize: 2, maxElements: k.value.entries.length });
      }
      case 'comprehensionExpr':
        return comprehension(k.value, scope);
      case 'callExpr':
        return call(k.value, scope);
      default:
        return known(0, undefined);
    }
  };

  const comprehension = (c: ComprehensionExpr, scope: ReadonlyMap<string, DeclType | undefined>): Estimate => {
    const range = c.iterRange ? visit(c.iterRange, scope) : known(0, undefined);
    const init = c.accuInit ? visit(c.accuInit, scope) : known(0, undefined);
    const inner = new Map(scope).set(c.iterVar, elementType(range.type)).set(c.accuVar, init.type);
    const condition = c.loopCondition ? visit(c.loopCondition, inner) : known(0, undefined);
    const step = c.loopStep ? visit(c.loopStep, inner) : known(0, undefined);
    const result = c.result ? visit(c.result, new Map(scope).set(c.accuVar, step.type ?? init.type)) : known(0, undefined);
    const cost = range.cost + init.cost + result.cost + range.size * (condition.cost + step.cost);
    // map() and filter() build a list at most as long as their range.
    const type = result.type?.kind === 'list' ? { ...result.type, maxElements: range.size } : result.type;
    return known(cost, type);
  };

  const call = (callExpr: Extract<Expr['exprKind'], { case: 'callExpr' }>['value'], scope: ReadonlyMap<string, DeclType | undefined>): Estimate => {
    const fn = callExpr.function;
    const target = callExpr.target === undefined ? undefined : visit(callExpr.target, scope);
    const args = callExpr.args.map((a) => visit(a, scope));
    const argCost = args.reduce((s, a) => s + a.cost, target?.cost ?? 0);
    switch (fn) {
      case '_&&_': case '_||_':
        return known(argCost, scalar('bool', 1));
      case '_?_:_': {
        const [cond, whenTrue, whenFalse] = args;
        const branch = (whenTrue?.cost ?? 0) >= (whenFalse?.cost ?? 0) ? whenTrue : whenFalse;
        const size = Math.max(whenTrue?.size ?? 0, whenFalse?.size ?? 0);
        return { cost: (cond?.cost ?? 0) + (branch?.cost ?? 0), type: branch?.type, size };
      }
      case '_[_]':
        return known(argCost + 1, fieldOrElement(args[0]?.type));
      case '@not_strictly_false':
        return known(argCost + 1, scalar('bool', 1));
    }
    const operands = target === undefined ? args : [target, ...args];
    const library = libraryEstimates.get(fn)?.(target === undefined ? undefined : estimateNode(target), args.map(estimateNode));
    if (library !== undefined) {
      const result = resultOf(fn, operands);
      return { cost: argCost + library.cost.max, type: result.type, size: library.resultSize?.max ?? result.size };
    }
    const sizes = { target: target?.size, args: args.map((a) => a.size) };
    const own = callCost(fn, sizes, operands.map(isStringy));
    return { cost: argCost + own, ...resultOf(fn, operands) };
  };

  return visit(root, variables).cost;
}

/** What the library estimators read of an operand. */
function estimateNode(e: Estimate): EstimateNode {
  const kind = e.type?.kind;
  const elem = e.type?.kind === 'list' ? e.type.elem : undefined;
  const elementKind = elem === undefined ? undefined : elem.kind === 'string' || elem.kind === 'bytes' ? elem.kind : 'other';
  return {
    size: { min: 0, max: e.size },
    kind: kind === 'list' || kind === 'string' || kind === 'bytes' ? kind : 'other',
    ...(elementKind === undefined ? {} : { elementKind, elementSize: { min: 0, max: sizeOf(elem) } }),
  };
}

function fieldOrElement(type: DeclType | undefined): DeclType | undefined {
  if (type?.kind === 'list') return type.elem;
  if (type?.kind === 'map') return type.value;
  return undefined;
}

/** Type and most size of a call's result, where the estimate depends on it. */
function resultOf(fn: string, operands: readonly Estimate[]): { type: DeclType | undefined; size: number } {
  const [a, b] = operands;
  const sized = (type: DeclType): { type: DeclType; size: number } => ({ type, size: sizeOf(type) });
  switch (fn) {
    case '_+_':
      if (a !== undefined && b !== undefined && isStringy(a) && isStringy(b)) return sized(scalar(a.type?.kind === 'bytes' ? 'bytes' : 'string', a.size + b.size));
      if (a?.type?.kind === 'list') return sized({ ...a.type, maxElements: a.size + (b?.size ?? 0) });
      return { type: undefined, size: 1 };
    case 'lowerAscii': case 'upperAscii': case 'trim': case 'substring': case 'replace': case 'format': case 'strings.quote': case 'string':
      return sized(scalar('string', a?.size ?? unknownSize));
    case 'split': case 'findAll':
      return sized({ kind: 'list', elem: scalar('string', a?.size ?? unknownSize), listType: 'atomic', mapKeys: [], minSize: 2, maxElements: a?.size ?? unknownSize });
    case 'join': {
      const elem = a?.type?.kind === 'list' ? sizeOf(a.type.elem) : unknownSize;
      return sized(scalar('string', (a?.size ?? 1) * elem + (b?.size ?? 0) * (a?.size ?? 1)));
    }
    case 'find':
      return sized(scalar('string', a?.size ?? unknownSize));
    default:
      return { type: undefined, size: 1 };
  }
}
