// Every quantity field of a built-in kind is stored as kube-apiserver stores it (its Go type
// re-encodes the value): "0.5" reads back "500m", "1.5Gi" "1536Mi", whichever way it was written
// (create, update, merge patch, server-side apply, a JSON number).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Json = Record<string, unknown>;

async function created(path: string, body: Json): Promise<Json> {
  const r = await s.client.call('POST', path, { body });
  assert.equal(r.status, 201, r.text);
  const read = await s.client.call('GET', `${path}/${(body.metadata as { name: string }).name}`);
  return read.json as Json;
}

test('a pod\'s resources and emptyDir size limit are stored canonical', async () => {
  const pod = await created('/api/v1/namespaces/default/pods', {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q' },
    spec: {
      containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '0.5', memory: '1.5Gi' }, limits: { cpu: 1.5, memory: '2048Mi' } } }],
      volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '1024Mi' } }],
    },
  });
  const spec = pod.spec as { containers: { resources: Json }[]; volumes: { emptyDir: Json }[] };
  assert.deepEqual(spec.containers[0]?.resources, { requests: { cpu: '500m', memory: '1536Mi' }, limits: { cpu: '1500m', memory: '2Gi' } });
  assert.deepEqual(spec.volumes[0]?.emptyDir, { sizeLimit: '1Gi' });
});

test('quota, limit range, claim and node quantities are stored canonical', async () => {
  const quota = await created('/api/v1/namespaces/default/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { cpu: '1000m', memory: '0.5Gi', pods: '10' } } });
  assert.deepEqual((quota.spec as Json).hard, { cpu: '1', memory: '512Mi', pods: '10' });
  const limits = await created('/api/v1/namespaces/default/limitranges', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits: [{ type: 'Container', default: { cpu: 0.25 }, max: { memory: '1000M' } }] } });
  assert.deepEqual((limits.spec as { limits: Json[] }).limits[0], { type: 'Container', default: { cpu: '250m' }, max: { memory: '1G' } });
  const claim = await created('/api/v1/namespaces/default/persistentvolumeclaims', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.5Ti' } } } });
  assert.deepEqual((claim.spec as { resources: Json }).resources, { requests: { storage: '512Gi' } });
  const node = await created('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { capacity: { cpu: '4000m', memory: '16384Mi' }, allocatable: { cpu: '3.5' } } });
  assert.deepEqual((node.status as Json).capacity, { cpu: '4', memory: '16Gi' });
  assert.deepEqual((node.status as Json).allocatable, { cpu: '3500m' });
});

test('a merge patch and a server-side apply store canonical quantities too', async () => {
  const path = '/api/v1/namespaces/default/resourcequotas';
  await s.client.call('POST', path, { body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'p' }, spec: { hard: { cpu: '1' } } } });
  const patched = await s.client.call('PATCH', `${path}/p`, { body: { spec: { hard: { cpu: '0.25' } } }, contentType: 'application/merge-patch+json' });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(((patched.json as Json).spec as Json).hard, { cpu: '250m' });
  const applied = await s.client.call('PATCH', `${path}/a?fieldManager=test`, { body: 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: a\nspec:\n  hard:\n    memory: 1.5Gi\n', contentType: 'application/apply-patch+yaml' });
  assert.equal(applied.status, 201, applied.text);
  assert.deepEqual(((applied.json as Json).spec as Json).hard, { memory: '1536Mi' });
});
