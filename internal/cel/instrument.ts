// Rewrites a parsed expression so that evaluating it charges its runtime cost, the way cel-go's
// cost tracker does: 1 per attribute read (a variable with its selections and indexes), the base
// cost of list and map literals, 1 per comprehension step (the loop condition's call), and function
// costs (charged by the metered functions themselves). Logical operators cost nothing.
import { callNode, intNode, IdSource, qualifiedName, type Expr } from './ast.ts';
import { costHook } from './functions.ts';

/** The instrumented copy of `root`; `isFunction` says which dotted names are namespaced functions. */
export function instrument(root: Expr, isFunction: (name: string) => boolean): Expr {
  const ids = new IdSource(root);
  const wrap = (hook: string, e: Expr): Expr => callNode(ids, hook, [e]);

  const rewrite = (e: Expr): Expr => {
    const k = e.exprKind;
    switch (k.case) {
      case 'identExpr':
        return wrap(costHook.attribute, e);
      case 'selectExpr':
        return wrap(costHook.attribute, attributeChain(e));
      case 'callExpr': {
        const call = k.value;
        if (call.function === '_[_]' && call.target === undefined) return wrap(costHook.attribute, attributeChain(e));
        const namespaced = call.target !== undefined && isFunction(`${qualifiedName(call.target) ?? ''}.${call.function}`);
        const target = call.target === undefined || namespaced ? call.target : rewrite(call.target);
        return { ...e, exprKind: { case: 'callExpr', value: { ...call, target, args: call.args.map(rewrite) } } } as Expr;
      }
      case 'listExpr':
        return wrap(costHook.list, { ...e, exprKind: { case: 'listExpr', value: { ...k.value, elements: k.value.elements.map(rewrite) } } } as Expr);
      case 'structExpr': {
        const entries = k.value.entries.map((entry) => ({
          ...entry,
          keyKind: entry.keyKind.case === 'mapKey' ? { case: 'mapKey' as const, value: rewrite(entry.keyKind.value) } : entry.keyKind,
          value: entry.value === undefined ? undefined : rewrite(entry.value),
        }));
        return wrap(costHook.map, { ...e, exprKind: { case: 'structExpr', value: { ...k.value, entries } } } as Expr);
      }
      case 'comprehensionExpr': {
        const c = k.value;
        const condition = c.loopCondition === undefined ? undefined : rewrite(c.loopCondition);
        const isCall = c.loopCondition?.exprKind.case === 'callExpr';
        const loopCondition = condition === undefined ? undefined : callNode(ids, costHook.step, [condition, intNode(ids, isCall ? 1 : 0)]);
        const value = {
          ...c,
          iterRange: c.iterRange && rewrite(c.iterRange),
          accuInit: c.accuInit && rewrite(c.accuInit),
          loopCondition,
          loopStep: c.loopStep && rewrite(c.loopStep),
          result: c.result && rewrite(c.result),
        };
        return { ...e, exprKind: { case: 'comprehensionExpr', value } } as Expr;
      }
      default:
        return e;
    }
  };

  /** A select/index chain read as one attribute: its links stay, index arguments are rewritten. */
  const attributeChain = (e: Expr): Expr => {
    const k = e.exprKind;
    if (k.case === 'selectExpr' && k.value.operand) {
      return { ...e, exprKind: { case: 'selectExpr', value: { ...k.value, operand: attributeChain(k.value.operand) } } } as Expr;
    }
    if (k.case === 'callExpr' && k.value.function === '_[_]' && k.value.target === undefined && k.value.args.length === 2) {
      const [operand, index] = k.value.args as [Expr, Expr];
      return { ...e, exprKind: { case: 'callExpr', value: { ...k.value, args: [attributeChain(operand), rewrite(index)] } } } as Expr;
    }
    if (k.case === 'identExpr') return e;
    return rewrite(e);
  };

  return rewrite(root);
}
