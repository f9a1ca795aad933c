// The mutating phase against real HTTPS webhooks: JSON Patch answers change the object in order,
// reinvocation calls IfNeeded webhooks again after a later change, and the audit annotations and
// failures are kube's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebhookConfigurationSource } from '../../../../internal/admission/webhook/configuration-source.ts';
import { mutatingWebhookPlugin } from '../../../../internal/admission/webhook/plugins.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { answerV1, configuration, memoryObjects, nsObject, patchAnswer, podAttributes, startWebhook, testDeps, webhookSpec, type TestAttributes } from './fixtures.ts';

function pluginFor(configurations: [string, Record<string, unknown>[]][]) {
  const source = new WebhookConfigurationSource('MutatingWebhookConfiguration');
  source.replace(configurations.map(([name, hooks]) => configuration('MutatingWebhookConfiguration', name, hooks)));
  return mutatingWebhookPlugin({ source })(testDeps(memoryObjects([nsObject])), undefined);
}

function admit(plugin: ReturnType<typeof pluginFor>, attributes: TestAttributes): Promise<void> {
  assert.ok(plugin.admit);
  return plugin.admit(attributes);
}

async function refusal(run: Promise<void>): Promise<StatusError> {
  try {
    await run;
  } catch (err) {
    assert.ok(err instanceof StatusError, `a StatusError, got ${String(err)}`);
    return err;
  }
  assert.fail('the request was admitted');
}

function labels(attributes: TestAttributes): unknown {
  return attributes.object?.metadata.labels;
}

test('a JSON Patch answer changes the object; the next webhook sees the change; annotations record both', async (t) => {
  const first = await startWebhook(t, (review) => patchAnswer(review, [{ value: 'yes', op: 'add', path: '/metadata/labels/first' }]));
  const second = await startWebhook(t, (review) => {
    const seen = (review.request.object as { metadata: { labels: Record<string, string> } }).metadata.labels;
    return patchAnswer(review, [{ op: 'add', path: '/metadata/labels/second', value: seen.first ?? 'missing' }]);
  });
  // Configurations run by name: "a-config" before "b-config", whatever order they are listed in.
  const plugin = pluginFor([['b-config', [webhookSpec(second, 'second.example.com')]], ['a-config', [webhookSpec(first, 'first.example.com')]]]);
  const attributes = podAttributes();
  await admit(plugin, attributes);
  assert.deepEqual(labels(attributes), { app: 'web', first: 'yes', second: 'yes' });
  assert.equal(attributes.reinvocation.shouldReinvoke, true, 'kube asks for a second pass whenever a webhook changed the object');
  assert.equal(attributes.annotations.get('mutation.webhook.admission.k8s.io/round_0_index_0'), '{"configuration":"a-config","webhook":"first.example.com","mutated":true}');
  assert.equal(attributes.annotations.get('patch.webhook.admission.k8s.io/round_0_index_0'), '{"configuration":"a-config","webhook":"first.example.com","patch":[{"op":"add","path":"/metadata/labels/first","value":"yes"}],"patchType":"JSONPatch"}');
  assert.equal(attributes.annotations.get('mutation.webhook.admission.k8s.io/round_0_index_1'), '{"configuration":"b-config","webhook":"second.example.com","mutated":true}');
});

test('an answer without a patch leaves the object and says mutated false', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const attributes = podAttributes();
  await admit(pluginFor([['c', [webhookSpec(hook, 'noop.example.com')]]]), attributes);
  assert.deepEqual(labels(attributes), { app: 'web' });
  assert.equal(attributes.reinvocation.shouldReinvoke, false);
  assert.equal(attributes.annotations.get('mutation.webhook.admission.k8s.io/round_0_index_0'), '{"configuration":"c","webhook":"noop.example.com","mutated":false}');
  assert.equal(attributes.annotations.has('patch.webhook.admission.k8s.io/round_0_index_0'), false);
});

test('reinvocation: an IfNeeded webhook is called again after a later webhook changed the object; a Never one is not', async (t) => {
  const ifNeeded = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const never = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const changer = await startWebhook(t, (review, received) => (received.length === 1 ? patchAnswer(review, [{ op: 'add', path: '/metadata/labels/changed', value: 'by-c' }]) : answerV1(review, { allowed: true })));
  const plugin = pluginFor([['config', [
    webhookSpec(ifNeeded, 'a.example.com', { reinvocationPolicy: 'IfNeeded' }),
    webhookSpec(never, 'b.example.com'),
    webhookSpec(changer, 'c.example.com'),
  ]]]);
  const attributes = podAttributes();
  await admit(plugin, attributes);
  assert.equal(attributes.reinvocation.shouldReinvoke, true);
  // The chain's second pass.
  attributes.reinvocation.isReinvoke = true;
  attributes.reinvocation.shouldReinvoke = false;
  await admit(plugin, attributes);
  assert.equal(ifNeeded.received.length, 2, 'the IfNeeded webhook ran before the change: called again');
  assert.deepEqual((ifNeeded.received[1]?.review.request.object as { metadata: { labels: unknown } }).metadata.labels, { app: 'web', changed: 'by-c' });
  assert.equal(never.received.length, 1);
  assert.equal(changer.received.length, 1, 'a webhook that ran after the last change is not due');
  assert.equal(attributes.annotations.get('mutation.webhook.admission.k8s.io/round_1_index_0'), '{"configuration":"config","webhook":"a.example.com","mutated":false}');
});

test('reinvocation: an IfNeeded webhook is not called again when nothing changed after it ran', async (t) => {
  const changer = await startWebhook(t, (review) => patchAnswer(review, [{ op: 'replace', path: '/metadata/labels/app', value: 'api' }]));
  const ifNeeded = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const plugin = pluginFor([['config', [webhookSpec(changer, 'a.example.com'), webhookSpec(ifNeeded, 'b.example.com', { reinvocationPolicy: 'IfNeeded' })]]]);
  const attributes = podAttributes();
  await admit(plugin, attributes);
  attributes.reinvocation.isReinvoke = true;
  await admit(plugin, attributes);
  assert.equal(ifNeeded.received.length, 1);
  assert.equal(changer.received.length, 1);
});

test('reinvocation: a change by another plugin between the passes makes every IfNeeded webhook that ran due', async (t) => {
  const ifNeeded = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const plugin = pluginFor([['config', [webhookSpec(ifNeeded, 'a.example.com', { reinvocationPolicy: 'IfNeeded' })]]]);
  const attributes = podAttributes();
  await admit(plugin, attributes);
  attributes.object = { ...attributes.object!, metadata: { ...attributes.object!.metadata, labels: { app: 'other' } } };
  attributes.reinvocation.isReinvoke = true;
  await admit(plugin, attributes);
  assert.equal(ifNeeded.received.length, 2);
});

test('a denial by a mutating webhook stops the chain with its status', async (t) => {
  const deny = await startWebhook(t, (review) => answerV1(review, { allowed: false, status: { code: 422, reason: 'Invalid', message: 'bad pod' } }));
  const after = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const attributes = podAttributes();
  const err = await refusal(admit(pluginFor([['config', [webhookSpec(deny, 'deny.example.com'), webhookSpec(after, 'after.example.com')]]]), attributes));
  assert.equal(err.code, 422);
  assert.equal(err.message, 'admission webhook "deny.example.com" denied the request: bad pod');
  assert.equal(after.received.length, 0);
  assert.equal(attributes.annotations.get('mutation.webhook.admission.k8s.io/round_0_index_0'), '{"configuration":"config","webhook":"deny.example.com","mutated":false}');
});

test('a patch on a DELETE (no object) is a 500; a patch that does not apply is a 500', async (t) => {
  const hook = await startWebhook(t, (review) => patchAnswer(review, [{ op: 'replace', path: '/spec/missing/deep', value: 1 }]));
  const rules = [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
  const plugin = pluginFor([['config', [webhookSpec(hook, 'patch.example.com', { rules })]]]);
  const old = podAttributes().object;
  let err = await refusal(admit(plugin, podAttributes({ operation: 'DELETE', object: undefined, oldObject: old })));
  assert.equal(err.code, 500);
  assert.equal(err.message, 'Internal error occurred: admission webhook "patch.example.com" attempted to modify the object, which is not supported for this operation');
  err = await refusal(admit(plugin, podAttributes()));
  assert.equal(err.code, 500);
  assert.match(err.message, /^Internal error occurred: /);
});

test('a dry run reaches a NoneOnDryRun webhook with dryRun true and is refused by a Some one', async (t) => {
  const hook = await startWebhook(t, (review) => patchAnswer(review, [{ op: 'add', path: '/metadata/labels/dry', value: String(review.request.dryRun) }]));
  const attributes = podAttributes({ dryRun: true });
  await admit(pluginFor([['c', [webhookSpec(hook, 'dry.example.com', { sideEffects: 'NoneOnDryRun' })]]]), attributes);
  assert.equal((labels(attributes) as Record<string, string>).dry, 'true');
  const err = await refusal(admit(pluginFor([['c', [webhookSpec(hook, 'wet.example.com', { sideEffects: 'Some' })]]]), podAttributes({ dryRun: true })));
  assert.equal(err.code, 400);
  assert.equal(err.message, 'admission webhook "wet.example.com" does not support dry run');
});

test('a timeout under Ignore goes on with the object unchanged and a failed-open annotation', async (t) => {
  const hook = await startWebhook(t, () => undefined);
  const attributes = podAttributes();
  await admit(pluginFor([['c', [webhookSpec(hook, 'slow.example.com', { timeoutSeconds: 1, failurePolicy: 'Ignore' })]]]), attributes);
  assert.deepEqual(labels(attributes), { app: 'web' });
  assert.equal(attributes.annotations.get('failed-open.mutation.webhook.admission.k8s.io/round_0_index_0'), 'slow.example.com');
});
