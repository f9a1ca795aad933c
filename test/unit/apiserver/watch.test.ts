import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startTestServer, testToken, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Event = { type: string; object: { metadata: { name: string; resourceVersion: string }; data?: Record<string, string> } };
const cmPath = '/api/v1/namespaces/default/configmaps';

/** Opens a watch and returns a function that reads the next `n` events. */
async function openWatch(query: string, headers: Record<string, string> = {}): Promise<{ next(n: number): Promise<Event[]>; close(): void }> {
  const controller = new AbortController();
  const res = await request(`${s.baseUrl}${cmPath}?watch=1&${query}`, { dispatcher: (s.client as unknown as { agent: never }).agent, headers: { authorization: `Bearer ${testToken}`, ...headers }, signal: controller.signal });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/json');
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

test('watch without resourceVersion sends existing objects as ADDED, then ADDED, MODIFIED and DELETED', async () => {
  await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w0', labels: { w: '1' } } } });
  const w = await openWatch('labelSelector=w');
  try {
    assert.deepEqual((await w.next(1)).map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'w0']]);
    const created = (await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w1', labels: { w: '1' } } } })).json as Event['object'];
    await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } } });
    await s.client.call('PATCH', `${cmPath}/w1`, { body: { data: { a: 'b' } }, contentType: 'application/merge-patch+json' });
    await s.client.call('DELETE', `${cmPath}/w1`);
    const events = await w.next(3);
    assert.deepEqual(events.map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'w1'], ['MODIFIED', 'w1'], ['DELETED', 'w1']]);
    assert.equal(events[0]?.object.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.deepEqual(events[1]?.object.data, { a: 'b' });
    assert.ok(Number(events[2]?.object.metadata.resourceVersion) > Number(events[1]?.object.metadata.resourceVersion));
  } finally {
    w.close();
  }
});

test('watch from a resourceVersion sends only later changes and ends after timeoutSeconds', async () => {
  const first = (await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r1' } } })).json as Event['object'];
  await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r2' } } });
  const w = await openWatch(`resourceVersion=${first.metadata.resourceVersion}&timeoutSeconds=1`);
  try {
    assert.deepEqual((await w.next(5)).map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'r2']], 'the stream ends after the timeout');
  } finally {
    w.close();
  }
});

test('a watch that allows bookmarks gets one at the revision it reached, about 2 s before timeoutSeconds ends it', async () => {
  const first = (await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deadline' } } })).json as Event['object'];
  const openedMs = Date.now();
  const w = await openWatch(`resourceVersion=${first.metadata.resourceVersion}&timeoutSeconds=3&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dnone`);
  const plain = await openWatch(`resourceVersion=${first.metadata.resourceVersion}&timeoutSeconds=3&fieldSelector=metadata.name%3Dnone`);
  try {
    const [bookmark, ...rest] = await w.next(5);
    const elapsedMs = Date.now() - openedMs;
    assert.equal(bookmark?.type, 'BOOKMARK');
    assert.ok(Number(bookmark?.object.metadata.resourceVersion) >= Number(first.metadata.resourceVersion), JSON.stringify(bookmark));
    assert.ok(elapsedMs >= 800, `the bookmark came ${elapsedMs} ms after the watch began, ahead of its deadline`);
    assert.deepEqual(rest, [], 'the stream ends after the timeout');
    assert.deepEqual(await plain.next(5), [], 'no bookmark unless allowWatchBookmarks');
  } finally {
    w.close();
    plain.close();
  }
});

test('a watch asked for Tables sends one-row Tables, with column definitions in the first event only', async () => {
  await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 't0', labels: { t: '1' } } } });
  const w = await openWatch('labelSelector=t', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
  try {
    const [first] = await w.next(1);
    await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 't1', labels: { t: '1' } } } });
    const [second] = await w.next(1);
    const t1 = first?.object as unknown as { kind: string; columnDefinitions: unknown[]; rows: { cells: unknown[] }[] };
    const t2 = second?.object as unknown as { kind: string; columnDefinitions: unknown[]; rows: { cells: unknown[] }[] };
    assert.equal(t1.kind, 'Table');
    assert.equal(t1.columnDefinitions.length, 3);
    assert.equal(t1.rows[0]?.cells[0], 't0');
    assert.equal(t2.columnDefinitions.length, 0);
    assert.equal(t2.rows[0]?.cells[0], 't1');
  } finally {
    w.close();
  }
});

test('sendInitialEvents streams the current objects, a BOOKMARK marking their end, then changes', async () => {
  await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'i0', labels: { i: '1' } } } });
  const w = await openWatch('labelSelector=i&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true');
  try {
    const [added, bookmark] = await w.next(2);
    assert.equal(added?.type, 'ADDED');
    assert.equal(added?.object.metadata.name, 'i0');
    assert.equal(bookmark?.type, 'BOOKMARK');
    assert.deepEqual((bookmark?.object.metadata as unknown as { annotations: unknown }).annotations, { 'k8s.io/initial-events-end': 'true' });
    await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'i1', labels: { i: '1' } } } });
    assert.deepEqual((await w.next(1)).map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'i1']]);
  } finally {
    w.close();
  }
  const bad = await s.client.call('GET', `${cmPath}?watch=1&sendInitialEvents=true`);
  assert.equal(bad.status, 422, 'invalid ListOptions, as kube-apiserver answers them');
});

test('closing the server ends open watches', async () => {
  const other = await startTestServer();
  const res = await request(`${other.baseUrl}${cmPath}?watch=1`, { dispatcher: (other.client as unknown as { agent: never }).agent, headers: { authorization: `Bearer ${testToken}` } });
  assert.equal(res.statusCode, 200);
  const drained = res.body.text();
  try {
    await other.server.close();
    assert.equal(typeof (await drained), 'string', 'the stream ended');
  } finally {
    await other.close();
  }
});
