// The part of cel-go's type check that schema types make possible without a full checker: a
// field selected on an object type the schema closes must exist ("undefined field"), and a
// result whose type is known must be the one asked for (a rule's bool, a message's string).
import type { Expr } from './ast.ts';
import { dynType, type DeclType } from './decl-type.ts';
import type { ReferenceProblem } from './references.ts';

type Kind = DeclType['kind'];

const boolCalls = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '!_', '_&&_', '_||_', '@in', 'matches', 'startsWith', 'endsWith', 'contains', 'isSorted', 'isURL', 'isQuantity']);

/** The result kinds a rule (bool) or a messageExpression (string) may have. */
export type ExpectedResult = 'bool' | 'string';

function fieldOf(type: DeclType | undefined, field: string, id: bigint): { type: DeclType | undefined; problem?: ReferenceProblem } {
  if (type === undefined) return { type: undefined };
  if (type.kind === 'object') {
    const found = type.fields.get(field);
    if (found !== undefined) return { type: found.type };
    if (type.preserveUnknown) return { type: dynType };
    return { type: undefined, problem: { message: `undefined field '${field}'`, id } };
  }
  if (type.kind === 'map') return { type: type.value };
  return { type: undefined };
}

function elementOf(type: DeclType | undefined): DeclType | undefined {
  if (type?.kind === 'list') return type.elem;
  if (type?.kind === 'map') return { kind: 'string', minSize: 2, maxElements: type.maxElements };
  return undefined;
}

/** The first type problem of `root` given its variables' types, or undefined. */
export function typeProblem(root: Expr, variables: ReadonlyMap<string, DeclType | undefined>, expected: ExpectedResult): ReferenceProblem | undefined {
  let problem: ReferenceProblem | undefined;
  const visit = (e: Expr, scope: ReadonlyMap<string, DeclType | undefined>): { type?: DeclType; kind?: Kind } => {
    if (problem !== undefined) return {};
    const k = e.exprKind;
    switch (k.case) {
      case 'identExpr': {
        const type = scope.get(k.value.name);
        return type === undefined ? {} : { type, kind: type.kind };
      }
      case 'constExpr': {
        const c = k.value.constantKind.case;
        const kinds: Partial<Record<string, Kind>> = { stringValue: 'string', int64Value: 'int', doubleValue: 'double', boolValue: 'bool', bytesValue: 'bytes' };
        const kind = c === undefined ? undefined : kinds[c];
        return kind === undefined ? {} : { kind };
      }
      case 'selectExpr': {
        const operand = k.value.operand === undefined ? {} : visit(k.value.operand, scope);
        const found = fieldOf(operand.type, k.value.field, e.id);
        if (found.problem !== undefined) problem = found.problem;
        if (k.value.testOnly) return { kind: 'bool' };
        return found.type === undefined ? {} : { type: found.type, kind: found.type.kind };
      }
      case 'comprehensionExpr': {
        const c = k.value;
        const range = c.iterRange === undefined ? {} : visit(c.iterRange, scope);
        if (c.accuInit) visit(c.accuInit, scope);
        const inner = new Map(scope).set(c.iterVar, elementOf(range.type)).set(c.accuVar, undefined);
        if (c.loopCondition) visit(c.loopCondition, inner);
        if (c.loopStep) visit(c.loopStep, inner);
        const result = c.result === undefined ? {} : visit(c.result, new Map(scope).set(c.accuVar, undefined));
        return result.kind === 'bool' ? { kind: 'bool' } : {};
      }
      case 'callExpr': {
        const call = k.value;
        const target = call.target === undefined ? undefined : visit(call.target, scope);
        const args = call.args.map((a) => visit(a, scope));
        if (call.function === '_[_]') {
          const type = args[0]?.type?.kind === 'list' ? args[0].type.elem : args[0]?.type?.kind === 'map' ? args[0].type.value : undefined;
          return type === undefined ? {} : { type, kind: type.kind };
        }
        if (boolCalls.has(call.function)) return { kind: 'bool' };
        if (call.function === 'size') return { kind: 'int' };
        if (call.function === '_?_:_') return args[1]?.kind === args[2]?.kind && args[1]?.kind !== undefined ? { kind: args[1].kind } : {};
        if (call.function === 'string' || call.function === 'format' || call.function === 'strings.quote') return { kind: 'string' };
        return target === undefined ? {} : {};
      }
      case 'listExpr':
        k.value.elements.forEach((x) => visit(x, scope));
        return { kind: 'list' };
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') visit(entry.keyKind.value, scope);
          if (entry.value) visit(entry.value, scope);
        }
        return { kind: 'map' };
      default:
        return {};
    }
  };
  const result = visit(root, variables);
  if (problem !== undefined) return problem;
  const kind = result.kind;
  if (kind === undefined || kind === 'dyn' || kind === 'int-or-string') return undefined;
  if (expected === 'bool' && kind !== 'bool') return { message: 'cel expression must evaluate to a bool', id: 0n };
  if (expected === 'string' && kind !== 'string') return { message: 'messageExpression must evaluate to a string', id: 0n };
  return undefined;
}
