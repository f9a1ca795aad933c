// Admission webhooks against an in-process API server, on the paths a hostile review found weak:
// a Status code no HTTP response can carry, a patch of the wrong type, matchPolicy Equivalent
// across versions, and the write paths every webhook must see (legacy bindings, finalize, GET
// connections).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../unit/apiserver/harness.ts';
import { eventually } from '../../unit/controllers/garbage-collector-fixture.ts';
import { answerV1, patchAnswer, startWebhook, type Answer } from '../../unit/admission/webhook/fixtures.ts';

const admissionregistration = '/apis/admissionregistration.k8s.io/v1';

async function serverWith(t: TestContext, kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', answer: Answer, rule: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<TestServer> {
  const server = await startTestServer();
  t.after(() => server.close());
  const hook = await startWebhook(t, answer);
  const plural = kind === 'ValidatingWebhookConfiguration' ? 'validatingwebhookconfigurations' : 'mutatingwebhookconfigurations';
  const created = await server.client.call('POST', `${admissionregistration}/${plural}`, {
    body: { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name: 'hook' }, webhooks: [{ name: 'hook.orch.test', clientConfig: { url: hook.url, caBundle: hook.caBundle }, rules: [rule], sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra }] },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  // The configuration reaches the plugin through its watch: wait until a request is seen.
  await eventually('the webhook is in effect', async () => {
    await server.client.call('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: { metadata: { name: 'probe' } } });
    return hook.received.length > 0;
  }, 10_000).catch(() => undefined);
  return server;
}

const everything = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] };

test('a webhook refusing with a Status code HTTP cannot carry is a 500 answer, and the server lives on', async (t) => {
  const server = await serverWith(t, 'ValidatingWebhookConfiguration', (review) => answerV1(review, { allowed: false, status: { code: 1000, message: 'x' } }), { ...everything, operations: ['CREATE'], resources: ['configmaps'] });
  const answer = await server.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'c' } } });
  assert.equal(answer.status, 500);
  assert.equal((await server.client.call('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
});

test('a mutating webhook\'s patch is decoded as the kind: a value of the wrong type is a 500, an unknown field is dropped', async (t) => {
  let patch: unknown[] = [{ op: 'add', path: '/data', value: { n: 5 } }];
  const server = await serverWith(t, 'MutatingWebhookConfiguration', (review) => patchAnswer(review, patch), { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] });
  const wrong = await server.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'typed' } } });
  assert.equal(wrong.status, 500, JSON.stringify(wrong.json));
  assert.equal((await server.client.call('GET', '/api/v1/namespaces/default/configmaps/typed')).status, 404);
  patch = [{ op: 'add', path: '/bogus', value: true }, { op: 'add', path: '/data', value: { ok: 'yes' } }];
  const pruned = await server.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'pruned' } } });
  assert.equal(pruned.status, 201);
  assert.deepEqual((pruned.json as { data: unknown; bogus?: unknown }).data, { ok: 'yes' });
  assert.equal((pruned.json as { bogus?: unknown }).bogus, undefined);
  patch = [{ op: 'replace', path: '/metadata/namespace', value: 'kube-system' }];
  const moved = await server.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'moved' } } });
  assert.equal(moved.status, 400);
});

test('matchPolicy Equivalent: a webhook on autoscaling/v2 sees the same objects created through autoscaling/v1, converted', async (t) => {
  const server = await serverWith(t, 'ValidatingWebhookConfiguration', (review) => answerV1(review, { allowed: false, status: { code: 403, message: `saw ${String((review.request as { kind: { version: string } }).kind.version)}` } }), { operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] });
  const hpa = { metadata: { name: 'h' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3 } };
  const answer = await server.client.call('POST', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', { body: hpa });
  assert.equal(answer.status, 403, JSON.stringify(answer.json));
  assert.match((answer.json as { message: string }).message, /saw v2/);
});

test('the write paths that bypassed webhooks are admitted: legacy bindings, namespaces/finalize, a GET connection', async (t) => {
  const server = await serverWith(t, 'ValidatingWebhookConfiguration', (review) => answerV1(review, { allowed: false, status: { code: 403, message: 'no' } }), everything);
  const bind = await server.client.call('POST', '/api/v1/namespaces/default/bindings', { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n' } } });
  assert.equal(bind.status, 403, JSON.stringify(bind.json));
  const finalize = await server.client.call('PUT', '/api/v1/namespaces/default/finalize', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' }, spec: { finalizers: [] } } });
  assert.equal(finalize.status, 403, JSON.stringify(finalize.json));
  const exec = await server.client.call('GET', '/api/v1/namespaces/default/pods/p/exec?command=ls&stdout=true');
  assert.equal(exec.status, 403, JSON.stringify(exec.json));
});
