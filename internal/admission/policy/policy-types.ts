// ValidatingAdmissionPolicies and their bindings as the plugin reads them: the spec fields of a
// stored (defaulted) object of admissionregistration.<domain>/v1beta1, which v1alpha1 shares.
import type { WebhookRule } from '../webhook/webhook-types.ts';

/** One `resourceRules[i]` or `excludeResourceRules[i]`: a webhook rule that may also name objects. */
export interface NamedRule extends WebhookRule {
  readonly resourceNames?: readonly string[];
}

/** `matchConstraints` of a policy, `matchResources` of a binding (defaulted: policy and selectors set). */
export interface MatchResources {
  readonly namespaceSelector?: unknown;
  readonly objectSelector?: unknown;
  readonly resourceRules?: readonly NamedRule[];
  readonly excludeResourceRules?: readonly NamedRule[];
  readonly matchPolicy?: string;
}

/** `spec.paramKind`: the kind of the objects a binding's paramRef names. */
export interface ParamKind {
  readonly apiVersion?: string;
  readonly kind?: string;
}

/** `spec.paramRef` of a binding. */
export interface ParamRef {
  readonly name?: string;
  readonly namespace?: string;
  readonly selector?: unknown;
  /** `Allow` or `Deny` (defaulted to Deny). */
  readonly parameterNotFoundAction?: string;
}

/** One `spec.validations[i]`. */
export interface Validation {
  readonly expression: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?: string;
}

/** `spec` of a ValidatingAdmissionPolicy. */
export interface PolicySpec {
  readonly paramKind?: ParamKind;
  readonly matchConstraints?: MatchResources;
  readonly validations?: readonly Validation[];
  /** `Fail` or `Ignore` (defaulted to Fail). */
  readonly failurePolicy?: string;
  readonly auditAnnotations?: readonly { readonly key: string; readonly valueExpression: string }[];
  readonly matchConditions?: readonly { readonly name: string; readonly expression: string }[];
  readonly variables?: readonly { readonly name: string; readonly expression: string }[];
}

/** `spec` of a ValidatingAdmissionPolicyBinding. */
export interface BindingSpec {
  readonly policyName?: string;
  readonly paramRef?: ParamRef;
  readonly matchResources?: MatchResources;
  /** `Deny`, `Warn`, `Audit`. */
  readonly validationActions?: readonly string[];
}

/** A binding as the dispatcher reads it. */
export interface PolicyBinding {
  readonly name: string;
  readonly spec: BindingSpec;
}
