// The mutating phase (kube's mutatingDispatcher): matching webhooks are called one after another,
// each seeing the object as the previous ones left it; JSON Patch answers are applied; with
// reinvocationPolicy IfNeeded a webhook is called again in the chain's second pass when the object
// changed after it ran. Audit annotations and metrics as kube records them.
import type { AdmissionAttributes } from '../attributes.ts';
import { applyWebhookPatch } from './apply-webhook-patch.ts';
import { convertKind, reviewObjects, type DispatchContext } from './dispatch-context.ts';
import { CallingWebhookError, dryRunUnsupported, failedClosed, rejectionStatus, WebhookRejection } from './errors.ts';
import { MutationAnnotator } from './mutation-annotations.ts';
import { WebhookReinvocationState } from './reinvocation-state.ts';
import { shouldCallHook } from './should-call.ts';
import { callWebhook } from './webhook-client.ts';
import { ignoresCallFailures, type ConfiguredWebhook, type WebhookInvocation } from './webhook-types.ts';

/** The plugin name, which also keys its reinvocation state. */
export const mutatingPluginName = 'MutatingAdmissionWebhook';

/** Calls one webhook and applies its patch to attributes.object; resolves to whether the object changed. */
async function callMutatingHook(invocation: WebhookInvocation, attributes: AdmissionAttributes, annotator: MutationAnnotator, context: DispatchContext): Promise<boolean> {
  const spec = invocation.webhook.spec;
  let changed = false;
  try {
    if (attributes.dryRun) {
      if (spec.sideEffects === undefined) throw new CallingWebhookError(spec.name, 'Webhook SideEffects is nil', 400);
      if (spec.sideEffects !== 'None' && spec.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(spec.name);
    }
    const objects = reviewObjects(invocation, attributes, context.equivalents);
    const result = await callWebhook(invocation, attributes, objects, true, context.client);
    for (const [key, value] of Object.entries(result.auditAnnotations)) attributes.addAnnotation(`${spec.name}/${key}`, value);
    for (const warning of result.warnings) attributes.addWarning(warning);
    if (!result.allowed) throw new WebhookRejection(rejectionStatus(spec.name, result.result));
    const outcome = applyWebhookPatch(spec.name, result, objects.object);
    if (outcome.object === undefined) return false;
    changed = outcome.changed;
    annotator.addPatch(outcome.operations);
    // Back to the request's version (a no-op unless matchPolicy Equivalent picked another one).
    attributes.object = convertKind(outcome.object, invocation.kind, attributes.kind, context.equivalents);
    return changed;
  } finally {
    annotator.addMutation(changed);
  }
}

/** Records the outcome's metrics; returns the error that fails the request, or undefined to go on. */
function settle(err: unknown, invocation: WebhookInvocation, attributes: AdmissionAttributes, annotator: MutationAnnotator, context: DispatchContext, seconds: number): Error | undefined {
  const spec = invocation.webhook.spec;
  const observe = (rejected: boolean, code: number): void => context.metrics.observe({ name: spec.name, phase: 'admit', operation: attributes.operation, seconds, rejected, code });
  if (err === undefined) {
    observe(false, 200);
    return undefined;
  }
  if (err instanceof CallingWebhookError) {
    const ignore = ignoresCallFailures(spec);
    if (!ignore) context.metrics.observeRejection(spec.name, 'admit', attributes.operation, 'calling_webhook_error', err.statusCode);
    observe(!ignore, err.statusCode);
    if (!ignore) {
      context.log(`Failed calling webhook, failing closed ${spec.name}`, err);
      return failedClosed(err);
    }
    context.log(`Failed calling webhook, failing open ${spec.name}`, err);
    context.metrics.observeFailOpen(spec.name, 'admit');
    annotator.addFailedOpen();
    return undefined;
  }
  if (err instanceof WebhookRejection) {
    context.metrics.observeRejection(spec.name, 'admit', attributes.operation, 'no_error', err.status.code);
    observe(true, err.status.code);
    return err.status;
  }
  context.metrics.observeRejection(spec.name, 'admit', attributes.operation, 'apiserver_internal_error', 0);
  observe(true, 0);
  return err instanceof Error ? err : new Error(String(err));
}

/** Runs the mutating webhooks for a request in order; throws the first failure (a StatusError). */
export async function dispatchMutating(webhooks: readonly ConfiguredWebhook[], attributes: AdmissionAttributes, context: DispatchContext): Promise<void> {
  const reinvocation = attributes.reinvocation;
  const state = WebhookReinvocationState.of(reinvocation, mutatingPluginName);
  // Plugins after this one changed the object since the webhooks' first pass: every IfNeeded webhook that ran is due.
  if (reinvocation.isReinvoke && state.outputChangedSince(attributes.object)) state.requireReinvokingPreviouslyInvoked();
  try {
    for (const [index, webhook] of webhooks.entries()) {
      const invocation = await shouldCallHook(webhook, attributes, context);
      if (invocation === undefined) continue;
      // A reinvocation pass never calls a webhook for the first time (kube: labels that match only now do not count).
      if (reinvocation.isReinvoke && !state.shouldReinvoke(webhook.uid)) continue;
      const annotator = new MutationAnnotator(attributes, reinvocation.isReinvoke ? 1 : 0, index, webhook.spec.name, webhook.configurationName);
      const started = context.clock();
      let changed = false;
      let failure: unknown;
      try {
        changed = await callMutatingHook(invocation, attributes, annotator, context);
      } catch (err) {
        failure = err;
      }
      if (changed) {
        state.requireReinvokingPreviouslyInvoked();
        reinvocation.shouldReinvoke = true;
      }
      if (webhook.spec.reinvocationPolicy === 'IfNeeded') state.addReinvocable(webhook.uid);
      const error = settle(failure, invocation, attributes, annotator, context, (context.clock() - started) / 1000);
      if (error !== undefined) throw error;
    }
  } finally {
    state.setLastOutput(attributes.object);
  }
}
