// Objects in Protobuf through every verb of the HTTP layer, compared with the JSON answers: the
// same path as JSON bodies (validation, defaulting), stored as JSON, answered in the media type asked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { decodeProtobuf, protobufMediaTypeAlias, type KubeObject } from '../../../internal/apiserver/protobuf/index.ts';
import { startTestServer, testToken, type TestServer } from './harness.ts';
import { call, jsonOf, objectOf, pb } from './protobuf-http.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Meta = { name: string; resourceVersion: string; uid: string; labels?: Record<string, string>; continue?: string; remainingItemCount?: number };
const pods = '/api/v1/namespaces/default/pods';
const cms = '/api/v1/namespaces/default/configmaps';
const deployments = '/apis/apps/v1/namespaces/default/deployments';

function pod(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'pb' } }, spec: { containers: [{ name: 'c', image: 'busybox:1', resources: { limits: { cpu: '500m', memory: '64Mi' } } }] } };
}

function meta(obj: KubeObject): Meta {
  return obj.metadata as Meta;
}

test('a Pod created, read and deleted in Protobuf is the object the JSON answers show, defaulted as a JSON create is', async () => {
  const created = await call(s, 'POST', pods, { body: pod('pb-pod'), accept: pb });
  assert.equal(created.status, 201, created.body.toString('latin1'));
  const fromProtobuf = objectOf(created);
  const json = jsonOf(await call(s, 'GET', `${pods}/pb-pod`));
  assert.deepEqual(fromProtobuf, json, 'the create answer is the stored object');
  assert.equal((json.spec as { restartPolicy?: string }).restartPolicy, 'Always', 'defaulted as a JSON body is');
  assert.deepEqual(objectOf(await call(s, 'GET', `${pods}/pb-pod`, { accept: pb })), json);

  const deleteOptions = { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: meta(json).uid } };
  const deleted = await call(s, 'DELETE', `${pods}/pb-pod`, { body: deleteOptions, accept: pb });
  assert.equal(deleted.status, 200, deleted.body.toString('latin1'));
  assert.equal(meta(objectOf(deleted)).name, 'pb-pod');
  const gone = objectOf(await call(s, 'GET', `${pods}/pb-pod`, { accept: pb }));
  assert.equal(gone.kind, 'Status');
  assert.equal(gone.code, 404);
});

// The pod strategy's validateUpdate (internal/registry/core/pods.ts) compares specs as JSON text,
// key order included: a Protobuf body has its fields in field-number order, the stored object in
// the order it was created and defaulted, so an unchanged spec reads as changed (422). Go's JSON
// clients send struct order and meet the same. object-lifecycle.ts (generation) and configmaps.ts
// (immutable data) compare the same way.
test('a Pod updated in Protobuf with its spec unchanged is a 200', async () => {
  assert.equal((await call(s, 'POST', pods, { body: pod('pb-put') })).status, 201);
  const json = jsonOf(await call(s, 'GET', `${pods}/pb-put`));
  const updated = await call(s, 'PUT', `${pods}/pb-put`, { body: { ...json, metadata: { ...meta(json), labels: { app: 'pb', v: '2' } } }, accept: pb });
  assert.equal(updated.status, 200, updated.body.toString('latin1'));
  assert.deepEqual(meta(jsonOf(await call(s, 'GET', `${pods}/pb-put`))).labels, { app: 'pb', v: '2' }, 'read back in JSON');
});

test('a Deployment updated in Protobuf with its spec unchanged keeps its generation', async () => {
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'pb-gen' }, spec: { selector: { matchLabels: { app: 'g' } }, template: { metadata: { labels: { app: 'g' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
  const created = jsonOf(await call(s, 'POST', deployments, { body: deployment }));
  const updated = objectOf(await call(s, 'PUT', `${deployments}/pb-gen`, { body: { ...created, metadata: { ...meta(created), labels: { l: '1' } } }, accept: pb }));
  assert.equal((updated.metadata as { generation: number }).generation, 1);
});

test('an immutable ConfigMap updated in Protobuf with its data unchanged is a 200', async () => {
  const created = jsonOf(await call(s, 'POST', cms, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb-immutable' }, immutable: true, data: { b: '1', a: '2' } }), contentType: 'application/json' }));
  // Go's generated marshalling writes a map's keys sorted.
  const updated = await call(s, 'PUT', `${cms}/pb-immutable`, { body: { ...created, metadata: { ...meta(created), labels: { l: '1' } }, data: { a: '2', b: '1' } }, accept: pb });
  assert.equal(updated.status, 200, updated.body.toString('latin1'));
});

test('a ConfigMap updated in Protobuf is read back in JSON', async () => {
  const created = jsonOf(await call(s, 'POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb-put' }, data: { a: '1' } } }));
  const updated = await call(s, 'PUT', `${cms}/pb-put`, { body: { ...created, data: { a: '2', b: '3' } }, accept: pb });
  assert.equal(updated.status, 200);
  assert.deepEqual(objectOf(updated).data, { a: '2', b: '3' });
  assert.deepEqual(jsonOf(await call(s, 'GET', `${cms}/pb-put`)).data, { a: '2', b: '3' });
  const stale = await call(s, 'PUT', `${cms}/pb-put`, { body: created, accept: pb });
  assert.equal(stale.status, 409, 'the old resourceVersion');
  assert.equal(objectOf(stale).reason, 'Conflict');
});

test('DeleteOptions in Protobuf are read as from JSON: a stale uid precondition is the 409, an invalid policy the 422', async () => {
  const created = jsonOf(await call(s, 'POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb-del' } } }));
  const stale = await call(s, 'DELETE', `${cms}/pb-del`, { body: { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', preconditions: { uid: 'not-it' } }, accept: pb });
  assert.equal(stale.status, 409);
  assert.equal(objectOf(stale).reason, 'Conflict');
  const bad = await call(s, 'DELETE', `${cms}/pb-del`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Sometimes' }, accept: `${pb}, application/json` });
  assert.equal(bad.status, 422);
  assert.equal(objectOf(bad).reason, 'Invalid');
  const ok = await call(s, 'DELETE', `${cms}/pb-del`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: meta(created).uid } } });
  assert.equal(ok.status, 200, 'a JSON answer by default');
  assert.equal(jsonOf(ok).kind, 'ConfigMap');
});

test('a ConfigMap with binaryData round-trips; a chunked list in Protobuf pages as the JSON one, with continue and remainingItemCount', async () => {
  assert.equal((await call(s, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pb-chunks' } } })).status, 201);
  const chunks = '/api/v1/namespaces/pb-chunks/configmaps';
  const binary = Buffer.from([0, 1, 2, 0xfe, 0xff]).toString('base64');
  for (const name of ['pb-list-a', 'pb-list-b', 'pb-list-c']) {
    const res = await call(s, 'POST', chunks, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name }, binaryData: { bin: binary } } });
    assert.equal(res.status, 201);
  }
  assert.deepEqual(jsonOf(await call(s, 'GET', `${chunks}/pb-list-a`)).binaryData, { bin: binary });
  const first = objectOf(await call(s, 'GET', `${chunks}?limit=2`, { accept: pb }));
  const firstJson = jsonOf(await call(s, 'GET', `${chunks}?limit=2`));
  assert.equal(first.kind, 'ConfigMapList');
  assert.deepEqual(first.items, firstJson.items);
  const listMeta = meta(first);
  assert.equal(listMeta.remainingItemCount, 1);
  assert.ok(listMeta.continue, 'a continue token');
  assert.deepEqual(listMeta, meta(firstJson));
  const second = objectOf(await call(s, 'GET', `${chunks}?limit=2&continue=${encodeURIComponent(listMeta.continue ?? '')}`, { accept: pb }));
  assert.deepEqual((second.items as KubeObject[]).map((i) => meta(i).name), ['pb-list-c']);
  assert.equal(meta(second).continue, undefined);
  assert.equal(meta(second).resourceVersion, listMeta.resourceVersion, 'one snapshot');
  assert.deepEqual((second.items as KubeObject[])[0]?.binaryData, { bin: binary });
});

test('a Deployment in Protobuf: create, status and scale sub-resources read and written in Protobuf', async () => {
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'pb-dep' }, spec: { replicas: 2, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
  const created = objectOf(await call(s, 'POST', deployments, { body: deployment, accept: pb }));
  assert.deepEqual(created, jsonOf(await call(s, 'GET', `${deployments}/pb-dep`)));
  assert.equal((created.spec as { strategy: { type: string } }).strategy.type, 'RollingUpdate', 'defaulted');

  const scale = objectOf(await call(s, 'GET', `${deployments}/pb-dep/scale`, { accept: pb }));
  assert.equal(scale.apiVersion, 'autoscaling/v1');
  assert.equal(scale.kind, 'Scale');
  assert.equal((scale.spec as { replicas: number }).replicas, 2);
  const scaled = objectOf(await call(s, 'PUT', `${deployments}/pb-dep/scale`, { body: { ...scale, spec: { replicas: 5 } }, accept: pb }));
  assert.equal((scaled.spec as { replicas: number }).replicas, 5);
  assert.equal((jsonOf(await call(s, 'GET', `${deployments}/pb-dep`)).spec as { replicas: number }).replicas, 5);

  const current = objectOf(await call(s, 'GET', `${deployments}/pb-dep/status`, { accept: pb }));
  const withStatus = { ...current, status: { ...(current.status as object), observedGeneration: 1, replicas: 5 } };
  const status = objectOf(await call(s, 'PUT', `${deployments}/pb-dep/status`, { body: withStatus, accept: pb }));
  assert.equal((status.status as { replicas: number }).replicas, 5);
  const patched = await call(s, 'PATCH', `${deployments}/pb-dep`, { body: '{"metadata":{"labels":{"p":"1"}}}', contentType: 'application/merge-patch+json', accept: pb });
  assert.deepEqual(meta(objectOf(patched)).labels, { p: '1' }, 'a JSON patch answered in Protobuf');
});

test('eviction, binding and ephemeralcontainers take Protobuf bodies and answer Protobuf', async () => {
  assert.equal((await call(s, 'POST', pods, { body: pod('pb-sub') })).status, 201);
  const bound = await call(s, 'POST', `${pods}/pb-sub/binding`, { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'pb-sub' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } }, accept: pb });
  assert.equal(bound.status, 201, bound.body.toString('latin1'));
  assert.deepEqual([objectOf(bound).kind, objectOf(bound).status], ['Status', 'Success']);
  const current = objectOf(await call(s, 'GET', `${pods}/pb-sub/ephemeralcontainers`, { accept: pb }));
  assert.equal((current.spec as { nodeName: string }).nodeName, 'node-1');
  const debug = { ...current, spec: { ...(current.spec as object), ephemeralContainers: [{ name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }] } };
  const withDebug = await call(s, 'PUT', `${pods}/pb-sub/ephemeralcontainers`, { body: debug, accept: pb });
  assert.equal(withDebug.status, 200, withDebug.body.toString('latin1'));
  assert.deepEqual((objectOf(withDebug).spec as { ephemeralContainers: { name: string }[] }).ephemeralContainers.map((c) => c.name), ['debug']);
  const evicted = await call(s, 'POST', `${pods}/pb-sub/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'pb-sub' } }, accept: pb });
  assert.equal(evicted.status, 201, evicted.body.toString('latin1'));
  assert.equal(objectOf(evicted).status, 'Success');
});

test('a Protobuf body goes through the JSON checks: kind, namespace and name mismatches are 400, invalid fields the same 422', async () => {
  const wrongKind = await call(s, 'POST', cms, { body: pod('pb-wrong'), accept: pb });
  assert.equal(wrongKind.status, 400);
  assert.match(String(objectOf(wrongKind).message), /the kind in the data \(Pod\) does not match the expected kind \(ConfigMap\)/);
  const otherNamespace = await call(s, 'POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb-ns', namespace: 'kube-system' } } });
  assert.equal(otherNamespace.status, 400);
  const invalid = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Not_Valid' } };
  const fromProtobuf = objectOf(await call(s, 'POST', cms, { body: invalid, accept: pb }));
  const fromJson = jsonOf(await call(s, 'POST', cms, { body: JSON.stringify(invalid), contentType: 'application/json' }));
  assert.equal(fromProtobuf.code, 422);
  assert.equal((fromJson.details as { group?: string }).group, undefined, "a core kind's Status has no details.group (Go's omitempty)");
  assert.deepEqual(fromProtobuf, fromJson, 'the same Status, in Protobuf');
  const malformed = await call(s, 'POST', cms, { body: Buffer.from('k8s\u0000\u00ff\u00ff', 'latin1'), accept: `${pb}, application/json` });
  assert.equal(malformed.status, 400);
});

test('the alias media type is answered under its own name, and taken as a body type', async () => {
  const created = await call(s, 'POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb-alias' }, data: { a: 'b' } }, contentType: protobufMediaTypeAlias, accept: protobufMediaTypeAlias });
  assert.equal(created.status, 201);
  assert.equal(objectOf(created, protobufMediaTypeAlias).data !== undefined, true);
  const missing = await call(s, 'GET', `${cms}/pb-none`, { accept: protobufMediaTypeAlias });
  assert.equal(objectOf(missing, protobufMediaTypeAlias).reason, 'NotFound');
});

test('PartialObjectMetadata(List) in Protobuf as the metadata client asks; a Table offer in Protobuf is passed over', async () => {
  const metadataAccept = (as: string): string => `${pb};as=${as};g=meta.k8s.io;v=v1,application/json;as=${as};g=meta.k8s.io;v=v1,application/json`;
  assert.equal((await call(s, 'POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb-meta', labels: { m: '1' } }, data: { secret: 'x' } } })).status, 201);
  const list = objectOf(await call(s, 'GET', `${cms}?labelSelector=m`, { accept: metadataAccept('PartialObjectMetadataList') }));
  assert.equal(list.kind, 'PartialObjectMetadataList');
  assert.equal(list.apiVersion, 'meta.k8s.io/v1');
  const items = list.items as KubeObject[];
  assert.deepEqual(items.map((i) => [i.kind, meta(i).name, i.data]), [['PartialObjectMetadata', 'pb-meta', undefined]]);
  const one = objectOf(await call(s, 'GET', `${cms}/pb-meta`, { accept: metadataAccept('PartialObjectMetadata') }));
  assert.deepEqual([one.kind, meta(one).labels], ['PartialObjectMetadata', { m: '1' }]);

  const tableFirst = await call(s, 'GET', `${cms}?labelSelector=m`, { accept: `${pb};as=Table;g=meta.k8s.io;v=v1,application/json` });
  assert.equal(jsonOf(tableFirst).kind, 'ConfigMapList', 'the Table offer in Protobuf is passed over');
  const jsonTable = await call(s, 'GET', `${cms}?labelSelector=m`, { accept: `application/json;as=Table;g=meta.k8s.io;v=v1,${pb}` });
  assert.equal(jsonOf(jsonTable).kind, 'Table');
  const onlyTable = await call(s, 'GET', `${cms}?labelSelector=m`, { accept: `${pb};as=Table;g=meta.k8s.io;v=v1` });
  assert.equal(onlyTable.status, 406);
  assert.equal(jsonOf(onlyTable).reason, 'NotAcceptable', 'an error kube cannot negotiate is JSON');
});

test('a Protobuf list is gzipped when the client accepts it', async () => {
  const res = await request(`${s.baseUrl}${cms}`, { dispatcher: (s.client as unknown as { agent: never }).agent, headers: { authorization: `Bearer ${testToken}`, accept: pb, 'accept-encoding': 'gzip' } });
  assert.equal(res.headers['content-encoding'], 'gzip');
  assert.equal(res.headers['content-type'], pb);
  const list = decodeProtobuf(gunzipSync(Buffer.from(await res.body.arrayBuffer())));
  assert.equal(list.kind, 'ConfigMapList');
});

test('a collection deleted in Protobuf answers its List in Protobuf', async () => {
  for (const name of ['pb-dc-1', 'pb-dc-2']) assert.equal((await call(s, 'POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { dc: 'pb' } } } })).status, 201);
  const res = await call(s, 'DELETE', `${cms}?labelSelector=dc%3Dpb`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' }, accept: pb });
  assert.equal(res.status, 200);
  const list = objectOf(res);
  assert.equal(list.kind, 'ConfigMapList');
  assert.deepEqual((list.items as KubeObject[]).map((i) => meta(i).name).sort(), ['pb-dc-1', 'pb-dc-2']);
});
