// The validating phase (kube's validatingDispatcher): every matching webhook is called at once;
// an answer's warnings and audit annotations are kept; a refusal, a failure under failurePolicy
// Fail, or a dry run a webhook cannot take fails the request with the first error to arrive.
import type { AdmissionAttributes } from '../attributes.ts';
import type { StatusError } from '../../registry/errors/status-error.ts';
import type { DispatchContext } from './dispatch-context.ts';
import { reviewObjects } from './dispatch-context.ts';
import { CallingWebhookError, dryRunUnsupported, failedClosed, rejectionStatus, WebhookRejection } from './errors.ts';
import { shouldCallHook } from './should-call.ts';
import { callWebhook } from './webhook-client.ts';
import { ignoresCallFailures, type ConfiguredWebhook, type WebhookInvocation } from './webhook-types.ts';

/** Calls one webhook; resolves when it allowed, rejects with CallingWebhookError, WebhookRejection or a StatusError. */
async function callHook(invocation: WebhookInvocation, attributes: AdmissionAttributes, context: DispatchContext): Promise<void> {
  const spec = invocation.webhook.spec;
  if (attributes.dryRun) {
    if (spec.sideEffects === undefined) throw new CallingWebhookError(spec.name, 'Webhook SideEffects is nil', 400);
    if (spec.sideEffects !== 'None' && spec.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(spec.name);
  }
  const result = await callWebhook(invocation, attributes, reviewObjects(invocation, attributes, context.equivalents), false, context.client);
  for (const [key, value] of Object.entries(result.auditAnnotations)) attributes.addAnnotation(`${spec.name}/${key}`, value);
  for (const warning of result.warnings) attributes.addWarning(warning);
  if (!result.allowed) throw new WebhookRejection(rejectionStatus(spec.name, result.result));
}

/** Calls one webhook and turns its outcome into undefined (go on) or the error that fails the request, recording metrics. */
async function settle(invocation: WebhookInvocation, index: number, attributes: AdmissionAttributes, context: DispatchContext): Promise<Error | undefined> {
  const spec = invocation.webhook.spec;
  const started = context.clock();
  const observe = (rejected: boolean, code: number): void => context.metrics.observe({ name: spec.name, phase: 'validating', operation: attributes.operation, seconds: (context.clock() - started) / 1000, rejected, code });
  try {
    await callHook(invocation, attributes, context);
    observe(false, 200);
    return undefined;
  } catch (err) {
    if (err instanceof CallingWebhookError) {
      const ignore = ignoresCallFailures(spec);
      if (!ignore) context.metrics.observeRejection(spec.name, 'validating', attributes.operation, 'calling_webhook_error', err.statusCode);
      observe(!ignore, err.statusCode);
      if (ignore) {
        context.log(`Failed calling webhook, failing open ${spec.name}`, err);
        context.metrics.observeFailOpen(spec.name, 'validating');
        attributes.addAnnotation(`failed-open.validating.webhook.admission.k8s.io/round_0_index_${index}`, spec.name);
        return undefined;
      }
      context.log(`Failed calling webhook, failing closed ${spec.name}`, err);
      return failedClosed(err);
    }
    if (err instanceof WebhookRejection) {
      context.metrics.observeRejection(spec.name, 'validating', attributes.operation, 'no_error', err.status.code);
      observe(true, err.status.code);
      return err.status;
    }
    context.metrics.observeRejection(spec.name, 'validating', attributes.operation, 'apiserver_internal_error', 0);
    observe(true, 0);
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** Runs the validating webhooks for a request; throws the first failure (a StatusError). */
export async function dispatchValidating(webhooks: readonly ConfiguredWebhook[], attributes: AdmissionAttributes, context: DispatchContext): Promise<void> {
  const relevant: WebhookInvocation[] = [];
  for (const webhook of webhooks) {
    const invocation = await shouldCallHook(webhook, attributes, context);
    if (invocation !== undefined) relevant.push(invocation);
  }
  const failures: Error[] = [];
  // Completion order, as kube's channel collects them: the first refusal to arrive is the answer.
  // The index in fail-open annotations is among the called webhooks, as kube counts it.
  await Promise.all(relevant.map(async (invocation, index) => {
    const failure = await settle(invocation, index, attributes, context);
    if (failure !== undefined) failures.push(failure);
  }));
  for (const extra of failures.slice(1)) context.log('validating webhook error not returned (only the first is)', extra);
  const first: Error | StatusError | undefined = failures[0];
  if (first !== undefined) throw first;
}
