// HorizontalPodAutoscalers as kube-apiserver 1.28 serves them: one store kept as autoscaling/v2 and
// served as autoscaling/v1 too, converted with the autoscaling.alpha.kubernetes.io annotations so
// that a v2 object read through v1 and written back is unchanged; defaults and validation with
// kube's field paths; list, watch, patch and apply through both versions.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const v1Path = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const v2Path = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };

/** A v2 HPA with what v1 cannot say: pods, object and external metrics and a behavior. */
const rich = (name: string): Json => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name, annotations: { team: 'a' } },
  spec: {
    scaleTargetRef: ref, minReplicas: 2, maxReplicas: 10,
    metrics: [
      { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, target: { type: 'AverageValue', averageValue: '1k' } } },
      { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' }, metric: { name: 'requests-per-second' }, target: { type: 'Value', value: '10k' } } },
      { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { queue: 'work' } } }, target: { type: 'AverageValue', averageValue: '30' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 120, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
  },
});

async function call(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; json: Json; text: string }> {
  const res = await s.client.call(method, path, { ...(body === undefined ? {} : { body }), ...(contentType ? { contentType } : {}) });
  return { status: res.status, json: res.json as Json, text: res.text };
}

test('a v2 HPA with pods, object and external metrics and a behavior reads through v1 and written back is the same v2 object', async () => {
  const created = await call('POST', v2Path, rich('round'));
  assert.equal(created.status, 201, created.text);
  const v1 = (await call('GET', `${v1Path}/round`)).json;
  assert.equal(v1.apiVersion, 'autoscaling/v1');
  assert.equal(v1.spec.targetCPUUtilizationPercentage, 60);
  assert.equal(v1.spec.metrics, undefined);
  assert.equal(v1.metadata.annotations.team, 'a');
  const others = JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']);
  assert.deepEqual(others.map((m: Json) => m.type), ['Pods', 'Object', 'External']);
  assert.deepEqual(others[0].pods, { metricName: 'packets-per-second', targetAverageValue: '1k' });
  const behavior = JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior']);
  assert.equal(behavior.ScaleDown.StabilizationWindowSeconds, 120, 'the behavior is kept as Go marshals the internal type');
  const put = await call('PUT', `${v1Path}/round`, v1);
  assert.equal(put.status, 200, put.text);
  const after = (await call('GET', `${v2Path}/round`)).json;
  assert.deepEqual(after.spec, created.json.spec);
  assert.deepEqual(after.metadata.annotations, { team: 'a' }, 'the round-trip annotations are never stored');
  assert.deepEqual(after.status, created.json.status);
});

test('a v1 HPA gets kube-apiserver defaults: minReplicas 1, and 80% cpu when no target is given', async () => {
  const created = await call('POST', v1Path, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'plain' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json.spec.minReplicas, 1);
  assert.equal(created.json.spec.targetCPUUtilizationPercentage, 80);
  assert.deepEqual(created.json.status, { currentReplicas: 0, desiredReplicas: 0 });
  const v2 = (await call('GET', `${v2Path}/plain`)).json;
  assert.deepEqual(v2.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
});

test('a v2 behavior is filled with the default rules', async () => {
  const created = await call('POST', v2Path, { metadata: { name: 'behave' }, spec: { scaleTargetRef: ref, maxReplicas: 3, behavior: { scaleUp: { stabilizationWindowSeconds: 30 } } } });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json.spec.behavior, {
    scaleUp: { stabilizationWindowSeconds: 30, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
  });
  assert.equal(created.json.spec.minReplicas, 1);
  assert.equal(created.json.spec.metrics[0].resource.target.averageUtilization, 80);
});

test('invalid HPAs are 422s naming kube-apiserver field paths, and nothing is stored', async () => {
  const bad = await call('POST', v2Path, {
    metadata: { name: 'bad' },
    spec: {
      scaleTargetRef: { kind: '', name: 'a/b' }, minReplicas: 0, maxReplicas: 0,
      metrics: [{ type: 'Pods', pods: { metric: { name: 'x' }, target: { type: 'Value' } } }, { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } }],
      behavior: { scaleUp: { selectPolicy: 'Most', policies: [{ type: 'Pods', value: 1, periodSeconds: 1801 }] } },
    },
  });
  assert.equal(bad.status, 422, bad.text);
  const fields = (bad.json.details.causes as Json[]).map((c) => `${c.field}: ${c.message}`);
  for (const expected of [
    'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    'spec.maxReplicas: Invalid value: 0: must be greater than 0',
    'spec.scaleTargetRef.kind: Required value',
    'spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'',
    'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
    'spec.metrics[1].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Most": supported values: "Disabled", "Max", "Min"',
    'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
  ]) assert.ok(fields.includes(expected), `${expected} in ${fields.join('\n')}`);
  assert.equal((await call('GET', `${v2Path}/bad`)).status, 404);
  const v1 = await call('POST', v1Path, { metadata: { name: 'bad1' }, spec: { scaleTargetRef: ref, minReplicas: 5, maxReplicas: 2, targetCPUUtilizationPercentage: 0 } });
  assert.equal(v1.status, 422, v1.text);
  const v1Fields = (v1.json.details.causes as Json[]).map((c) => c.field);
  assert.deepEqual(v1Fields, ['spec.maxReplicas', 'spec.metrics[0].resource.target.averageUtilization'], 'a v1 object is validated in the internal form, as kube-apiserver does');
});

test('an annotation a Go decoder could not read is a 400 and nothing is stored', async () => {
  const res = await call('POST', v1Path, { metadata: { name: 'garbled', annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '{not json' } }, spec: { scaleTargetRef: ref, maxReplicas: 2 } });
  assert.equal(res.status, 400, res.text);
  assert.equal((await call('GET', `${v2Path}/garbled`)).status, 404);
});

test('status is written only through the status sub-resource, in either version', async () => {
  await call('POST', v2Path, rich('stat'));
  const current = (await call('GET', `${v2Path}/stat`)).json;
  current.status = { currentReplicas: 3, desiredReplicas: 4, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 55, averageValue: '120m' } } }], conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
  const written = await call('PUT', `${v2Path}/stat/status`, current);
  assert.equal(written.status, 200, written.text);
  const v1 = (await call('GET', `${v1Path}/stat`)).json;
  assert.deepEqual([v1.status.currentReplicas, v1.status.desiredReplicas, v1.status.currentCPUUtilizationPercentage], [3, 4, 55]);
  assert.ok(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/conditions'].includes('ReadyForNewScale'));
  v1.status.desiredReplicas = 9;
  delete v1.metadata.annotations['autoscaling.alpha.kubernetes.io/conditions'];
  assert.equal((await call('PUT', `${v1Path}/stat`, v1)).status, 200);
  const v2 = (await call('GET', `${v2Path}/stat`)).json;
  assert.equal(v2.status.desiredReplicas, 4, 'a main-resource write keeps the stored status');
  assert.deepEqual(v2.status.conditions, current.status.conditions);
  assert.deepEqual(v2.status.currentMetrics, current.status.currentMetrics);
});

test('merge, strategic and apply patches work through v1 and v2 on the one object', async () => {
  await call('POST', v2Path, rich('patched'));
  const merged = await call('PATCH', `${v1Path}/patched`, { spec: { maxReplicas: 12 } }, 'application/merge-patch+json');
  assert.equal(merged.status, 200, merged.text);
  const strategic = await call('PATCH', `${v2Path}/patched`, { spec: { minReplicas: 3 } }, 'application/strategic-merge-patch+json');
  assert.equal(strategic.status, 200, strategic.text);
  assert.equal(strategic.json.spec.maxReplicas, 12);
  assert.equal(strategic.json.spec.metrics.length, 4, 'a v1 patch keeps the metrics v1 cannot show');
  const applied = await call('PATCH', `${v1Path}/patched?fieldManager=tester&force=true`, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'patched' }, spec: { scaleTargetRef: ref, maxReplicas: 7 } }, 'application/apply-patch+yaml');
  assert.equal(applied.status, 200, applied.text);
  assert.equal(applied.json.spec.maxReplicas, 7);
  const managers = (applied.json.metadata.managedFields as Json[]).map((m) => `${m.manager}/${m.operation}/${m.apiVersion}`);
  assert.ok(managers.includes('tester/Apply/autoscaling/v1'), managers.join(', '));
  const v2 = (await call('GET', `${v2Path}/patched`)).json;
  assert.equal(v2.spec.maxReplicas, 7);
  assert.equal(v2.spec.minReplicas, 3);
  assert.equal(v2.spec.metrics.length, 4);
});

test('lists and field selectors work in both versions and see the same objects', async () => {
  const names = async (path: string): Promise<string[]> => ((await call('GET', path)).json.items as Json[]).map((i) => i.metadata.name).sort();
  const v1 = await names(`${v1Path}?fieldSelector=metadata.name%3Dround`);
  const v2 = await names(`${v2Path}?fieldSelector=metadata.name%3Dround`);
  assert.deepEqual(v1, ['round']);
  assert.deepEqual(v2, ['round']);
  const list = (await call('GET', v1Path)).json;
  assert.equal(list.kind, 'HorizontalPodAutoscalerList');
  assert.ok((list.items as Json[]).every((i) => i.apiVersion === 'autoscaling/v1' && i.spec.metrics === undefined));
});

test('a v1 watch sees a change made through v2, converted', async () => {
  const start = (await call('GET', v1Path)).json.metadata.resourceVersion as string;
  await call('POST', v2Path, rich('watched'));
  const res = await s.client.call('GET', `${v1Path}?watch=1&resourceVersion=${start}&timeoutSeconds=1`);
  const events = res.text.trim().split('\n').map((l) => JSON.parse(l) as Json);
  const added = events.find((e) => e.type === 'ADDED' && e.object.metadata.name === 'watched');
  assert.ok(added, res.text);
  assert.equal(added.object.apiVersion, 'autoscaling/v1');
  assert.equal(added.object.spec.targetCPUUtilizationPercentage, 60);
});

test('the table shows kube-apiserver columns', async () => {
  const res = await s.client.call('GET', `${v1Path}/round`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  const table = res.json as Json;
  assert.deepEqual((table.columnDefinitions as Json[]).map((c) => c.name), ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
  const cells = (table.rows as Json[])[0]?.cells as unknown[];
  assert.deepEqual(cells.slice(0, 6), ['round', 'Deployment/web', '<unknown>/1k, <unknown>/10k + 2 more...', '2', 10, 0]);
});
