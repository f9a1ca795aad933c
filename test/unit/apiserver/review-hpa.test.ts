import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

// Regressions found in review of the autoscaling/v1 <-> v2 conversion: the v1 round-trip
// annotations are decoded by kube-apiserver into typed Go structs, so their values are refused
// (400), canonicalized or ignored exactly as a Go decoder would.

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const v1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const v2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';

function hpaV1(name: string, annotations: Record<string, string>): Record<string, unknown> {
  return { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name, annotations }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 3 } };
}

const metrics = 'autoscaling.alpha.kubernetes.io/metrics';

test('a v1 metrics annotation holding a value of the wrong type is a 400 and is not stored', async () => {
  for (const [name, text] of [
    ['wrong-util', '[{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":"x"}}]'],
    ['wrong-qty', '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"zz"}}]'],
    ['big-util', '[{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":3000000000}}]'],
  ] as const) {
    const res = await s.client.call('POST', v1, { body: hpaV1(name, { [metrics]: text }) });
    assert.equal(res.status, 400, `${name}: ${res.text}`);
    assert.equal((await s.client.call('GET', `${v2}/${name}`)).status, 404, name);
  }
});

test('quantities of a v1 metrics annotation are stored as kube-apiserver canonicalizes them', async () => {
  const text = '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":5}},{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"0.5"}}]';
  const res = await s.client.call('POST', v1, { body: hpaV1('canonical', { [metrics]: text }) });
  assert.equal(res.status, 201, res.text);
  const stored = (await s.client.call('GET', `${v2}/canonical`)).json as { spec: { metrics: { resource?: { target: { averageValue: unknown } }; pods?: { target: { averageValue: unknown } } }[] } };
  assert.equal(stored.spec.metrics[0]?.resource?.target.averageValue, '5');
  assert.equal(stored.spec.metrics[1]?.pods?.target.averageValue, '500m');
});

test('a v1 behavior annotation Go cannot decode is ignored, not validated', async () => {
  const behavior = 'autoscaling.alpha.kubernetes.io/behavior';
  for (const [name, text] of [
    ['behavior-type', '{"ScaleUp":{"StabilizationWindowSeconds":"x"}}'],
    ['behavior-side', '{"ScaleUp":5,"ScaleDown":{"StabilizationWindowSeconds":10}}'],
    ['behavior-policy', '{"ScaleDown":{"Policies":[7]}}'],
  ] as const) {
    const res = await s.client.call('POST', v1, { body: hpaV1(name, { [behavior]: text }) });
    assert.equal(res.status, 201, `${name}: ${res.text}`);
    const stored = (await s.client.call('GET', `${v2}/${name}`)).json as { spec: { behavior?: unknown } };
    assert.equal(stored.spec.behavior, undefined, name);
  }
});

test('a v1 annotation Go cannot decode is the same 400 on dry run, and before validation errors', async () => {
  const text = '[{"type":"Pods","pods":{"metricName":"m","targetAverageValue":"1","selector":"x"}}]';
  const dry = await s.client.call('POST', `${v1}?dryRun=All`, { body: hpaV1('dry-bad', { [metrics]: text }) });
  assert.equal(dry.status, 400, dry.text);
  const invalidToo = { ...hpaV1('dry-bad', { [metrics]: '{}' }), spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 0 } };
  const res = await s.client.call('POST', v1, { body: invalidToo });
  assert.equal(res.status, 400, res.text);
  // An update decodes the body's annotations as a create does.
  assert.equal((await s.client.call('POST', v1, { body: hpaV1('dry-ok', {}) })).status, 201);
  const patched = await s.client.call('PATCH', `${v1}/dry-ok?dryRun=All`, { body: { metadata: { annotations: { [metrics]: text } } }, contentType: 'application/merge-patch+json' });
  assert.equal(patched.status, 400, patched.text);
});
