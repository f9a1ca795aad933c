import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

// pods/ephemeralcontainers as kube-apiserver 1.28: only spec.ephemeralContainers changes, by
// additions, each validated with the ephemeral container rules.

type Pod = { metadata: { name: string; resourceVersion: string; labels?: Record<string, string> }; spec: { ephemeralContainers?: Record<string, unknown>[]; containers: Record<string, unknown>[] } };
type Status = { message: string; code: number; details?: { causes?: { field?: string; message: string }[] } };

let s: TestServer;
before(async () => {
  s = await startTestServer();
  const res = await s.client.call('POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'debug-me' }, spec: { containers: [{ name: 'app', image: 'busybox:1' }] } } });
  assert.equal(res.status, 201, res.text);
});
after(() => s.close());

const pods = '/api/v1/namespaces/default/pods';
const path = `${pods}/debug-me/ephemeralcontainers`;
const strategic = { contentType: 'application/strategic-merge-patch+json' };

async function current(): Promise<Pod> {
  const res = await s.client.call('GET', path);
  assert.equal(res.status, 200, res.text);
  return res.json as Pod;
}

test('a patch adds an ephemeral container (defaulted) and changes nothing else of the pod', async () => {
  const res = await s.client.call('PATCH', path, { body: { metadata: { labels: { sneaky: 'yes' } }, spec: { ephemeralContainers: [{ name: 'debugger', image: 'busybox:1', targetContainerName: 'app', stdin: true, tty: true }] } }, ...strategic });
  assert.equal(res.status, 200, res.text);
  const pod = res.json as Pod;
  assert.equal(pod.spec.ephemeralContainers?.[0]?.name, 'debugger');
  assert.equal(pod.spec.ephemeralContainers?.[0]?.terminationMessagePolicy, 'File');
  assert.equal(pod.metadata.labels?.sneaky, undefined);
  assert.equal((await current()).spec.ephemeralContainers?.length, 1);
});

test('ephemeral containers may not have ports, probes, resources or lifecycle, nor target an unknown container', async () => {
  const pod = await current();
  const bad = { name: 'bad', image: 'busybox:1', ports: [{ containerPort: 80 }], readinessProbe: { exec: { command: ['true'] } }, resources: { limits: { cpu: '1' } }, lifecycle: { preStop: { exec: { command: ['true'] } } }, targetContainerName: 'nope' };
  const res = await s.client.call('PUT', path, { body: { ...pod, spec: { ...pod.spec, ephemeralContainers: [...(pod.spec.ephemeralContainers ?? []), bad] } } });
  assert.equal(res.status, 422, res.text);
  const fields = (res.json as Status).details?.causes?.map((c) => c.field);
  for (const f of ['ports', 'resources', 'readinessProbe', 'lifecycle', 'targetContainerName']) assert.ok(fields?.includes(`spec.ephemeralContainers[1].${f}`), `${f} in ${res.text}`);
  assert.equal((await current()).spec.ephemeralContainers?.length, 1);
});

test('existing ephemeral containers may be neither removed nor changed, and names stay unique', async () => {
  const pod = await current();
  const removed = await s.client.call('PUT', path, { body: { ...pod, spec: { ...pod.spec, ephemeralContainers: [] } } });
  assert.equal(removed.status, 422, removed.text);
  assert.match((removed.json as Status).message, /existing ephemeral containers "debugger" may not be removed/);
  const changed = await s.client.call('PUT', path, { body: { ...pod, spec: { ...pod.spec, ephemeralContainers: [{ ...pod.spec.ephemeralContainers?.[0], image: 'busybox:2' }] } } });
  assert.equal(changed.status, 422, changed.text);
  const clash = await s.client.call('PUT', path, { body: { ...pod, spec: { ...pod.spec, ephemeralContainers: [...(pod.spec.ephemeralContainers ?? []), { name: 'app', image: 'busybox:1' }] } } });
  assert.equal(clash.status, 422, clash.text);
  assert.match((clash.json as Status).message, /spec\.ephemeralContainers\[1\]\.name: Duplicate value: "app"/);
});

test('the main resource refuses ephemeral containers: not on create, not changed by an update', async () => {
  const create = await s.client.call('POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'born-debugged' }, spec: { containers: [{ name: 'app', image: 'busybox:1' }], ephemeralContainers: [{ name: 'd', image: 'busybox:1' }] } } });
  assert.equal(create.status, 422, create.text);
  assert.match((create.json as Status).message, /spec\.ephemeralContainers: Forbidden: cannot be set on create/);
  const patch = await s.client.call('PATCH', `${pods}/debug-me`, { body: { spec: { ephemeralContainers: [{ name: 'other', image: 'busybox:1' }] } }, ...strategic });
  assert.equal(patch.status, 422, patch.text);
});

test('ephemeralcontainers of a missing pod is a 404, a name mismatch a 400, and DELETE a 405', async () => {
  assert.equal((await s.client.call('GET', `${pods}/ghost/ephemeralcontainers`)).status, 404);
  const pod = await current();
  const mismatch = await s.client.call('PUT', path, { body: { ...pod, metadata: { ...pod.metadata, name: 'other' } } });
  assert.equal(mismatch.status, 400, mismatch.text);
  assert.equal((await s.client.call('DELETE', path)).status, 405);
});
