// The expression-language (CEL) layer of orch: what the rest of the server uses.
//   - CRD validation rules: validateRules (per object), compileSchemaRules (per CRD create/update).
//   - Admission expressions (ValidatingAdmissionPolicy, matchConditions): compileAdmissionExpression.
//   - Limits: kube's cost limits and budgets.
export { validateRules, type RuleValidationOptions, type RuleValidationResult } from './crd-rules.ts';
export { checkSchemaRules, compileSchemaRules, costErrorMessage, type ExpressionCost, type SchemaRulesResult } from './crd-schema-rules.ts';
export { compileAdmissionExpression, type CompiledExpression, type EvalOutcome } from './admission-expressions.ts';
export { escapePropertyName, unescapePropertyName } from './escaping.ts';
export type { StructuralSchema, ValidationRule } from './schema.ts';
export { crdRuntimeCostBudget, perCallCostLimit, staticEstimatedCostLimit, staticEstimatedCrdCostLimit } from './limits.ts';
