// Checks the validation rules of a CRD schema when the CRD is created or updated, as kube's CRD
// validation does: each rule and messageExpression must compile, `oldSelf` only where old values
// correlate, and each expression's worst-case cost (times how often its node can occur) must stay
// under the per-expression limit, and all of them together under the per-CRD limit.
import { forbidden, invalidShown, invalidValue, type FieldError } from '../registry/schema/field-errors.ts';
import { compileNode } from './crd-compile.ts';
import { childPath, indexPath, keyPath } from './field-paths.ts';
import { maxRequestSizeBytes, staticEstimatedCostLimit, staticEstimatedCrdCostLimit } from './limits.ts';
import { ruleShapeErrors } from './rule-shape.ts';
import { additionalPropertiesSchema, type StructuralSchema, type ValidationRule } from './schema.ts';

/** Expressions kept as the most expensive contributors to an over-limit total (kube keeps 4). */
const mostExpensiveMax = 4;

/** One expression's estimated cost, where it is, as counted toward the schema total. */
export interface ExpressionCost {
  readonly path: string;
  readonly cost: number;
}

/** The errors, and every expression's estimated cost (for inspection and tests). */
export interface SchemaRulesResult {
  readonly errors: readonly FieldError[];
  readonly costs: readonly ExpressionCost[];
  readonly totalCost: number;
}

interface Context {
  readonly errors: FieldError[];
  readonly costs: ExpressionCost[];
}

/** How often a node can occur in one object: known, or unbounded (estimated from the node's smallest JSON size). */
type Cardinality = number | 'unbounded';

/**
 * Compiles and cost-checks every `x-kubernetes-validations` rule of `schema`; the errors carry
 * kube's paths under `basePath` (e.g. `spec.validation.openAPIV3Schema`, or
 * `spec.versions[0].schema.openAPIV3Schema`). Empty when the rules may be stored.
 */
export function compileSchemaRules(schema: StructuralSchema, basePath: string): readonly FieldError[] {
  return checkSchemaRules(schema, basePath).errors;
}

/** compileSchemaRules with every expression's estimated cost and their total. */
export function checkSchemaRules(schema: StructuralSchema, basePath: string): SchemaRulesResult {
  const context: Context = { errors: [], costs: [] };
  walk(schema, true, basePath, 1, undefined, context);
  const totalCost = context.costs.reduce((sum, c) => sum + c.cost, 0);
  const errors = [...context.errors];
  if (totalCost > staticEstimatedCrdCostLimit) {
    const expensive = [...context.costs].filter((c) => c.cost >= staticEstimatedCrdCostLimit / 100).sort((a, b) => b.cost - a.cost).slice(0, mostExpensiveMax);
    for (const e of expensive) errors.push(forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errors.push(forbidden(basePath, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', totalCost, staticEstimatedCrdCostLimit)));
  }
  return { errors, costs: context.costs, totalCost };
}

function times(cardinality: Cardinality, bound: number | undefined): Cardinality {
  return cardinality === 'unbounded' || bound === undefined ? 'unbounded' : cardinality * bound;
}

function walk(schema: StructuralSchema, isResourceRoot: boolean, path: string, cardinality: Cardinality, uncorrelatable: string | undefined, context: Context): void {
  checkNode(schema, isResourceRoot, path, cardinality, uncorrelatable, context);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    walk(property, property['x-kubernetes-embedded-resource'] === true, keyPath(childPath(path, 'properties'), name), cardinality, uncorrelatable, context);
  }
  const ap = additionalPropertiesSchema(schema);
  if (ap !== undefined) walk(ap, ap['x-kubernetes-embedded-resource'] === true, childPath(path, 'additionalProperties'), times(cardinality, schema.maxProperties), uncorrelatable, context);
  if (schema.items !== undefined) {
    const itemsUncorrelatable = uncorrelatable ?? (schema['x-kubernetes-list-type'] === 'map' ? undefined : path);
    walk(schema.items, schema.items['x-kubernetes-embedded-resource'] === true, childPath(path, 'items'), times(cardinality, schema.maxItems), itemsUncorrelatable, context);
  }
}

/** The schema paths of a node's rules, in the order rulesOf() gives them: its own, then its allOf entries'. */
function rulePaths(schema: StructuralSchema, path: string): string[] {
  const at = (base: string, i: number): string => indexPath(childPath(base, 'x-kubernetes-validations'), i);
  const own = (schema['x-kubernetes-validations'] ?? []).map((_, i) => at(path, i));
  const nested = (schema.allOf ?? []).flatMap((s, j) => (s['x-kubernetes-validations'] ?? []).map((_, i) => at(indexPath(childPath(path, 'allOf'), j), i)));
  return [...own, ...nested];
}

function checkNode(schema: StructuralSchema, isResourceRoot: boolean, path: string, cardinality: Cardinality, uncorrelatable: string | undefined, context: Context): void {
  const paths = rulePaths(schema, path);
  if (paths.length === 0) return;
  const shape = [
    ...ruleShapeErrors(schema, schema['x-kubernetes-validations'] ?? [], path),
    ...(schema.allOf ?? []).flatMap((s, j) => ruleShapeErrors(schema, s['x-kubernetes-validations'] ?? [], indexPath(childPath(path, 'allOf'), j))),
  ];
  if (shape.length > 0) {
    context.errors.push(...shape);
    return;
  }
  const node = compileNode(schema, isResourceRoot);
  const minSize = node.type?.minSize ?? 1;
  const repeat = cardinality === 'unbounded' ? Math.floor(maxRequestSizeBytes / (minSize + 1)) : cardinality;
  node.rules.forEach((compiled, i) => {
    const rulePath = childPath(paths[i] ?? path, 'rule');
    const messagePath = childPath(paths[i] ?? path, 'messageExpression');
    const ruleCost = compiled.estimatedCost * repeat;
    if (ruleCost > staticEstimatedCostLimit) context.errors.push(forbidden(rulePath, costErrorMessage('estimated rule cost', ruleCost, staticEstimatedCostLimit)));
    context.costs.push({ path: rulePath, cost: ruleCost });
    if (compiled.error !== undefined) context.errors.push(invalidShown(rulePath, goValidationRule(compiled.rule), compiled.error));
    if (compiled.messageError !== undefined) {
      context.errors.push(invalidShown(messagePath, goValidationRule(compiled.rule), compiled.messageError));
    } else if (compiled.messageProgram !== undefined) {
      const messageCost = compiled.messageEstimatedCost * repeat;
      if (messageCost > staticEstimatedCostLimit) context.errors.push(forbidden(messagePath, costErrorMessage('estimated messageExpression cost', messageCost, staticEstimatedCostLimit)));
      context.costs.push({ path: messagePath, cost: messageCost });
    }
    if (compiled.usesOldSelf && uncorrelatable !== undefined) {
      context.errors.push(invalidValue(rulePath, compiled.rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
    }
  });
}

/** kube's wording of an estimate over its limit, with the factor as Go prints it. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  let shown: string;
  if (factor > 100) shown = 'more than 100x';
  else if (factor < 1.5) shown = `${factor.toFixed(6)}x`;
  else shown = `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${shown} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** A validation rule as Go's `%#v` prints kube's internal type (the value of a compile error). */
function goValidationRule(rule: ValidationRule): string {
  const reason = rule.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : `(*apiextensions.FieldValueErrorReason)(${JSON.stringify(rule.reason)})`;
  return `apiextensions.ValidationRule{Rule:${JSON.stringify(rule.rule)}, Message:${JSON.stringify(rule.message ?? '')}, MessageExpression:${JSON.stringify(rule.messageExpression ?? '')}, Reason:${reason}, FieldPath:${JSON.stringify(rule.fieldPath ?? '')}}`;
}
