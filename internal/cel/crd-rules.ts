// Validates a custom resource against the `x-kubernetes-validations` of its structural schema,
// as kube's apiextensions CEL validator does: schema and value are walked together; each node's
// rules see `self` (and `oldSelf` on update, when the old value correlates: same property path,
// map-list items by key, never through other lists); all rules share one cost budget, and running
// out stops validation.
import { duplicate, forbidden, invalidValue, required, type FieldError } from '../registry/schema/field-errors.ts';
import { compileNode, rulesOf, type CompiledRule } from './crd-compile.ts';
import { childPath, indexPath, keyPath, normalizeRuleFieldPath } from './field-paths.ts';
import { crdRuntimeCostBudget, maxMessageExpressionBytes, perCallCostLimit } from './limits.ts';
import type { Program } from './program.ts';
import { additionalPropertiesSchema, type StructuralSchema, type ValidationRule } from './schema.ts';
import { schemaValue } from './schema-values.ts';

const outOfBudget = 'validation failed due to running out of cost budget, no further validation rules will be run';

/** What validation found, and the budget left (negative once it ran out and validation stopped). */
export interface RuleValidationResult {
  readonly errors: readonly FieldError[];
  readonly remainingBudget: number;
}

/**
 * Options of one validation: the shared budget (kube `RuntimeCELCostBudget` by default), the root
 * path (`''` by default), and whether the root is a resource root (true by default; false to
 * check a default value of an inner node).
 */
export interface RuleValidationOptions {
  readonly costBudget?: number;
  readonly path?: string;
  readonly isResourceRoot?: boolean;
}

interface Walk {
  errors: FieldError[];
  budget: number;
}

/**
 * Evaluates every validation rule of `schema` against `object` (and `oldObject` on update). At a
 * resource root, apiVersion, kind, metadata.name and generateName are visible.
 */
export function validateRules(schema: StructuralSchema, object: unknown, oldObject: unknown, options: RuleValidationOptions = {}): RuleValidationResult {
  const walk: Walk = { errors: [], budget: options.costBudget ?? crdRuntimeCostBudget };
  visit(schema, options.isResourceRoot ?? true, object, oldObject, options.path ?? '', walk);
  return { errors: walk.errors, remainingBudget: walk.budget };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const subtreeRules = new WeakMap<StructuralSchema, boolean>();

/** Whether the node or anything below it carries rules (remembered per node). */
function hasRules(schema: StructuralSchema): boolean {
  const known = subtreeRules.get(schema);
  if (known !== undefined) return known;
  subtreeRules.set(schema, false);
  const ap = additionalPropertiesSchema(schema);
  const found = rulesOf(schema).length > 0
    || Object.values(schema.properties ?? {}).some(hasRules)
    || (ap !== undefined && hasRules(ap))
    || (schema.items !== undefined && hasRules(schema.items));
  subtreeRules.set(schema, found);
  return found;
}

function visit(schema: StructuralSchema, isResourceRoot: boolean, value: unknown, old: unknown, path: string, walk: Walk): void {
  if (value === null || value === undefined || !hasRules(schema)) return;
  evaluateNode(schema, isResourceRoot, value, old, path, walk);
  if (walk.budget < 0) return;
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    const oldItems = correlatedItems(schema, old);
    for (let i = 0; i < value.length && walk.budget >= 0; i++) {
      visit(items, items['x-kubernetes-embedded-resource'] === true, value[i], oldItems(value[i]), indexPath(path, i), walk);
    }
    return;
  }
  if (!isRecord(value)) return;
  const oldMap = isRecord(old) ? old : undefined;
  const ap = additionalPropertiesSchema(schema);
  for (const [k, v] of Object.entries(value)) {
    if (walk.budget < 0) return;
    const property = schema.properties?.[k];
    if (property !== undefined) visit(property, property['x-kubernetes-embedded-resource'] === true, v, oldMap?.[k], childPath(path, k), walk);
    else if (ap !== undefined) visit(ap, ap['x-kubernetes-embedded-resource'] === true, v, oldMap?.[k], keyPath(path, k), walk);
  }
}

/** The old item each new item correlates with: by key in a map-list, none otherwise. */
function correlatedItems(schema: StructuralSchema, old: unknown): (item: unknown) => unknown {
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old) || keys.length === 0) return () => undefined;
  const keyOf = (item: unknown): string => JSON.stringify(keys.map((k) => (isRecord(item) ? item[k] ?? null : null)));
  const byKey = new Map<string, unknown>();
  for (const item of old) byKey.set(keyOf(item), item);
  return (item) => byKey.get(keyOf(item));
}

function ruleText(rule: ValidationRule): string {
  const message = rule.message?.trim() ?? '';
  return message !== '' ? message : rule.rule.trim();
}

function evaluateNode(schema: StructuralSchema, isResourceRoot: boolean, value: unknown, old: unknown, path: string, walk: Walk): void {
  const node = compileNode(schema, isResourceRoot);
  if (node.rules.length === 0 || node.type === undefined) return;
  const shown = schema.type ?? '';
  if (walk.budget <= 0) {
    walk.errors.push(invalidValue(path, shown, outOfBudget));
    walk.budget = -1;
    return;
  }
  const self = schemaValue(value, node.type);
  const oldSelf = old === undefined || old === null ? undefined : schemaValue(old, node.type);
  for (const compiled of node.rules) {
    if (!evaluateRule(compiled, { self, oldSelf }, shown, path, walk)) return;
  }
}

/** Evaluates one rule; false when validation must stop (budget or per-call limit exhausted). */
function evaluateRule(compiled: CompiledRule, vars: { self: unknown; oldSelf: unknown }, shown: string, path: string, walk: Walk): boolean {
  const { rule, program } = compiled;
  if (compiled.error !== undefined) {
    walk.errors.push(invalidValue(path, shown, `rule compile error: ${compiled.error}`));
    return true;
  }
  if (program === undefined) return true;
  if (compiled.usesOldSelf && vars.oldSelf === undefined) return true;
  const activation = vars.oldSelf === undefined ? { self: vars.self } : { self: vars.self, oldSelf: vars.oldSelf };
  const outcome = program.run(activation as never, perCallCostLimit);
  if (outcome.cost > walk.budget) {
    walk.errors.push(invalidValue(path, shown, outOfBudget));
    walk.budget = -1;
    return false;
  }
  walk.budget -= outcome.cost;
  if ('error' in outcome) {
    if (outcome.error === 'no such overload') {
      walk.errors.push(invalidValue(path, shown, `'${outcome.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(rule)}`));
    } else if (outcome.error.startsWith('operation cancelled: actual cost limit exceeded')) {
      walk.errors.push(invalidValue(path, shown, `'${outcome.error}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText(rule)}`));
      walk.budget = -1;
      return false;
    } else {
      walk.errors.push(invalidValue(path, shown, `${outcome.error} evaluating rule: ${ruleText(rule)}`));
    }
    return true;
  }
  if (outcome.value === true) return true;
  const normalized = rule.fieldPath === undefined ? undefined : normalizeRuleFieldPath(rule.fieldPath);
  const errorPath = normalized === undefined || normalized === '' ? path : childPath(path, normalized);
  const detail = messageDetail(compiled, activation, walk);
  if (typeof detail !== 'string') {
    walk.errors.push(invalidValue(errorPath, shown, detail.stop));
    walk.budget = -1;
    return false;
  }
  walk.errors.push(errorForReason(rule.reason, errorPath, shown, detail));
  return true;
}

/**
 * The message of a failed rule: its messageExpression's result when that works, else its message
 * or `failed rule: <rule>`; `stop` when the messageExpression ran out of budget or over its call limit.
 */
function messageDetail(compiled: CompiledRule, activation: Readonly<Record<string, unknown>>, walk: Walk): string | { readonly stop: string } {
  const fallback = (compiled.rule.message?.trim() ?? '') !== '' ? (compiled.rule.message ?? '').trim() : `failed rule: ${ruleText(compiled.rule)}`;
  const program: Program | undefined = compiled.messageProgram;
  if (program === undefined) return fallback;
  const outcome = program.run(activation as never, perCallCostLimit);
  if (outcome.cost > walk.budget) return { stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run' };
  walk.budget -= outcome.cost;
  if ('error' in outcome && outcome.error.startsWith('operation cancelled: actual cost limit exceeded')) {
    return { stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(program.expression)}` };
  }
  if ('error' in outcome || typeof outcome.value !== 'string') return fallback;
  const text = outcome.value.trim();
  if (text === '' || /[\n]/.test(text) || Buffer.byteLength(text) > maxMessageExpressionBytes) return fallback;
  return text;
}

function errorForReason(reason: ValidationRule['reason'], path: string, shown: string, detail: string): FieldError {
  switch (reason) {
    case 'FieldValueForbidden': return forbidden(path, detail);
    case 'FieldValueRequired': return required(path, detail);
    case 'FieldValueDuplicate': return duplicate(path, shown);
    default: return invalidValue(path, shown, detail);
  }
}
