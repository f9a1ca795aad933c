import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startTestServer, testToken, type TestServer } from './harness.ts';
import type { ApiResponse } from '../../support/api-client.ts';

// Field selectors over HTTP for list, watch and deletecollection, and the legacy watch paths
// (`/api/v1/watch/...`, `/apis/<group>/<version>/watch/...`), as kube-apiserver 1.28 serves them.

let s: TestServer;
before(async () => {
  s = await startTestServer();
  await s.client.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fs' } } });
});
after(() => s.close());

type Obj = { metadata: { name: string; namespace?: string; resourceVersion: string } };
type Event = { type: string; object: Obj & { status?: { phase?: string } } };
const podsPath = '/api/v1/namespaces/fs/pods';
const cmPath = '/api/v1/namespaces/fs/configmaps';

function names(res: ApiResponse): string[] {
  assert.equal(res.status, 200, res.text);
  return (res.json as { items: Obj[] }).items.map((o) => o.metadata.name).sort();
}

function expectBadRequest(res: ApiResponse, message: string): void {
  assert.equal(res.status, 400, res.text);
  assert.deepEqual(res.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
}

async function createPod(name: string, nodeName?: string): Promise<void> {
  const spec = { containers: [{ name: 'c', image: 'busybox:1' }], ...(nodeName ? { nodeName } : {}) };
  const res = await s.client.call('POST', podsPath, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec } });
  assert.equal(res.status, 201, res.text);
}

async function setPhase(name: string, phase: string): Promise<void> {
  const res = await s.client.call('PATCH', `${podsPath}/${name}/status`, { body: { status: { phase } }, contentType: 'application/merge-patch+json' });
  assert.equal(res.status, 200, res.text);
}

/** Opens a watch at `path` (a full path with query) and reads events from it. */
async function openWatch(path: string): Promise<{ next(n: number): Promise<Event[]>; close(): void }> {
  const controller = new AbortController();
  const res = await request(`${s.baseUrl}${path}`, { dispatcher: (s.client as unknown as { agent: never }).agent, headers: { authorization: `Bearer ${testToken}` }, signal: controller.signal });
  assert.equal(res.statusCode, 200, path);
  const iterator = res.body[Symbol.asyncIterator]();
  let buffer = '';
  return {
    async next(n: number) {
      const out: Event[] = [];
      while (out.length < n) {
        const nl = buffer.indexOf('\n');
        if (nl >= 0) {
          out.push(JSON.parse(buffer.slice(0, nl)) as Event);
          buffer = buffer.slice(nl + 1);
          continue;
        }
        const chunk = await iterator.next();
        if (chunk.done) break;
        buffer += Buffer.from(chunk.value as Uint8Array).toString('utf8');
      }
      return out;
    },
    close: () => controller.abort(),
  };
}

const kinds = (events: Event[]) => events.map((e) => [e.type, e.object.metadata.name]);

test('listing nodes with fieldSelector=spec.unschedulable=false answers the schedulable nodes (the e2e framework could not start)', async () => {
  await s.client.call('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ready-1' } } });
  await s.client.call('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ready-2' }, spec: { unschedulable: false } } });
  await s.client.call('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'cordoned' }, spec: { unschedulable: true } } });
  assert.deepEqual(names(await s.client.call('GET', '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse&resourceVersion=0')), ['ready-1', 'ready-2']);
  assert.deepEqual(names(await s.client.call('GET', '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue')), ['cordoned']);
  assert.deepEqual(names(await s.client.call('GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dready-1,spec.unschedulable!%3Dtrue')), ['ready-1']);
});

test('pod field selectors: spec.nodeName="" selects unscheduled pods, status.phase, across namespaces', async () => {
  await createPod('on-node', 'node-a');
  await createPod('unscheduled');
  await setPhase('on-node', 'Running');
  assert.deepEqual(names(await s.client.call('GET', `${podsPath}?fieldSelector=spec.nodeName%3D`)), ['unscheduled']);
  assert.deepEqual(names(await s.client.call('GET', `/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a`)), ['on-node']);
  assert.deepEqual(names(await s.client.call('GET', `${podsPath}?fieldSelector=status.phase!%3DRunning,metadata.namespace%3Dfs`)), ['unscheduled']);
  assert.deepEqual(names(await s.client.call('GET', `${podsPath}?fieldSelector=spec.hostNetwork%3Dfalse,spec.schedulerName%3Ddefault-scheduler,spec.restartPolicy%3DAlways`)), ['on-node', 'unscheduled']);
});

test('an unsupported field label is a 400 BadRequest with kube-apiserver\'s message, for list, watch and deletecollection', async () => {
  expectBadRequest(await s.client.call('GET', `${podsPath}?fieldSelector=status.hostIP%3D10.0.0.1`), 'field label not supported: status.hostIP');
  expectBadRequest(await s.client.call('GET', `${podsPath}?watch=1&fieldSelector=status.hostIP%3D10.0.0.1`), 'field label not supported: status.hostIP');
  expectBadRequest(await s.client.call('DELETE', `${podsPath}?fieldSelector=status.hostIP%3D10.0.0.1`), 'field label not supported: status.hostIP');
  expectBadRequest(await s.client.call('GET', '/api/v1/nodes?fieldSelector=metadata.namespace%3Dx'), 'field label not supported: metadata.namespace');
  expectBadRequest(await s.client.call('GET', `${cmPath}?fieldSelector=data.a%3Db`), '"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"');
  expectBadRequest(await s.client.call('GET', `${cmPath}?fieldSelector=metadata.name`), "invalid selector: 'metadata.name'; can't understand 'metadata.name'");
});

test('deletecollection with a field selector deletes only the selected objects', async () => {
  for (const name of ['dc-a', 'dc-b', 'dc-c']) await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { dc: '1' } } } });
  const res = await s.client.call('DELETE', `${cmPath}?fieldSelector=metadata.name!%3Ddc-b&labelSelector=dc`);
  assert.deepEqual(names(res), ['dc-a', 'dc-c']);
  assert.deepEqual(names(await s.client.call('GET', `${cmPath}?labelSelector=dc`)), ['dc-b']);
});

test('a watch filtered by a field selector sees an object leave the selection as DELETED, and enter it as ADDED', async () => {
  await createPod('w-pod', 'node-w');
  const w = await openWatch(`${podsPath}?watch=1&fieldSelector=spec.nodeName%3Dnode-w,status.phase%3DPending`);
  try {
    assert.deepEqual(kinds(await w.next(1)), [['ADDED', 'w-pod']]);
    await createPod('w-other', 'node-x');
    await setPhase('w-pod', 'Running');
    const [left] = await w.next(1);
    assert.deepEqual([left?.type, left?.object.metadata.name, left?.object.status?.phase], ['DELETED', 'w-pod', 'Running'], 'the DELETED event carries the object as it is now');
    await setPhase('w-pod', 'Pending');
    assert.deepEqual(kinds(await w.next(1)), [['ADDED', 'w-pod']]);
  } finally {
    w.close();
  }
});

test('the legacy watch paths /api/v1/watch/... and /apis/<group>/<version>/watch/... watch collections and single objects', async () => {
  await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lw-one' } } });
  const collection = await openWatch('/api/v1/watch/namespaces/fs/configmaps?fieldSelector=metadata.name%3Dlw-two');
  const one = await openWatch('/api/v1/watch/namespaces/fs/configmaps/lw-one');
  const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lw-lease' }, spec: { holderIdentity: 'a' } };
  const leases = await openWatch('/apis/coordination.k8s.io/v1/watch/namespaces/fs/leases/lw-lease');
  const namespace = await openWatch('/api/v1/watch/namespaces/fs');
  try {
    assert.deepEqual(kinds(await one.next(1)), [['ADDED', 'lw-one']]);
    assert.deepEqual(kinds(await namespace.next(1)), [['ADDED', 'fs']]);
    await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lw-two' } } });
    await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lw-one-more' } } });
    await s.client.call('PATCH', `${cmPath}/lw-one`, { body: { data: { a: 'b' } }, contentType: 'application/merge-patch+json' });
    await s.client.call('POST', '/apis/coordination.k8s.io/v1/namespaces/fs/leases', { body: lease });
    assert.deepEqual(kinds(await collection.next(1)), [['ADDED', 'lw-two']]);
    assert.deepEqual(kinds(await one.next(1)), [['MODIFIED', 'lw-one']], 'a longer name sharing the prefix is not the object');
    assert.deepEqual(kinds(await leases.next(1)), [['ADDED', 'lw-lease']]);
  } finally {
    for (const w of [collection, one, leases, namespace]) w.close();
  }
});

test('a watch of one object refuses a field selector that does not pin its name', async () => {
  const message = "fieldSelector metadata.name doesn't match requested name";
  expectBadRequest(await s.client.call('GET', '/api/v1/watch/namespaces/fs/configmaps/lw-one?fieldSelector=metadata.name%3Dother'), message);
  expectBadRequest(await s.client.call('GET', '/api/v1/watch/namespaces/fs/configmaps/lw-one?fieldSelector=metadata.namespace%3Dfs'), message);
  const w = await openWatch('/api/v1/watch/namespaces/fs/configmaps/lw-one?fieldSelector=metadata.name%3Dlw-one');
  try {
    assert.deepEqual(kinds(await w.next(1)), [['ADDED', 'lw-one']]);
  } finally {
    w.close();
  }
});

test('a named GET with ?watch is a get, as kube-apiserver serves it (only the legacy path watches one object)', async () => {
  const answer = await s.client.call('GET', `${cmPath}/lw-one?watch=1&fieldSelector=metadata.name%3Dother`);
  assert.equal(answer.status, 200);
  assert.equal((answer.json as { metadata: { name: string } }).metadata.name, 'lw-one');
});

test('a legacy watch path takes only GET', async () => {
  const res = await s.client.call('DELETE', '/api/v1/watch/namespaces/fs/configmaps');
  assert.equal(res.status, 405, res.text);
});
