// A light check of a parsed expression before it is planned (the engine has no type checker):
// every free identifier must be a declared variable and every called function must exist, with
// cel-go's wording, so a typo is a compile error rather than a runtime one.
import { forEachChild, qualifiedName, type Expr } from './ast.ts';

/** A problem found in an expression, at the node it concerns. */
export interface ReferenceProblem {
  readonly message: string;
  readonly id: bigint;
}

/** The first reference that is neither a variable in scope nor a known function; or undefined. */
export function undeclaredReference(root: Expr, variables: ReadonlySet<string>, isFunction: (name: string) => boolean): ReferenceProblem | undefined {
  const undeclared = (name: string, id: bigint): ReferenceProblem => ({ message: `undeclared reference to '${name}' (in container '')`, id });
  const visit = (e: Expr, scope: ReadonlySet<string>): ReferenceProblem | undefined => {
    const k = e.exprKind;
    if (k.case === 'identExpr') {
      return scope.has(k.value.name) ? undefined : undeclared(k.value.name, e.id);
    }
    if (k.case === 'comprehensionExpr') {
      const c = k.value;
      const inner = new Set(scope).add(c.iterVar).add(c.accuVar);
      for (const [child, s] of [[c.iterRange, scope], [c.accuInit, scope], [c.loopCondition, inner], [c.loopStep, inner], [c.result, new Set(scope).add(c.accuVar)]] as const) {
        if (child === undefined) continue;
        const found = visit(child, s);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (k.case === 'callExpr') {
      const call = k.value;
      const qualified = call.target === undefined ? undefined : qualifiedName(call.target);
      if (qualified !== undefined && isFunction(`${qualified}.${call.function}`)) {
        for (const arg of call.args) {
          const found = visit(arg, scope);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      if (!isFunction(call.function)) return undeclared(call.function, e.id);
    }
    let found: ReferenceProblem | undefined;
    forEachChild(e, (child) => {
      found ??= visit(child, scope);
    });
    return found;
  };
  return visit(root, variables);
}

/** Whether the expression reads the free variable `name` anywhere. */
export function referencesVariable(root: Expr, name: string): boolean {
  let found = false;
  const visit = (e: Expr, shadowed: boolean): void => {
    const k = e.exprKind;
    if (k.case === 'identExpr' && k.value.name === name && !shadowed) found = true;
    if (k.case === 'comprehensionExpr') {
      const c = k.value;
      const inner = shadowed || c.iterVar === name || c.accuVar === name;
      if (c.iterRange) visit(c.iterRange, shadowed);
      if (c.accuInit) visit(c.accuInit, shadowed);
      for (const child of [c.loopCondition, c.loopStep, c.result]) if (child) visit(child, inner);
      return;
    }
    forEachChild(e, (child) => visit(child, shadowed));
  };
  visit(root, false);
  return found;
}
