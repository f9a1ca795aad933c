import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resourceQuotaPlugin } from '../../../../internal/admission/plugins/resourcequota/plugin.ts';
import type { AdmissionPlugin } from '../../../../internal/admission/plugin.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { attributes, FakeObjects, fakeDeps, pod, type RequestSpec } from './fake-objects.ts';

// ResourceQuota checks requests against the namespace's quotas with kube 1.28's messages and
// charges status.used with compare-and-swap, so racing replicas never overshoot hard.

const quotas = { group: '', resource: 'resourcequotas' };

function putQuota(objects: FakeObjects, hard: Record<string, string>, used: Record<string, string> | undefined, spec: Record<string, unknown> = {}, name = 'q'): void {
  const status = used === undefined ? {} : { hard, used };
  objects.put(quotas, { metadata: { name, namespace: 'ns' }, spec: { hard, ...spec }, status });
}

function storedUsed(objects: FakeObjects, name = 'q'): unknown {
  return (objects.peek(quotas, 'ns', name)?.status as Record<string, unknown> | undefined)?.used;
}

function plugin(objects: FakeObjects, configuration?: unknown): AdmissionPlugin {
  return resourceQuotaPlugin(fakeDeps(objects), configuration);
}

async function validate(p: AdmissionPlugin, spec: RequestSpec): Promise<void> {
  await p.validate?.(attributes(spec));
}

async function refusal(p: AdmissionPlugin, spec: RequestSpec, code = 403): Promise<string> {
  try {
    await validate(p, spec);
  } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, code);
    return err.message;
  }
  assert.fail('expected a refusal');
}

const cpuPod = (name: string, cpu = '100m', memory = '64Mi'): KObject => pod(name, [{ name: 'a', resources: { requests: { cpu, memory }, limits: { cpu, memory } } }]);
const podSpec = (p: KObject, extra: Partial<RequestSpec> = {}): RequestSpec => ({ resource: 'pods', kind: 'Pod', object: p, ...extra });

test('a pod create is charged to the quota status through a consistent read and a status write (the local read finds the quota first)', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '2', 'requests.cpu': '1' }, { pods: '1', 'requests.cpu': '100m' });
  await validate(plugin(objects), podSpec(cpuPod('p')));
  assert.deepEqual(storedUsed(objects), { pods: '2', 'requests.cpu': '200m' });
  assert.deepEqual(objects.listOptions, [undefined, { consistent: true }]);
  assert.deepEqual(objects.updates.map((u) => u.ok), [true]);
});

test('a namespace confirmed to hold no quota is not read at the leader again for 30 s (kube\'s live lookup cache)', async () => {
  const objects = new FakeObjects();
  const admit = plugin(objects);
  await validate(admit, podSpec(cpuPod('a')));
  await validate(admit, podSpec(cpuPod('b')));
  assert.deepEqual(objects.listOptions, [undefined, { consistent: true }, undefined]);
});

test('a request over hard is refused with the resources sorted', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '2' }, { pods: '2' });
  assert.equal(await refusal(plugin(objects), podSpec(cpuPod('p'))), 'pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
  const many = new FakeObjects();
  putQuota(many, { pods: '10', 'requests.cpu': '1', 'requests.memory': '1Gi' }, { pods: '1', 'requests.cpu': '900m', 'requests.memory': '1Gi' });
  assert.equal(
    await refusal(plugin(many), podSpec(cpuPod('p', '200m', '1Mi'))),
    'pods "p" is forbidden: exceeded quota: q, requested: requests.cpu=200m,requests.memory=1Mi, used: requests.cpu=900m,requests.memory=1Gi, limited: requests.cpu=1,requests.memory=1Gi',
  );
  assert.deepEqual(storedUsed(many), { pods: '1', 'requests.cpu': '900m', 'requests.memory': '1Gi' });
});

test('a quota on cpu or memory makes every container state it', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { 'limits.cpu': '4', 'requests.memory': '4Gi', pods: '10' }, { 'limits.cpu': '0', 'requests.memory': '0', pods: '0' });
  const p = pod('p', [{ name: 'b' }, { name: 'a', resources: { limits: { memory: '1Gi' } } }], { initContainers: [{ name: 'i', resources: { requests: { memory: '1Mi' }, limits: { cpu: '1' } } }] });
  assert.equal(await refusal(plugin(objects), podSpec(p)), 'pods "p" is forbidden: failed quota: q: must specify limits.cpu for: a,b; requests.memory for: a,b');
});

test('a quota whose usage the controller has not recorded refuses; one without status.hard yet does not apply', async () => {
  const objects = new FakeObjects();
  objects.put(quotas, { metadata: { name: 'q', namespace: 'ns' }, spec: { hard: { pods: '1', 'count/pods': '1' } }, status: { hard: { pods: '1', 'count/pods': '1' }, used: { pods: '0' } } });
  assert.equal(await refusal(plugin(objects), podSpec(cpuPod('p'))), 'pods "p" is forbidden: status unknown for quota: q, resources: count/pods,pods');
  const fresh = new FakeObjects();
  putQuota(fresh, { pods: '0' }, undefined);
  await validate(plugin(fresh), podSpec(cpuPod('p')));
  assert.deepEqual(fresh.updates, []);
});

test('a status write that loses a race is retried on a fresh read', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '5' }, { pods: '1' });
  objects.failNextUpdates = 1;
  await validate(plugin(objects), podSpec(cpuPod('p')));
  assert.deepEqual(objects.updates.map((u) => u.ok), [false, true]);
  assert.deepEqual(storedUsed(objects), { pods: '2' });
});

test('writes that keep losing give up after the bound with the conflict', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '5' }, { pods: '1' });
  objects.failNextUpdates = 1000;
  assert.match(await refusal(plugin(objects), podSpec(cpuPod('p')), 409), /Operation cannot be fulfilled on resourcequotas "q"/);
  assert.equal(objects.updates.length, 11);
  assert.deepEqual(storedUsed(objects), { pods: '1' });
});

test('admissions racing on two replicas never charge past hard', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '3' }, { pods: '0' });
  const replicas = [plugin(objects), plugin(objects)];
  const results = await Promise.allSettled(
    Array.from({ length: 8 }, (_, i) => validate(replicas[i % 2] as AdmissionPlugin, podSpec(cpuPod(`p${i}`)))),
  );
  const admitted = results.filter((r) => r.status === 'fulfilled').length;
  assert.equal(admitted, 3);
  assert.deepEqual(storedUsed(objects), { pods: '3' });
  for (const r of results) if (r.status === 'rejected') assert.match(String((r.reason as Error).message), /exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3$/);
  assert.ok(objects.updates.some((u) => !u.ok), 'the replicas raced at least once');
});

test('admissions arriving while a namespace batch runs are charged together in one write', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '10' }, { pods: '0' });
  const replica = plugin(objects);
  await Promise.all(Array.from({ length: 5 }, (_, i) => validate(replica, podSpec(cpuPod(`p${i}`)))));
  assert.deepEqual(storedUsed(objects), { pods: '5' });
  // The first request starts a batch alone; the four that arrive meanwhile share the next one.
  assert.deepEqual(objects.updates.map((u) => u.ok), [true, true]);
});

test('a dry run is checked but charges nothing', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '1' }, { pods: '0' });
  const p = plugin(objects);
  await validate(p, podSpec(cpuPod('p'), { dryRun: true }));
  assert.deepEqual(objects.updates, []);
  assert.deepEqual(storedUsed(objects), { pods: '0' });
  putQuota(objects, { pods: '1' }, { pods: '1' });
  assert.match(await refusal(p, podSpec(cpuPod('p'), { dryRun: true })), /exceeded quota: q/);
});

test('a claim resize is charged by its growth; shrinking charges nothing', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { 'requests.storage': '10Gi' }, { 'requests.storage': '5Gi' });
  const claim = (storage: string): KObject => ({ metadata: { name: 'c', namespace: 'ns', resourceVersion: '7' }, spec: { resources: { requests: { storage } } } });
  const resize = (from: string, to: string): RequestSpec => ({ resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', operation: 'UPDATE', object: claim(to), oldObject: claim(from) });
  const p = plugin(objects);
  assert.equal(await refusal(p, resize('5Gi', '12Gi')), 'persistentvolumeclaims "c" is forbidden: exceeded quota: q, requested: requests.storage=7Gi, used: requests.storage=5Gi, limited: requests.storage=10Gi');
  await validate(p, resize('5Gi', '8Gi'));
  assert.deepEqual(storedUsed(objects), { 'requests.storage': '8Gi' });
  await validate(p, resize('8Gi', '1Gi'));
  assert.deepEqual(storedUsed(objects), { 'requests.storage': '8Gi' });
  assert.equal(objects.updates.length, 1);
});

test('a service changing type on update is charged its load balancer', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { 'services.loadbalancers': '1', services: '5' }, { 'services.loadbalancers': '0', services: '1' });
  const svc = (type: string): KObject => ({ metadata: { name: 's', namespace: 'ns', resourceVersion: '3' }, spec: { type, ports: [{ port: 80 }] } });
  await validate(plugin(objects), { resource: 'services', kind: 'Service', operation: 'UPDATE', object: svc('LoadBalancer'), oldObject: svc('ClusterIP') });
  assert.deepEqual(storedUsed(objects), { services: '1', 'services.loadbalancers': '1' });
});

test('scoped quotas charge only the pods in their scopes', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '1' }, { pods: '1' }, { scopes: ['BestEffort'] });
  await validate(plugin(objects), podSpec(cpuPod('burstable')));
  assert.equal(await refusal(plugin(objects), podSpec(pod('be', [{ name: 'a' }]))), 'pods "be" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');
});

test('object counts apply to any namespaced resource on create', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { 'count/deployments.apps': '1', configmaps: '5' }, { 'count/deployments.apps': '1', configmaps: '0' });
  const deploy: KObject = { metadata: { name: 'd', namespace: 'ns' } };
  const p = plugin(objects);
  assert.equal(await refusal(p, { group: 'apps', resource: 'deployments', kind: 'Deployment', object: deploy }), 'deployments.apps "d" is forbidden: exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
  await validate(p, { resource: 'configmaps', kind: 'ConfigMap', object: { metadata: { name: 'c', namespace: 'ns' } } });
  await validate(p, { group: 'apps', resource: 'deployments', kind: 'Deployment', operation: 'UPDATE', object: deploy, oldObject: deploy });
  assert.deepEqual(storedUsed(objects), { configmaps: '1', 'count/deployments.apps': '1' });
});

test('sub-resources, pod updates, cluster-scoped objects and events are not checked', async () => {
  const objects = new FakeObjects();
  putQuota(objects, { pods: '0', 'count/events': '0' }, { pods: '0', 'count/events': '0' });
  const p = plugin(objects);
  await validate(p, podSpec(cpuPod('p'), { subresource: 'status' }));
  await validate(p, podSpec(cpuPod('p'), { operation: 'UPDATE', oldObject: cpuPod('p') }));
  await validate(p, { resource: 'events', kind: 'Event', object: { metadata: { name: 'e', namespace: 'ns' } } });
  await validate(p, { resource: 'namespaces', kind: 'Namespace', namespace: '', object: { metadata: { name: 'ns' } } });
  assert.deepEqual(objects.updates, []);
});

test('limitedResources make consumption need a covering quota', async () => {
  const config = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration', limitedResources: [{ resource: 'pods', matchContains: ['cpu'] }] };
  const objects = new FakeObjects();
  const p = plugin(objects, config);
  assert.equal(await refusal(p, podSpec(cpuPod('p'))), 'pods "p" is forbidden: insufficient quota to consume: cpu,limits.cpu,requests.cpu');
  await validate(p, podSpec(pod('be', [{ name: 'a' }])));
  putQuota(objects, { cpu: '2', 'limits.cpu': '2', 'requests.cpu': '2' }, { cpu: '0', 'limits.cpu': '0', 'requests.cpu': '0' });
  await validate(p, podSpec(cpuPod('p')));
  assert.deepEqual(storedUsed(objects), { cpu: '100m', 'limits.cpu': '100m', 'requests.cpu': '100m' });
});

test('limitedResources matchScopes need a quota of that scope, refused as kube does with a plain error', async () => {
  const config = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration', limitedResources: [{ resource: 'pods', matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high', 'top'] }] }] };
  const objects = new FakeObjects();
  const p = plugin(objects, config);
  const high = pod('p', [{ name: 'a' }], { priorityClassName: 'high' });
  assert.equal(await refusal(p, podSpec(high), 500), 'insufficient quota to match these scopes: [{PriorityClass In [high top]}]');
  await validate(p, podSpec(pod('low', [{ name: 'a' }], { priorityClassName: 'low' })));
  putQuota(objects, { pods: '5' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
  await validate(p, podSpec(high));
  assert.deepEqual(storedUsed(objects), { pods: '1' });
});

test('a bad configuration stops the plugin from being made', () => {
  const objects = new FakeObjects();
  assert.throws(() => plugin(objects, { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration', limitedResources: [{ matchContains: ['cpu'] }] }), { message: 'limitedResources[0].resource: Required value' });
  assert.throws(() => plugin(objects, { apiVersion: 'v1', kind: 'ConfigMap' }), /no kind "ConfigMap" is registered for version "v1"/);
});
