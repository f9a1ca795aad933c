// Watches in Protobuf: `application/vnd.kubernetes.protobuf;stream=watch`, each event one frame
// (4-byte big-endian length, then a metav1.WatchEvent), read back and compared with the JSON stream.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { protobufMediaTypeAlias, type KubeObject } from '../../../internal/apiserver/protobuf/index.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { call, jsonOf, objectOf, openFrames, pb, type WatchEvent } from './protobuf-http.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const cms = '/api/v1/namespaces/default/configmaps';
const deployments = '/apis/apps/v1/namespaces/default/deployments';
type Meta = { name: string; resourceVersion: string; annotations?: Record<string, string> };

function summary(events: readonly WatchEvent[]): [string, string][] {
  return events.map((e) => [e.type, (e.object.metadata as Meta).name]);
}

function configMap(name: string, labels: Record<string, string>, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data };
}

test('a Protobuf watch answers `;stream=watch` and one frame per ADDED, MODIFIED and DELETED, each the object JSON shows', async () => {
  assert.equal((await call(s, 'POST', cms, { body: configMap('pw-0', { pw: '1' }) })).status, 201);
  // client-go asks the plain type for watches, JSON as its fallback.
  const w = await openFrames(s, `${cms}?watch=1&labelSelector=pw`, `${pb}, application/json`);
  try {
    assert.equal(w.contentType, `${pb};stream=watch`);
    assert.deepEqual(summary(await w.next(1)), [['ADDED', 'pw-0']]);
    const created = objectOf(await call(s, 'POST', cms, { body: configMap('pw-1', { pw: '1' }), accept: pb }));
    await call(s, 'PATCH', `${cms}/pw-1`, { body: '{"data":{"a":"b"}}', contentType: 'application/merge-patch+json' });
    await call(s, 'DELETE', `${cms}/pw-1`);
    const events = await w.next(3);
    assert.deepEqual(summary(events), [['ADDED', 'pw-1'], ['MODIFIED', 'pw-1'], ['DELETED', 'pw-1']]);
    assert.deepEqual(events[0]?.object, created);
    assert.deepEqual(events[1]?.object.data, { a: 'b' });
    assert.equal(events[2]?.object.kind, 'ConfigMap');
  } finally {
    w.close();
  }
});

test('a Deployment watch through `?watch=1` and the watch path both stream Protobuf frames, under the alias name too', async () => {
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'pw-dep' }, spec: { replicas: 1, selector: { matchLabels: { app: 'pw' } }, template: { metadata: { labels: { app: 'pw' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
  const created = jsonOf(await call(s, 'POST', deployments, { body: deployment }));
  const viaList = await openFrames(s, `${deployments}?watch=1&fieldSelector=metadata.name%3Dpw-dep`);
  const viaPath = await openFrames(s, '/apis/apps/v1/watch/namespaces/default/deployments/pw-dep', protobufMediaTypeAlias);
  try {
    assert.equal(viaPath.contentType, `${protobufMediaTypeAlias};stream=watch`);
    const [listed] = await viaList.next(1);
    const [pathed] = await viaPath.next(1);
    assert.deepEqual(listed, { type: 'ADDED', object: created });
    assert.deepEqual(pathed, listed);
  } finally {
    viaList.close();
    viaPath.close();
  }
});

test('sendInitialEvents: the initial objects, the initial-events-end BOOKMARK, then changes, in frames', async () => {
  assert.equal((await call(s, 'POST', cms, { body: configMap('pi-0', { pi: '1' }) })).status, 201);
  const w = await openFrames(s, `${cms}?watch=1&labelSelector=pi&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
  try {
    const [added, bookmark] = await w.next(2);
    assert.deepEqual(summary(added ? [added] : []), [['ADDED', 'pi-0']]);
    assert.equal(bookmark?.type, 'BOOKMARK');
    assert.equal(bookmark?.object.kind, 'ConfigMap');
    assert.deepEqual((bookmark?.object.metadata as Meta).annotations, { 'k8s.io/initial-events-end': 'true' });
    assert.ok(Number((bookmark?.object.metadata as Meta).resourceVersion) > 0);
    assert.equal((await call(s, 'POST', cms, { body: configMap('pi-1', { pi: '1' }) })).status, 201);
    assert.deepEqual(summary(await w.next(1)), [['ADDED', 'pi-1']]);
  } finally {
    w.close();
  }
});

test('a watch allowing bookmarks gets its deadline BOOKMARK as a frame, then the stream ends', async () => {
  const first = jsonOf(await call(s, 'POST', cms, { body: configMap('pb-deadline', {}) }));
  const w = await openFrames(s, `${cms}?watch=1&resourceVersion=${(first.metadata as Meta).resourceVersion}&timeoutSeconds=3&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dnone`);
  const [bookmark, ...rest] = await w.next(5);
  assert.equal(bookmark?.type, 'BOOKMARK');
  assert.ok(Number((bookmark?.object.metadata as Meta).resourceVersion) >= Number((first.metadata as Meta).resourceVersion));
  assert.deepEqual(rest, [], 'the stream ends at its timeout');
});

test('a watch metadata view streams PartialObjectMetadata frames, bookmarks included', async () => {
  const accept = `${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`;
  assert.equal((await call(s, 'POST', cms, { body: configMap('pm-0', { pm: '1' }, { secret: 'x' }) })).status, 201);
  const w = await openFrames(s, `${cms}?watch=1&labelSelector=pm&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, accept);
  try {
    assert.equal(w.contentType, `${pb};stream=watch`);
    const [added, bookmark] = await w.next(2);
    assert.deepEqual([added?.type, added?.object.kind, (added?.object.metadata as Meta).name, added?.object.data], ['ADDED', 'PartialObjectMetadata', 'pm-0', undefined]);
    assert.deepEqual([bookmark?.type, bookmark?.object.kind], ['BOOKMARK', 'PartialObjectMetadata']);
  } finally {
    w.close();
  }
});

test('a watch from a compacted revision is one ERROR frame carrying the 410 Status', async () => {
  const other = await startTestServer();
  try {
    for (const name of ['e1', 'e2']) await call(other, 'POST', cms, { body: configMap(name, {}) });
    await other.storage.compact(await other.storage.currentRevision());
    const w = await openFrames(other, `${cms}?watch=1&resourceVersion=1`);
    const events = await w.next(2);
    assert.equal(events.length, 1);
    assert.deepEqual([events[0]?.type, events[0]?.object.kind, events[0]?.object.code, events[0]?.object.reason], ['ERROR', 'Status', 410, 'Expired']);
  } finally {
    await other.close();
  }
});

test('a frame of binary bytes past a write piece arrives whole (stepping back over 10xxxxxx bytes as UTF-8 made no progress: the watch hung)', async () => {
  // 200 KiB of 0x80..0xBF bytes: in a frame they are binary, never UTF-8 continuations to step back over.
  const binary = Buffer.alloc(200 * 1024, 0xa5).toString('base64');
  const w = await openFrames(s, `${cms}?watch=1&fieldSelector=metadata.name%3Dpw-big`);
  try {
    assert.equal((await call(s, 'POST', cms, { body: { ...configMap('pw-big', {}), binaryData: { b: binary } } })).status, 201);
    const [ev] = await w.next(1);
    assert.equal((ev?.object.binaryData as Record<string, string>).b, binary);
  } finally {
    w.close();
  }
});
