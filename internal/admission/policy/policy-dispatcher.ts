// The validating phase of ValidatingAdmissionPolicies for one request (kube 1.28's
// celAdmissionController.Validate): every matching policy with each matching binding and each of
// its params; failed validations act as the binding's validationActions say (Deny, Warn, Audit);
// configuration and evaluation errors go by the policy's failurePolicy; the first denial refuses
// the request with kube's message, reason and code.
import { notFound, StatusError } from '../../registry/errors/status-error.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from '../attributes.ts';
import { admissionForbidden } from '../forbidden.ts';
import { convertKind } from '../webhook/dispatch-context.ts';
import type { CompiledPolicy } from './compiled-policy.ts';
import { auditAnnotationValueBytesMax } from './limits.ts';
import { collectParams, paramKindText, paramResource, type ParamsDeps } from './policy-params.ts';
import { matchCriteria, type MatchingDeps } from './policy-matching.ts';
import type { PolicyWithBindings } from './policy-source.ts';
import type { PolicyBinding } from './policy-types.ts';
import { validatePolicy, type PolicyDecision, type ValidateResult } from './policy-validator.ts';
import { namespaceVariable, requestVariable } from './request-variable.ts';

/** What dispatching reads besides the request. */
export interface PolicyDispatchDeps extends MatchingDeps, ParamsDeps {
  /** The `authorizer` variable for the request's user (shared by the request's expressions, which may cache its answers). */
  readonly authorizerFor: (attributes: AdmissionAttributes) => unknown;
}

interface Denial {
  readonly policy: string;
  readonly binding?: string;
  readonly decision: PolicyDecision;
}

const namespacesResource = { group: '', resource: 'namespaces' };

/** Status reason to HTTP code, as kube's reasonToCode (anything else is 422). */
export function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden': return 403;
    case 'Unauthorized': return 401;
    case 'RequestEntityTooLarge': return 413;
    default: return 422;
  }
}

/** The refusal of the first denial: admission.NewForbidden's message and details, the decision's reason and its code. */
export function denialError(attributes: AdmissionAttributes, denial: Denial): StatusError {
  const message = denial.binding === undefined
    ? `ValidatingAdmissionPolicy '${denial.policy}' denied request: ${denial.decision.message}`
    : `ValidatingAdmissionPolicy '${denial.policy}' with binding '${denial.binding}' denied request: ${denial.decision.message}`;
  const forbidden = admissionForbidden(attributes, message);
  const reason = denial.decision.reason !== undefined && denial.decision.reason !== '' ? denial.decision.reason : 'Invalid';
  return new StatusError(reasonToCode(reason), reason, forbidden.message, { ...forbidden.details, causes: [{ reason: '', message }] });
}

/** The namespace `namespaceObject` shows: none for cluster-scoped requests and for Namespaces themselves. */
async function namespaceOf(attributes: AdmissionAttributes, deps: PolicyDispatchDeps): Promise<KObject | undefined> {
  const { kind } = attributes;
  if (attributes.namespace === '' || (kind.group === '' && kind.version === 'v1' && kind.kind === 'Namespace')) return undefined;
  const name = attributes.namespace;
  const found = (await deps.objects.get(namespacesResource, undefined, name)) ?? (await deps.objects.get(namespacesResource, undefined, name, { consistent: true }));
  if (found === undefined) throw notFound(namespacesResource, name);
  return found;
}

/** Audit annotations of one policy across its bindings: distinct values of a key joined by ", " (kube's collector). */
class AnnotationCollector {
  private readonly values = new Map<string, string[]>();

  add(key: string, value: string): void {
    const list = this.values.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    this.values.set(key, list);
  }

  publish(policy: string, attributes: AdmissionAttributes): void {
    for (const [key, values] of this.values) attributes.addAnnotation(`${policy}/${key}`, values.join(', '));
  }
}

/** Cuts `value` to at most `max` bytes of UTF-8 (on a character boundary). */
function cutBytes(value: string, max: number): string {
  if (Buffer.byteLength(value) <= max) return value;
  let out = Buffer.from(value).subarray(0, max).toString('utf8');
  while (Buffer.byteLength(out) > max || out.endsWith('\uFFFD')) out = out.slice(0, -1);
  return out;
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** One request's run over the policies. */
class PolicyRun {
  readonly denials: Denial[] = [];
  private namespace: Promise<KObject | undefined> | undefined;
  private authorizer: unknown;

  constructor(
    private readonly attributes: AdmissionAttributes,
    private readonly deps: PolicyDispatchDeps,
  ) {}

  configurationError(err: Error, policy: CompiledPolicy, binding?: PolicyBinding): void {
    if (policy.failurePolicy === 'Ignore') return;
    const message = policy.failurePolicy !== 'Fail'
      ? `unrecognized failure policy: '${policy.failurePolicy}'`
      : binding === undefined ? `failed to configure policy: ${err.message}` : `failed to configure binding: ${err.message}`;
    this.denials.push({ policy: policy.name, ...(binding === undefined ? {} : { binding: binding.name }), decision: { action: 'deny', evaluation: 'error', message } });
  }

  /**
   * Evaluates one policy; an unexpected exception (an odd stored object, a bug) is a configuration
   * error of the policy or binding it came from, answered by the failure policy, never a 500.
   * StatusErrors (the request's namespace not found) are the request's answer and pass through.
   */
  async policy(entry: PolicyWithBindings): Promise<void> {
    try {
      await this.evaluatePolicy(entry);
    } catch (err) {
      if (err instanceof StatusError) throw err;
      this.configurationError(asError(err), entry.policy);
    }
  }

  private async evaluatePolicy({ policy, bindings }: PolicyWithBindings): Promise<void> {
    const verdict = await matchCriteria(policy.spec.matchConstraints, this.attributes, this.deps);
    if ('error' in verdict) return this.configurationError(verdict.error, policy);
    if (!verdict.matches) return;
    if (policy.paramKind !== undefined && paramResource(policy.paramKind, this.deps.registry) === undefined) {
      return this.configurationError(new Error(`failed to find resource referenced by paramKind: '${paramKindText(policy.paramKind)}'`), policy);
    }
    const annotations = new AnnotationCollector();
    for (const binding of bindings) {
      try {
        await this.binding(policy, binding, verdict, annotations);
      } catch (err) {
        if (err instanceof StatusError) throw err;
        this.configurationError(asError(err), policy, binding);
      }
    }
    annotations.publish(policy.name, this.attributes);
  }

  private async binding(policy: CompiledPolicy, binding: PolicyBinding, matched: { resource: GroupVersionResource; kind: GroupVersionKind }, annotations: AnnotationCollector): Promise<void> {
    const verdict = await matchCriteria(binding.spec.matchResources, this.attributes, this.deps);
    if ('error' in verdict) return this.configurationError(verdict.error, policy, binding);
    if (!verdict.matches) return;
    const params = await collectParams(policy.paramKind, binding.spec.paramRef, this.attributes.namespace, this.deps);
    if (params instanceof Error) return this.configurationError(params, policy, binding);
    if (params.length === 0) return;
    const activation = await this.activation(matched);
    for (const param of params) this.record(policy, binding, await validatePolicy(policy, { ...activation, params: param }), annotations);
  }

  private async activation(matched: { resource: GroupVersionResource; kind: GroupVersionKind }): Promise<Record<string, unknown>> {
    const { attributes, deps } = this;
    this.namespace ??= namespaceOf(attributes, deps);
    const namespace = await this.namespace;
    this.authorizer ??= deps.authorizerFor(attributes);
    return {
      object: convertKind(attributes.object, attributes.kind, matched.kind, deps.equivalents) ?? null,
      oldObject: convertKind(attributes.oldObject, attributes.kind, matched.kind, deps.equivalents) ?? null,
      request: requestVariable(attributes, matched),
      namespaceObject: namespace === undefined ? null : namespaceVariable(namespace),
      authorizer: this.authorizer,
    };
  }

  private record(policy: CompiledPolicy, binding: PolicyBinding, result: ValidateResult, annotations: AnnotationCollector): void {
    const actions = binding.spec.validationActions ?? [];
    result.decisions.forEach((decision, index) => {
      if (decision.action !== 'deny') return;
      for (const action of actions) {
        if (action === 'Deny') this.denials.push({ policy: policy.name, binding: binding.name, decision });
        else if (action === 'Warn') this.attributes.addWarning(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${decision.message}`);
        else if (action === 'Audit') this.auditFailure(policy, binding, index, decision);
      }
    });
    for (const annotation of result.auditAnnotations) {
      if (annotation.action === 'publish') annotations.add(annotation.key, cutBytes(annotation.value, auditAnnotationValueBytesMax));
      else if (annotation.action === 'error') this.denials.push({ policy: policy.name, binding: binding.name, decision: { action: 'deny', evaluation: 'error', message: annotation.error } });
    }
  }

  /** The `validation.policy.admission.k8s.io/validation_failure` audit annotation (kube's JSON list of one failure). */
  private auditFailure(policy: CompiledPolicy, binding: PolicyBinding, index: number, decision: PolicyDecision): void {
    const value = JSON.stringify([{ message: decision.message, policy: binding.spec.policyName ?? policy.name, binding: binding.name, expressionIndex: index, validationActions: binding.spec.validationActions ?? [] }]);
    this.attributes.addAnnotation('validation.policy.admission.k8s.io/validation_failure', value);
  }
}

/** Evaluates the policies for a request; throws the first denial as a StatusError (or an error reading the request's namespace). */
export async function dispatchPolicies(policies: readonly PolicyWithBindings[], attributes: AdmissionAttributes, deps: PolicyDispatchDeps): Promise<void> {
  const run = new PolicyRun(attributes, deps);
  for (const entry of policies) await run.policy(entry);
  const first = run.denials[0];
  if (first !== undefined) throw denialError(attributes, first);
}
