// Every bound of the ValidatingAdmissionPolicy plugin, in one place (TIGER_STYLE: put a limit on
// everything). Values follow kube-apiserver 1.28 (k8s.io/apiserver/pkg/apis/cel/config.go and the
// validatingadmissionpolicy plugin).

/** Cost budget of one (policy, binding, param) evaluation, shared by its expressions (kube `RuntimeCELCostBudget`). */
export const policyRuntimeCostBudget = 10_000_000;

/** Longest audit annotation value kept; a longer one is cut (kube `maxAuditAnnotationValueLength`). */
export const auditAnnotationValueBytesMax = 10 * 1024;

/** Longest message a messageExpression may give before it is ignored (kube `MaxEvaluatedMessageExpressionSizeBytes`). */
export const evaluatedMessageBytesMax = 5 * 1024;

/** How long a request waits for the first list of policies and bindings before it is refused. */
export const policySyncWaitMs = 10_000;

/** Most policies, and most bindings, one replica holds; more is refused when replaced (the previous set is kept). */
export const policiesPerSourceMax = 10_000;

/** Most params one binding's selector may select for one request; more is a configuration error. */
export const paramsPerBindingMax = 1_000;

/** How often the policies and bindings are read again even without a change seen. */
export const policyResyncMs = 30_000;
