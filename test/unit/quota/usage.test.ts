import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usage } from '../../../internal/quota/registry.ts';
import { resourceListToJson } from '../../../internal/quota/resource-list.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';

// Quota usage per object, as kube 1.28's evaluators measure it.

const now = Date.parse('2026-01-01T00:00:00Z');

function used(group: string, resource: string, object: KObject): Record<string, string> {
  return resourceListToJson(usage(group, resource, object, now));
}

function pod(spec: Record<string, unknown>, extra: Partial<KObject> = {}): KObject {
  return { metadata: { name: 'p', namespace: 'ns' }, spec, ...extra };
}

const res = (requests: Record<string, string>, limits: Record<string, string> = {}): Record<string, unknown> => ({ resources: { requests, limits } });

test('a pod charges its requests under requests.* and the bare names, its limits under limits.*', () => {
  const p = pod({ containers: [{ name: 'a', ...res({ cpu: '100m', memory: '64Mi' }, { cpu: '200m', memory: '128Mi' }) }, { name: 'b', ...res({ cpu: '300m', 'ephemeral-storage': '1Gi' }) }] });
  assert.deepEqual(used('', 'pods', p), {
    'count/pods': '1', pods: '1',
    cpu: '400m', 'requests.cpu': '400m', 'limits.cpu': '200m',
    memory: '64Mi', 'requests.memory': '64Mi', 'limits.memory': '128Mi',
    'ephemeral-storage': '1Gi', 'requests.ephemeral-storage': '1Gi',
  });
});

test('an init container counts when it needs more than the app containers together', () => {
  const p = pod({ containers: [{ name: 'a', ...res({ cpu: '100m' }) }, { name: 'b', ...res({ cpu: '100m' }) }], initContainers: [{ name: 'i', ...res({ cpu: '500m', memory: '1Gi' }) }] });
  const u = used('', 'pods', p);
  assert.equal(u['requests.cpu'], '500m');
  assert.equal(u['requests.memory'], '1Gi');
  const small = pod({ containers: [{ name: 'a', ...res({ cpu: '300m' }) }], initContainers: [{ name: 'i', ...res({ cpu: '200m' }) }] });
  assert.equal(used('', 'pods', small)['requests.cpu'], '300m');
});

test('a sidecar init container runs beside the app containers and under later init containers', () => {
  const p = pod({
    containers: [{ name: 'a', ...res({ cpu: '100m' }) }],
    initContainers: [{ name: 'side', restartPolicy: 'Always', ...res({ cpu: '200m' }) }, { name: 'i', ...res({ cpu: '400m' }) }],
  });
  // app + sidecar = 300m; the init container runs with the sidecar: 600m.
  assert.equal(used('', 'pods', p)['requests.cpu'], '600m');
});

test('the pod overhead adds to requests, and to the limits the pod has', () => {
  const p = pod({ containers: [{ name: 'a', ...res({ cpu: '100m', memory: '64Mi' }, { cpu: '200m' }) }], overhead: { cpu: '10m', memory: '1Mi' } });
  const u = used('', 'pods', p);
  assert.equal(u['requests.cpu'], '110m');
  assert.equal(u['requests.memory'], '65Mi');
  assert.equal(u['limits.cpu'], '210m');
  assert.equal(u['limits.memory'], undefined);
});

test('extended resources and hugepages are charged by their quota names', () => {
  const p = pod({ containers: [{ name: 'a', ...res({ 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi' }, { 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi' }) }] });
  const u = used('', 'pods', p);
  assert.equal(u['requests.example.com/gpu'], '2');
  assert.equal(u['example.com/gpu'], undefined);
  assert.equal(u['hugepages-2Mi'], '4Mi');
  assert.equal(u['requests.hugepages-2Mi'], '4Mi');
});

test('a terminal pod, or one past its deletion grace, counts only as a stored object', () => {
  const spec = { containers: [{ name: 'a', ...res({ cpu: '1' }) }] };
  for (const phase of ['Succeeded', 'Failed']) assert.deepEqual(used('', 'pods', pod(spec, { status: { phase } })), { 'count/pods': '1' });
  const stuck = pod(spec);
  stuck.metadata.deletionTimestamp = '2025-12-31T23:59:00Z';
  stuck.metadata.deletionGracePeriodSeconds = 30;
  assert.deepEqual(used('', 'pods', stuck), { 'count/pods': '1' });
  stuck.metadata.deletionGracePeriodSeconds = 3600;
  assert.equal(used('', 'pods', stuck)['requests.cpu'], '1');
});

test('services count node ports and load balancers by type', () => {
  const svc = (spec: Record<string, unknown>): KObject => ({ metadata: { name: 's', namespace: 'ns' }, spec });
  const ports = [{ port: 80 }, { port: 443, nodePort: 30443 }];
  assert.deepEqual(used('', 'services', svc({ type: 'ClusterIP', ports })), { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' });
  assert.equal(used('', 'services', svc({ type: 'NodePort', ports }))['services.nodeports'], '2');
  assert.deepEqual(used('', 'services', svc({ type: 'LoadBalancer', ports })), { 'count/services': '1', services: '1', 'services.loadbalancers': '1', 'services.nodeports': '2' });
  assert.equal(used('', 'services', svc({ type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false }))['services.nodeports'], '1');
});

test('claims count storage, also under their storage class, rounded up to whole bytes', () => {
  const claim = (spec: Record<string, unknown>, annotations?: Record<string, string>): KObject => ({ metadata: { name: 'c', namespace: 'ns', annotations }, spec });
  assert.deepEqual(used('', 'persistentvolumeclaims', claim({ storageClassName: 'gold', resources: { requests: { storage: '5Gi' } } })), {
    'count/persistentvolumeclaims': '1',
    'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
    'gold.storageclass.storage.k8s.io/requests.storage': '5Gi',
    persistentvolumeclaims: '1',
    'requests.storage': '5Gi',
  });
  const annotated = used('', 'persistentvolumeclaims', claim({ storageClassName: 'gold', resources: { requests: { storage: '1500m' } } }, { 'volume.beta.kubernetes.io/storage-class': 'silver' }));
  assert.equal(annotated['silver.storageclass.storage.k8s.io/requests.storage'], '2');
  assert.equal(annotated['requests.storage'], '2');
  assert.deepEqual(used('', 'persistentvolumeclaims', claim({})), { 'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1' });
});

test('configmaps, secrets, replication controllers and quotas count under both names; others under count/<resource>.<group>', () => {
  const o: KObject = { metadata: { name: 'x', namespace: 'ns' } };
  assert.deepEqual(used('', 'configmaps', o), { configmaps: '1', 'count/configmaps': '1' });
  assert.deepEqual(used('', 'secrets', o), { 'count/secrets': '1', secrets: '1' });
  assert.deepEqual(used('', 'replicationcontrollers', o), { 'count/replicationcontrollers': '1', replicationcontrollers: '1' });
  assert.deepEqual(used('', 'resourcequotas', o), { 'count/resourcequotas': '1', resourcequotas: '1' });
  assert.deepEqual(used('apps', 'deployments', o), { 'count/deployments.apps': '1' });
  assert.deepEqual(used('', 'serviceaccounts', o), { 'count/serviceaccounts': '1' });
});
