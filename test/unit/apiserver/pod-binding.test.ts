import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

// pods/binding and the legacy bindings collection, as kube-apiserver 1.28's BindingREST answers.

type Pod = { metadata: { name: string; uid: string; resourceVersion: string; annotations?: Record<string, string> }; spec: { nodeName?: string }; status: { conditions?: { type: string; status: string }[] } };
type Status = { kind: string; status: string; message: string; reason: string; code: number; details?: { causes?: { reason: string; field?: string }[] } };

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const pods = '/api/v1/namespaces/default/pods';

async function createPod(name: string): Promise<Pod> {
  const res = await s.client.call('POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } });
  assert.equal(res.status, 201, res.text);
  return res.json as Pod;
}

async function getPod(name: string): Promise<Pod> {
  const res = await s.client.call('GET', `${pods}/${name}`);
  assert.equal(res.status, 200, res.text);
  return res.json as Pod;
}

function binding(name: string, node: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Binding', metadata: { name, ...extra }, target: { apiVersion: 'v1', kind: 'Node', name: node } };
}

test('pods/binding sets spec.nodeName once, copies annotations and sets PodScheduled, answering 201 Success', async () => {
  await createPod('bind-a');
  const res = await s.client.call('POST', `${pods}/bind-a/binding`, { body: binding('bind-a', 'node-1', { annotations: { 'scheduler.example/why': 'fits' } }) });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  const pod = await getPod('bind-a');
  assert.equal(pod.spec.nodeName, 'node-1');
  assert.equal(pod.metadata.annotations?.['scheduler.example/why'], 'fits');
  assert.deepEqual(pod.status.conditions?.map((c) => [c.type, c.status]), [['PodScheduled', 'True']]);
  const again = await s.client.call('POST', `${pods}/bind-a/binding`, { body: binding('bind-a', 'node-2') });
  assert.equal(again.status, 409, again.text);
  assert.equal((again.json as Status).message, 'Operation cannot be fulfilled on pods/binding "bind-a": pod bind-a is already assigned to node "node-1"');
  assert.equal((await getPod('bind-a')).spec.nodeName, 'node-1');
});

test('the legacy bindings collection binds the pod the Binding names and serves create only', async () => {
  await createPod('bind-b');
  const res = await s.client.call('POST', '/api/v1/namespaces/default/bindings', { body: binding('bind-b', 'node-3') });
  assert.equal(res.status, 201, res.text);
  assert.equal((res.json as Status).status, 'Success');
  assert.equal((await getPod('bind-b')).spec.nodeName, 'node-3');
  const list = await s.client.call('GET', '/api/v1/namespaces/default/bindings');
  assert.equal(list.status, 405, list.text);
});

test('binding a missing pod is a 404 and a wrong body is a 4xx that binds nothing', async () => {
  const missing = await s.client.call('POST', `${pods}/nobody/binding`, { body: binding('nobody', 'node-1') });
  assert.equal(missing.status, 404, missing.text);
  assert.equal((missing.json as Status).message, 'pods "nobody" not found');
  await createPod('bind-c');
  const mismatch = await s.client.call('POST', `${pods}/bind-c/binding`, { body: binding('other', 'node-1') });
  assert.equal(mismatch.status, 400, mismatch.text);
  assert.equal((mismatch.json as Status).message, 'name in URL does not match name in Binding object');
  const wrongKind = await s.client.call('POST', `${pods}/bind-c/binding`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bind-c' } } });
  assert.equal(wrongKind.status, 400, wrongKind.text);
  const noTarget = await s.client.call('POST', `${pods}/bind-c/binding`, { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bind-c' }, target: { kind: 'Pod' } } });
  assert.equal(noTarget.status, 422, noTarget.text);
  assert.deepEqual((noTarget.json as Status).details?.causes?.map((c) => c.field), ['target.kind', 'target.name']);
  const badUid = await s.client.call('POST', `${pods}/bind-c/binding`, { body: binding('bind-c', 'node-1', { uid: 'not-the-uid' }) });
  assert.equal(badUid.status, 409, badUid.text);
  assert.match((badUid.json as Status).message, /Precondition failed: UID in precondition: not-the-uid/);
  const get = await s.client.call('GET', `${pods}/bind-c/binding`);
  assert.equal(get.status, 405, get.text);
  assert.equal((await getPod('bind-c')).spec.nodeName, undefined);
});

test('a dry-run binding answers Success and binds nothing', async () => {
  await createPod('bind-d');
  const res = await s.client.call('POST', `${pods}/bind-d/binding?dryRun=All`, { body: binding('bind-d', 'node-1') });
  assert.equal(res.status, 201, res.text);
  assert.equal((await getPod('bind-d')).spec.nodeName, undefined);
});
