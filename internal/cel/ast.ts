// Names for the parsed-expression types of @bufbuild/cel, and small builders of AST nodes.
import type { parse } from '@bufbuild/cel';

/** A parsed expression node. */
export type Expr = ReturnType<typeof parse>['expr'];
/** A function or operator call. */
export type CallExpr = Extract<Expr['exprKind'], { case: 'callExpr' }>['value'];
/** A field selection (or a `has()` test when `testOnly`). */
export type SelectExpr = Extract<Expr['exprKind'], { case: 'selectExpr' }>['value'];
/** A comprehension (what the macros `all`, `exists`, `map`, ... expand to). */
export type ComprehensionExpr = Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value'];
/** A literal. */
export type ConstantExpr = Extract<Expr['exprKind'], { case: 'constExpr' }>['value'];

/** Allocates node ids above those of a parsed expression. */
export class IdSource {
  private next: bigint;
  constructor(root: Expr) {
    let max = 0n;
    const visit = (e: Expr | undefined): void => {
      if (e === undefined) return;
      if (e.id > max) max = e.id;
      forEachChild(e, visit);
    };
    visit(root);
    this.next = max + 1n;
  }
  /** A fresh id. */
  take(): bigint {
    return this.next++;
  }
}

/** A call node `fn(args...)` with a fresh id. */
export function callNode(ids: IdSource, fn: string, args: Expr[]): Expr {
  return {
    $typeName: 'cel.expr.Expr',
    id: ids.take(),
    exprKind: { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: fn, args } },
  } as unknown as Expr;
}

/** An int literal node with a fresh id. */
export function intNode(ids: IdSource, value: number): Expr {
  return {
    $typeName: 'cel.expr.Expr',
    id: ids.take(),
    exprKind: { case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'int64Value', value: BigInt(value) } } },
  } as unknown as Expr;
}

/** Calls `visit` on each direct child of a node. */
export function forEachChild(e: Expr, visit: (child: Expr) => void): void {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr':
      if (k.value.operand) visit(k.value.operand);
      return;
    case 'callExpr':
      if (k.value.target) visit(k.value.target);
      k.value.args.forEach(visit);
      return;
    case 'listExpr':
      k.value.elements.forEach(visit);
      return;
    case 'structExpr':
      for (const entry of k.value.entries) {
        if (entry.keyKind.case === 'mapKey') visit(entry.keyKind.value);
        if (entry.value) visit(entry.value);
      }
      return;
    case 'comprehensionExpr':
      for (const c of [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result]) if (c) visit(c);
      return;
    default:
      return;
  }
}

/** The dotted name a select chain of identifiers spells (`a.b.c`), or undefined. */
export function qualifiedName(e: Expr): string | undefined {
  const k = e.exprKind;
  if (k.case === 'identExpr') return k.value.name;
  if (k.case === 'selectExpr' && !k.value.testOnly && k.value.operand) {
    const parent = qualifiedName(k.value.operand);
    return parent === undefined ? undefined : `${parent}.${k.value.field}`;
  }
  return undefined;
}
