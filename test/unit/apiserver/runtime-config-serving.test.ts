// What `--runtime-config` changes in what a server serves, as kube-apiserver 1.28's resource config
// does: a group version turned off is gone from /api and /apis, aggregated discovery (JSON and
// Protobuf), OpenAPI v2 and v3, and its paths answer 404; a kind served at several versions keeps
// its objects reachable through the versions still on, even when the one they are stored in is off.
// Versions kube no longer serves answer 404 naming their replacement and never appear in discovery.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRuntimeConfig } from '../../../internal/registry/runtime-config.ts';
import { startTestServer, type TestServer } from './harness.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer;
before(async () => {
  s = await startTestServer({ serving: { runtimeConfig: parseRuntimeConfig('batch/v1=false,autoscaling/v2=false,flowcontrol.apiserver.k8s.io/v1beta3=false,/v1/podtemplates=false,api/alpha=true') } });
});
after(() => s.close());

async function get(path: string, accept?: string): Promise<{ status: number; json: Json; text: string }> {
  const res = await s.client.call('GET', path, accept === undefined ? {} : { headers: { accept } });
  return { status: res.status, json: res.json as Json, text: res.text };
}

const aggregatedJson = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const aggregatedProtobuf = 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

test('a group version turned off is absent from /apis, aggregated discovery in JSON and Protobuf, and OpenAPI v2 and v3', async () => {
  const groups = (await get('/apis')).json.groups as Json[];
  assert.equal(groups.find((g) => g.name === 'batch'), undefined);
  const autoscaling = groups.find((g) => g.name === 'autoscaling');
  assert.deepEqual(autoscaling?.versions.map((v: Json) => v.version), ['v1']);
  assert.equal(autoscaling?.preferredVersion.version, 'v1');
  const aggregated = await get('/apis', aggregatedJson);
  assert.equal(aggregated.status, 200);
  const items = aggregated.json.items as Json[];
  assert.equal(items.find((i) => i.metadata.name === 'batch'), undefined);
  assert.deepEqual(items.find((i) => i.metadata.name === 'autoscaling')?.versions.map((v: Json) => v.version), ['v1']);
  const protobuf = await get('/apis', aggregatedProtobuf);
  assert.equal(protobuf.status, 200);
  assert.ok(protobuf.text.includes('autoscaling') && !protobuf.text.includes('batch'), 'the Protobuf document names no batch group');
  const v2 = (await get('/openapi/v2')).json;
  assert.ok(!Object.keys(v2.paths as Json).some((p) => p.startsWith('/apis/batch/') || p.startsWith('/apis/autoscaling/v2/')));
  assert.ok(Object.keys(v2.paths as Json).some((p) => p.startsWith('/apis/autoscaling/v1/')));
  const v3 = Object.keys((await get('/openapi/v3')).json.paths as Json);
  assert.ok(!v3.includes('apis/batch/v1') && !v3.includes('apis/autoscaling/v2') && !v3.includes('apis/flowcontrol.apiserver.k8s.io/v1beta3'), v3.join(' '));
  assert.ok(v3.includes('apis/autoscaling/v1') && v3.includes('apis/flowcontrol.apiserver.k8s.io/v1beta2'));
  assert.equal((await get('/openapi/v3/apis/batch/v1')).status, 404);
});

test('a core resource turned off is absent from /api/v1 and aggregated /api, and its paths answer 404', async () => {
  assert.deepEqual((await get('/api')).json.versions, ['v1']);
  const resources = ((await get('/api/v1')).json.resources as Json[]).map((r) => r.name);
  assert.ok(resources.includes('pods') && !resources.includes('podtemplates'));
  const core = (await get('/api', aggregatedJson)).json.items as Json[];
  assert.ok(!(core[0]?.versions[0].resources as Json[]).some((r) => r.resource === 'podtemplates'));
  assert.equal((await get('/api/v1/namespaces/default/podtemplates')).status, 404);
  assert.ok(!Object.keys((await get('/openapi/v2')).json.paths as Json).some((p) => p.includes('/podtemplates')));
});

test('the paths of a group version turned off answer 404 NotFound, as a path nothing serves', async () => {
  for (const path of ['/apis/batch', '/apis/batch/v1', '/apis/batch/v1/namespaces/default/jobs', '/apis/batch/v1/cronjobs', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers']) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.json.reason, 'NotFound', path);
    assert.equal(res.json.message, 'the server could not find the requested resource', path);
  }
});

test('an HPA stored as autoscaling/v2 is written and read through v1 while v2 is off', async () => {
  const path = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
  const created = await s.client.call('POST', path, { body: { metadata: { name: 'web' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, maxReplicas: 4, targetCPUUtilizationPercentage: 50 } } });
  assert.equal(created.status, 201, created.text);
  const read = await get(`${path}/web`);
  assert.equal(read.json.apiVersion, 'autoscaling/v1');
  assert.equal(read.json.spec.targetCPUUtilizationPercentage, 50);
  assert.deepEqual(((await get(path)).json.items as Json[]).map((i) => i.metadata.name), ['web']);
});

test('a priority level stored as v1beta3 is written and read through v1beta2 while v1beta3 is off', async () => {
  const path = '/apis/flowcontrol.apiserver.k8s.io/v1beta2/prioritylevelconfigurations';
  const created = await s.client.call('POST', path, { body: { metadata: { name: 'batch-jobs' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } } } } });
  assert.equal(created.status, 201, created.text);
  const read = await get(`${path}/batch-jobs`);
  assert.equal(read.json.apiVersion, 'flowcontrol.apiserver.k8s.io/v1beta2');
  assert.equal(read.json.spec.limited.assuredConcurrencyShares, 7);
});

test('api/alpha=true serves the alpha versions: authentication.k8s.io/v1alpha1 answers a SelfSubjectReview', async () => {
  const groups = (await get('/apis')).json.groups as Json[];
  assert.ok(groups.find((g) => g.name === 'authentication.k8s.io')?.versions.some((v: Json) => v.version === 'v1alpha1'));
  const review = await s.client.call('POST', '/apis/authentication.k8s.io/v1alpha1/selfsubjectreviews', { body: { apiVersion: 'authentication.k8s.io/v1alpha1', kind: 'SelfSubjectReview' } });
  assert.equal(review.status, 201, review.text);
  assert.equal((review.json as Json).apiVersion, 'authentication.k8s.io/v1alpha1');
  assert.equal((review.json as Json).status.userInfo.username, 'orch-admin');
});

test('a version kube no longer serves answers 404 NotFound naming its replacement, and is not in discovery', async () => {
  const expected: [string, string][] = [
    ['/apis/batch/v1beta1/namespaces/default/cronjobs', 'batch/v1beta1 CronJob was removed in v1.25, use batch/v1 CronJob'],
    ['/apis/extensions/v1beta1/namespaces/default/ingresses/web', 'extensions/v1beta1 Ingress was removed in v1.22, use networking.k8s.io/v1 Ingress'],
    ['/apis/policy/v1beta1/podsecuritypolicies', 'policy/v1beta1 PodSecurityPolicy was removed in v1.25, use Pod Security admission or a validating webhook'],
    ['/apis/autoscaling/v2beta2/namespaces/default/horizontalpodautoscalers', 'autoscaling/v2beta2 HorizontalPodAutoscaler was removed in v1.26, use autoscaling/v2 HorizontalPodAutoscaler'],
    ['/apis/flowcontrol.apiserver.k8s.io/v1beta1/flowschemas?watch=1', 'flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema was removed in v1.26, use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema'],
  ];
  for (const [path, removal] of expected) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.deepEqual(res.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `the server could not find the requested resource; ${removal}`, reason: 'NotFound', details: {}, code: 404 });
  }
  const discovery = await get('/apis/batch/v1beta1');
  assert.equal(discovery.status, 404);
  assert.match(discovery.json.message, /batch\/v1beta1 CronJob was removed in v1\.25, use batch\/v1 CronJob$/);
  const groups = (await get('/apis')).json.groups as Json[];
  assert.equal(groups.find((g) => g.name === 'extensions'), undefined);
  assert.ok(!groups.find((g) => g.name === 'policy')?.versions.some((v: Json) => v.version === 'v1beta1'));
  // A resource the removed version never had is the plain 404.
  assert.equal((await get('/apis/batch/v1beta1/namespaces/default/widgets')).json.message, 'the server could not find the requested resource');
});
