// The validating phase against real HTTPS webhooks: refusals with the webhook's code and message,
// what is not called (rule, object and namespace selector misses), failure policies on a webhook
// that never answers, dry run by sideEffects, v1beta1 reviews, warnings, and bad answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebhookConfigurationSource } from '../../../../internal/admission/webhook/configuration-source.ts';
import { WebhookMetrics } from '../../../../internal/admission/webhook/metrics.ts';
import { validatingWebhookPlugin } from '../../../../internal/admission/webhook/plugins.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { answerV1, configuration, memoryObjects, nsObject, podAttributes, startWebhook, testDeps, webhookSpec, type TestAttributes } from './fixtures.ts';

function pluginFor(webhooks: Record<string, unknown>[], metrics = new WebhookMetrics()) {
  const source = new WebhookConfigurationSource('ValidatingWebhookConfiguration');
  source.replace([configuration('ValidatingWebhookConfiguration', 'config', webhooks)]);
  const logged: string[] = [];
  const plugin = validatingWebhookPlugin({ source, metrics })(testDeps(memoryObjects([nsObject]), logged), undefined);
  return { plugin, logged, metrics };
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

function validate(plugin: ReturnType<typeof pluginFor>['plugin'], attributes: TestAttributes): Promise<void> {
  assert.ok(plugin.validate);
  return plugin.validate(attributes);
}

test('a denial fails the request with the webhook\'s code and "admission webhook ... denied the request" message', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'no pods on Fridays' } }));
  const { plugin, metrics } = pluginFor([webhookSpec(hook, 'deny.example.com')]);
  const err = await refusal(validate(plugin, podAttributes()));
  assert.equal(err.code, 403);
  assert.equal(err.reason, 'Forbidden');
  assert.equal(err.message, 'admission webhook "deny.example.com" denied the request: no pods on Fridays');
  const counted = await metrics.registry.getSingleMetricAsString('apiserver_admission_webhook_rejection_count');
  assert.match(counted, /error_type="no_error",rejection_code="403"\} 1/);
});

test('a denial without a code is a 400, without a message says "without explanation"', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: false }));
  const { plugin } = pluginFor([webhookSpec(hook, 'deny.example.com')]);
  const err = await refusal(validate(plugin, podAttributes()));
  assert.equal(err.code, 400);
  assert.equal(err.message, 'admission webhook "deny.example.com" denied the request without explanation');
});

test('the v1 request carries kube\'s fields: kind, resource, request*, user, objects, dryRun, typed options, ?timeout', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const { plugin } = pluginFor([webhookSpec(hook, 'see.example.com', { timeoutSeconds: 7 })]);
  await validate(plugin, podAttributes());
  const [call] = hook.received;
  assert.ok(call);
  assert.equal(call.url, '/hook?timeout=7s');
  assert.equal(call.headers['content-type'], 'application/json');
  assert.equal(call.review.apiVersion, 'admission.k8s.io/v1');
  assert.equal(call.review.kind, 'AdmissionReview');
  const { uid, object, ...request } = call.review.request;
  assert.match(String(uid), /^[0-9a-f-]{36}$/);
  assert.deepEqual((object as { metadata: unknown }).metadata, { name: 'p', namespace: 'ns', labels: { app: 'web' } });
  assert.deepEqual(request, {
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    requestKind: { group: '', version: 'v1', kind: 'Pod' },
    requestResource: { group: '', version: 'v1', resource: 'pods' },
    name: 'p',
    namespace: 'ns',
    operation: 'CREATE',
    userInfo: { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] },
    oldObject: null,
    dryRun: false,
    options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', fieldManager: 'kubectl' },
  });
});

test('a rule miss calls nothing: other operation, group, resource, sub-resource or scope', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: false }));
  const rule = (extra: Record<string, unknown>) => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...extra });
  const { plugin } = pluginFor([
    webhookSpec(hook, 'op.example.com', { rules: [rule({ operations: ['UPDATE'] })] }),
    webhookSpec(hook, 'group.example.com', { rules: [rule({ apiGroups: ['apps'] })] }),
    webhookSpec(hook, 'resource.example.com', { rules: [rule({ resources: ['services', 'pods/status'] })] }),
    webhookSpec(hook, 'scope.example.com', { rules: [rule({ scope: 'Cluster' })] }),
  ]);
  await validate(plugin, podAttributes());
  assert.equal(hook.received.length, 0);
});

test('resource wildcards: pods/* and */* cover sub-resources, * only main resources', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: false, status: { message: String(review.request.subResource ?? '') } }));
  const rule = (resources: string[]) => [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources }];
  const star = pluginFor([webhookSpec(hook, 'star.example.com', { rules: rule(['*']) })]).plugin;
  await validate(star, podAttributes({ subresource: 'status' }));
  const podsAll = pluginFor([webhookSpec(hook, 'pods-all.example.com', { rules: rule(['pods/*']) })]).plugin;
  assert.equal((await refusal(validate(podsAll, podAttributes({ subresource: 'status' })))).message, 'admission webhook "pods-all.example.com" denied the request: status');
  const all = pluginFor([webhookSpec(hook, 'all.example.com', { rules: rule(['*/*']) })]).plugin;
  assert.equal((await refusal(validate(all, podAttributes({ subresource: 'eviction' })))).message, 'admission webhook "all.example.com" denied the request: eviction');
});

test('objectSelector and namespaceSelector misses skip the webhook; matches call it', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: false, status: { message: 'called' } }));
  const missObject = pluginFor([webhookSpec(hook, 'obj.example.com', { objectSelector: { matchLabels: { app: 'db' } } })]).plugin;
  await validate(missObject, podAttributes());
  const missNamespace = pluginFor([webhookSpec(hook, 'ns.example.com', { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['b'] }] } })]).plugin;
  await validate(missNamespace, podAttributes());
  assert.equal(hook.received.length, 0);
  const both = pluginFor([webhookSpec(hook, 'both.example.com', { objectSelector: { matchLabels: { app: 'web' } }, namespaceSelector: { matchLabels: { team: 'a' } } })]).plugin;
  await refusal(validate(both, podAttributes()));
  assert.equal(hook.received.length, 1);
});

test('a missing namespace is a 404 only for a webhook whose rules match', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const { plugin } = pluginFor([webhookSpec(hook, 'ns.example.com', { namespaceSelector: { matchLabels: { team: 'a' } } })]);
  const err = await refusal(validate(plugin, podAttributes({ namespace: 'gone' })));
  assert.equal(err.code, 404);
  assert.equal(err.message, 'namespaces "gone" not found');
});

test('a webhook that never answers: failurePolicy Fail is a 500 "failed calling webhook", Ignore lets the request through', async (t) => {
  const hook = await startWebhook(t, () => undefined);
  const fail = pluginFor([webhookSpec(hook, 'slow.example.com', { timeoutSeconds: 1 })]);
  const err = await refusal(validate(fail.plugin, podAttributes()));
  assert.equal(err.code, 500);
  assert.equal(err.reason, 'InternalError');
  assert.equal(err.message, `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hook.url}?timeout=1s": context deadline exceeded`);
  const ignore = pluginFor([webhookSpec(hook, 'slow.example.com', { timeoutSeconds: 1, failurePolicy: 'Ignore' })]);
  const attributes = podAttributes();
  await validate(ignore.plugin, attributes);
  assert.equal(attributes.annotations.get('failed-open.validating.webhook.admission.k8s.io/round_0_index_0'), 'slow.example.com');
  assert.match(ignore.logged.join('\n'), /failing open slow\.example\.com/);
  assert.match(await ignore.metrics.registry.getSingleMetricAsString('apiserver_admission_webhook_fail_open_count'), /name="slow.example.com",type="validating"\} 1/);
});

test('dry run: sideEffects None and NoneOnDryRun are called with dryRun true; Some and Unknown fail the request with 400', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  for (const sideEffects of ['None', 'NoneOnDryRun']) {
    const { plugin } = pluginFor([webhookSpec(hook, 'safe.example.com', { sideEffects })]);
    await validate(plugin, podAttributes({ dryRun: true }));
  }
  assert.deepEqual(hook.received.map((r) => r.review.request.dryRun), [true, true]);
  for (const sideEffects of ['Some', 'Unknown']) {
    const { plugin } = pluginFor([webhookSpec(hook, 'unsafe.example.com', { sideEffects })]);
    const err = await refusal(validate(plugin, podAttributes({ dryRun: true })));
    assert.equal(err.code, 400);
    assert.equal(err.message, 'admission webhook "unsafe.example.com" does not support dry run');
  }
  assert.equal(hook.received.length, 2);
});

test('a webhook listing only v1beta1 gets an admission.k8s.io/v1beta1 review, whose answer is not checked for uid', async (t) => {
  const hook = await startWebhook(t, () => ({ response: { uid: 'whatever', allowed: false, status: { message: 'old style' } } }));
  const { plugin } = pluginFor([webhookSpec(hook, 'beta.example.com', { admissionReviewVersions: ['v1beta1'] })]);
  const err = await refusal(validate(plugin, podAttributes()));
  assert.equal(err.message, 'admission webhook "beta.example.com" denied the request: old style');
  assert.equal(hook.received[0]?.review.apiVersion, 'admission.k8s.io/v1beta1');
});

test('warnings and audit annotations of an allowing answer are kept', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true, warnings: ['image uses latest tag'], auditAnnotations: { checked: 'yes' } }));
  const { plugin } = pluginFor([webhookSpec(hook, 'warn.example.com')]);
  const attributes = podAttributes();
  await validate(plugin, attributes);
  assert.deepEqual(attributes.warnings, ['image uses latest tag']);
  assert.equal(attributes.annotations.get('warn.example.com/checked'), 'yes');
});

test('a v1 answer with another uid, or without apiVersion and kind, is an invalid response (Fail: 500)', async (t) => {
  const other = await startWebhook(t, () => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'not-it', allowed: true } }));
  let err = await refusal(validate(pluginFor([webhookSpec(other, 'uid.example.com')]).plugin, podAttributes()));
  assert.equal(err.code, 500);
  const uid = String(other.received[0]?.review.request.uid);
  assert.equal(err.message, `Internal error occurred: failed calling webhook "uid.example.com": received invalid webhook response: expected response.uid="${uid}", got "not-it"`);
  const bare = await startWebhook(t, (review) => ({ response: { uid: review.request.uid, allowed: true } }));
  err = await refusal(validate(pluginFor([webhookSpec(bare, 'bare.example.com')]).plugin, podAttributes()));
  assert.equal(err.message, 'Internal error occurred: failed calling webhook "bare.example.com": received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=');
});

test('a validating webhook may not return a patch', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from('[]').toString('base64') }));
  const err = await refusal(validate(pluginFor([webhookSpec(hook, 'patch.example.com')]).plugin, podAttributes()));
  assert.match(err.message, /received invalid webhook response: validating webhook may not return response\.patch$/);
});

test('an untrusted certificate fails the call with Go\'s x509 wording', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const err = await refusal(validate(pluginFor([webhookSpec(hook, 'tls.example.com', { clientConfig: { url: hook.url } })]).plugin, podAttributes()));
  assert.equal(err.message, `Internal error occurred: failed calling webhook "tls.example.com": failed to call webhook: Post "${hook.url}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
});

test('writes of webhook configurations are exempt, and nothing is admitted before the source has its first list', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: false }));
  const everything = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }];
  const { plugin } = pluginFor([webhookSpec(hook, 'all.example.com', { rules: everything })]);
  await validate(plugin, podAttributes({ resource: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations' }, kind: { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration' }, namespace: '' }));
  assert.equal(hook.received.length, 0);
  const unsynced = validatingWebhookPlugin({ source: new WebhookConfigurationSource('ValidatingWebhookConfiguration') })(testDeps(memoryObjects([])), undefined);
  const err = await refusal(validate(unsynced, podAttributes()));
  assert.equal(err.code, 403);
  assert.equal(err.message, 'pods "p" is forbidden: not yet ready to handle request');
});

test('a CONNECT sends the connect options as the object and null options, as kube\'s connect handler does', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const rules = [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/exec'] }];
  const { plugin } = pluginFor([webhookSpec(hook, 'exec.example.com', { rules })]);
  const execOptions = { kind: 'PodExecOptions', apiVersion: 'v1', command: ['ls'], stdout: true };
  await validate(plugin, podAttributes({ operation: 'CONNECT', subresource: 'exec', kind: { group: '', version: 'v1', kind: 'PodExecOptions' }, object: undefined, operationOptions: execOptions }));
  const request = hook.received[0]?.review.request;
  assert.deepEqual(request?.object, execOptions);
  assert.equal(request?.options, null);
  assert.equal(request?.subResource, 'exec');
});
