// Every bound of the expression-language layer, in one place. Values follow Kubernetes 1.28
// (k8s.io/apiserver/pkg/apis/cel/config.go and the apiextensions validation limits); cost factors
// follow the cel-go cost model the server uses.

/** Runtime cost limit of one expression evaluation (kube `PerCallLimit`). */
export const perCallCostLimit = 1_000_000;

/** Runtime cost budget shared by all validation rules of one custom-resource validation (kube `RuntimeCELCostBudget`). */
export const crdRuntimeCostBudget = 10_000_000;

/** Worst-case estimated cost allowed for one validation expression (kube `StaticEstimatedCostLimit`). */
export const staticEstimatedCostLimit = 10_000_000;

/** Worst-case estimated cost allowed for all validation expressions of one schema (kube `StaticEstimatedCRDCostLimit`). */
export const staticEstimatedCrdCostLimit = 100_000_000;

/** Request size the worst-case sizes of unbounded lists, maps and strings derive from (kube `MaxRequestSizeBytes`, 3 MiB). */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

/** Longest message a `messageExpression` may produce (kube `MaxEvaluatedMessageExpressionSizeBytes`). */
export const maxMessageExpressionBytes = 5 * 1024;

/** Compiled programs kept by one compile cache before the oldest is dropped. */
export const compileCacheEntriesMax = 4096;

/** Evaluation passes of an admission expression while authorizer decisions are being fetched. */
export const authorizerPassesMax = 16;

/** Cost of reading a variable or selecting a field. */
export const selectAndIdentCost = 1;

/**
 * Fixed base cost of a list literal. The project specification sets 40; cel-go charges 10
 * (`ListCreateBaseCost`) and 40 for a message literal.
 */
export const listLiteralBaseCost = 40;

/** Fixed base cost of a map literal (cel-go `MapCreateBaseCost`). */
export const mapLiteralBaseCost = 30;

/** Cost per byte of one traversal of a string (cel-go `StringTraversalCostFactor`). */
export const stringTraversalCostFactor = 0.1;

/** Cost per byte of a regular expression, multiplied by the traversal cost of the input (cel-go `RegexStringLengthCostFactor`). */
export const regexLengthCostFactor = 0.25;

/** Fixed cost of one authorizer check (kube's authz library: two checks per expression fit the per-call limit). */
export const authorizerCheckCost = 350_000;

/** Longest expression, in code points (cel-go parser `ExpressionSizeCodePointLimit` default). */
export const expressionCodePointLimit = 100_000;

/** Deepest nesting of an expression (cel-go parser `MaxRecursionDepth` default). */
export const expressionRecursionDepthMax = 250;
