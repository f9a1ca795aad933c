import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { StorageError } from '../../../internal/storage/storage.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

interface Status {
  kind: string;
  apiVersion: string;
  metadata: object;
  status: string;
  reason: string;
  message: string;
  code: number;
  details?: { name?: string; kind?: string; group?: string; causes?: { reason: string; message: string; field?: string }[]; retryAfterSeconds?: number };
}

async function expectStatus(res: { status: number; json: unknown; text: string }, code: number, reason: string): Promise<Status> {
  assert.equal(res.status, code, res.text);
  const st = res.json as Status;
  assert.equal(st.kind, 'Status');
  assert.equal(st.apiVersion, 'v1');
  assert.deepEqual(st.metadata, {});
  assert.equal(st.status, 'Failure');
  assert.equal(st.code, code);
  assert.equal(st.reason, reason);
  return st;
}

const cmPath = '/api/v1/namespaces/default/configmaps';

test('401 with a wrong bearer token on every path; no token is anonymous: 403 on resources, health endpoints need none', async () => {
  const none = await request(`${s.baseUrl}/api/v1/namespaces`, { dispatcher: (s.client as unknown as { agent: never }).agent });
  assert.equal(none.statusCode, 403);
  assert.equal(((await none.body.json()) as Status).message, 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope');
  for (const path of ['/api', '/healthz', '/readyz', '/livez', '/version']) {
    const wrong = await s.client.call('GET', path, { headers: { authorization: 'Bearer nope' } });
    const status = await expectStatus(wrong, 401, 'Unauthorized');
    assert.equal(status.message, 'Unauthorized', `${path}: no detail`);
  }
  const health = await request(`${s.baseUrl}/readyz`, { dispatcher: (s.client as unknown as { agent: never }).agent });
  assert.equal(health.statusCode, 200);
  assert.equal(await health.body.text(), 'ok');
});

test('404 for unknown resources and paths, with the object name when an object is missing', async () => {
  await expectStatus(await s.client.call('GET', '/api/v1/widgets'), 404, 'NotFound');
  await expectStatus(await s.client.call('GET', '/apis/nope.example.com/v1/things'), 404, 'NotFound');
  await expectStatus(await s.client.call('GET', '/nothing/here'), 404, 'NotFound');
  await expectStatus(await s.client.call('GET', '/api/v1/namespaces/default/nodes'), 404, 'NotFound');
  const missing = await expectStatus(await s.client.call('GET', '/apis/apps/v1/namespaces/default/deployments/ghost'), 404, 'NotFound');
  assert.equal(missing.message, 'deployments.apps "ghost" not found');
  assert.deepEqual(missing.details, { name: 'ghost', group: 'apps', kind: 'deployments' });
});

test('405 for a method a path does not support', async () => {
  await expectStatus(await s.client.call('POST', `${cmPath}/x`, { body: {} }), 405, 'MethodNotAllowed');
  await expectStatus(await s.client.call('PUT', cmPath, { body: {} }), 405, 'MethodNotAllowed');
  await expectStatus(await s.client.call('OPTIONS', cmPath), 405, 'MethodNotAllowed');
  await expectStatus(await s.client.call('DELETE', '/api/v1/namespaces/default/pods/p/status'), 405, 'MethodNotAllowed');
});

test('406 when no acceptable media type is offered; JSON fallback is honoured', async () => {
  // A Table is never Protobuf, and v1.28 serves no v2 aggregated discovery (protobuf-negotiation.test.ts has the rest).
  await expectStatus(await s.client.call('GET', cmPath, { headers: { accept: 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1' } }), 406, 'NotAcceptable');
  await expectStatus(await s.client.call('GET', '/apis', { headers: { accept: 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } }), 406, 'NotAcceptable');
  const fallback = await s.client.call('GET', '/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' } });
  assert.equal(fallback.status, 200);
  assert.equal((fallback.json as { kind: string }).kind, 'APIGroupList');
});

test('415 for unsupported request body types', async () => {
  await expectStatus(await s.client.call('POST', cmPath, { body: 'x', contentType: 'text/plain' }), 415, 'UnsupportedMediaType');
  await expectStatus(await s.client.call('PATCH', `${cmPath}/x`, { body: '{}', contentType: 'application/json' }), 415, 'UnsupportedMediaType');
});

test('413 for bodies over 3 MiB', async () => {
  const big = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { k: 'x'.repeat(3 * 1024 * 1024 + 10) } });
  await expectStatus(await s.client.call('POST', cmPath, { body: big }), 413, 'RequestEntityTooLarge');
});

test('400 for malformed JSON and YAML, never 500', async () => {
  await expectStatus(await s.client.call('POST', cmPath, { body: '{"apiVersion": "v1", ' }), 400, 'BadRequest');
  await expectStatus(await s.client.call('POST', cmPath, { body: 'a: [1, 2', contentType: 'application/yaml' }), 400, 'BadRequest');
  await expectStatus(await s.client.call('POST', cmPath, { body: '[1,2]' }), 400, 'BadRequest');
  await expectStatus(await s.client.call('POST', cmPath, { body: '"str"' }), 400, 'BadRequest');
  await expectStatus(await s.client.call('POST', cmPath, { body: '' }), 400, 'BadRequest');
  await expectStatus(await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: 'x' } }), 400, 'BadRequest');
  await expectStatus(await s.client.call('PATCH', `${cmPath}/x`, { body: '{', contentType: 'application/merge-patch+json' }), 400, 'BadRequest');
  await expectStatus(await s.client.call('GET', `${cmPath}?limit=abc`), 400, 'BadRequest');
  await expectStatus(await s.client.call('GET', `${cmPath}?labelSelector=a%20b%20c`), 400, 'BadRequest');
  await expectStatus(await s.client.call('GET', `${cmPath}?fieldSelector=spec.foo%3Dx`), 400, 'BadRequest');
  await expectStatus(await s.client.call('GET', `${cmPath}?resourceVersion=abc`), 400, 'BadRequest');
  await expectStatus(await s.client.call('GET', `${cmPath}?continue=garbage`), 400, 'BadRequest');
  await expectStatus(await s.client.call('GET', `${cmPath}/bad%E0%A4%A`), 400, 'BadRequest');
});

test('400 when kind or apiVersion does not match the URL, or the namespace differs', async () => {
  await expectStatus(await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'k' } } }), 400, 'BadRequest');
  await expectStatus(await s.client.call('POST', cmPath, { body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'k' } } }), 400, 'BadRequest');
  const ns = await expectStatus(await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'k', namespace: 'other' } } }), 400, 'BadRequest');
  assert.equal(ns.message, 'the namespace of the provided object does not match the namespace sent on the request');
  await expectStatus(await s.client.call('PUT', `${cmPath}/a`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } } }), 400, 'BadRequest');
});

test('422 Invalid with causes naming each invalid field', async () => {
  const st = await expectStatus(await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name', labels: { 'bad key!': 'v' } } } }), 422, 'Invalid');
  assert.equal(st.details?.kind, 'ConfigMap');
  assert.equal(st.details?.name, 'Bad_Name');
  const fields = (st.details?.causes ?? []).map((c) => c.field);
  assert.ok(fields.includes('metadata.name'));
  assert.ok(fields.includes('metadata.labels'));
  assert.match(st.message, /^ConfigMap "Bad_Name" is invalid: /);
  const noName = await expectStatus(await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} } }), 422, 'Invalid');
  assert.equal(noName.details?.causes?.[0]?.field, 'metadata.name');
  // A value the Go type cannot hold is kube-apiserver's decode error, a 400 before any validation.
  const wrongType = await expectStatus(await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed' }, data: { k: 1 } } }), 400, 'BadRequest');
  assert.equal(wrongType.message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  const ev = await expectStatus(await s.client.call('POST', '/apis/events.k8s.io/v1/namespaces/default/events', { body: { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e1' }, type: 'Normal' } }), 422, 'Invalid');
  const evFields = (ev.details?.causes ?? []).map((c) => c.field).sort();
  assert.deepEqual(evFields, ['action', 'eventTime', 'reason', 'reportingController', 'reportingInstance']);
});

test('409 AlreadyExists on a duplicate create', async () => {
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dup' } };
  assert.equal((await s.client.call('POST', cmPath, { body })).status, 201);
  const st = await expectStatus(await s.client.call('POST', cmPath, { body }), 409, 'AlreadyExists');
  assert.equal(st.message, 'configmaps "dup" already exists');
});

test('410 Expired for a compacted continue token or watch start; 504 with Retry-After for a future resourceVersion', async () => {
  for (const name of ['c1', 'c2']) await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } });
  const page = (await s.client.call('GET', `${cmPath}?limit=1`)).json as { metadata: { continue: string; resourceVersion: string } };
  await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c3' } } });
  await s.storage.compact(await s.storage.currentRevision());
  await expectStatus(await s.client.call('GET', `${cmPath}?limit=1&continue=${page.metadata.continue}`), 410, 'Expired');
  // As kube-apiserver: a compacted watch start is a 200 stream whose one event is an ERROR with the 410 Status.
  const tooOld = await s.client.call('GET', `${cmPath}?watch=1&resourceVersion=1`);
  assert.equal(tooOld.status, 200);
  const ev = tooOld.json as { type: string; object: { code: number; reason: string } };
  assert.deepEqual([ev.type, ev.object.code, ev.object.reason], ['ERROR', 410, 'Expired']);
  const future = await s.client.call('GET', `${cmPath}/c1?resourceVersion=999999`);
  const st = await expectStatus(future, 504, 'Timeout');
  assert.equal(future.headers['retry-after'], '1');
  assert.equal(st.details?.causes?.[0]?.reason, 'ResourceVersionTooLarge');
  assert.match(st.message, /Too large resource version/);
});

test('503 when the store is unavailable', async () => {
  const original = s.storage.get.bind(s.storage);
  s.storage.get = async () => {
    throw new StorageError('Unavailable', 'no quorum');
  };
  try {
    await expectStatus(await s.client.call('GET', `${cmPath}/c1`), 503, 'ServiceUnavailable');
  } finally {
    s.storage.get = original;
  }
});

test('504 with Retry-After, never 503, when a write may or may not have been applied', async () => {
  const original = s.storage.create.bind(s.storage);
  s.storage.create = async () => {
    throw new StorageError('Indeterminate', 'forward timed out');
  };
  try {
    const res = await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'maybe' } } });
    const st = await expectStatus(res, 504, 'Timeout');
    assert.equal(res.headers['retry-after'], '1');
    assert.match(st.message, /may or may not have been applied/);
  } finally {
    s.storage.create = original;
  }
});

test('an unexpected failure is a 500 Status without internals', async () => {
  const original = s.storage.get.bind(s.storage);
  s.storage.get = async () => {
    throw new TypeError('secret internal detail');
  };
  try {
    const st = await expectStatus(await s.client.call('GET', `${cmPath}/c1`), 500, 'InternalError');
    assert.doesNotMatch(st.message, /secret internal detail/);
  } finally {
    s.storage.get = original;
  }
});

test('403 when deleting a namespace the system needs', async () => {
  const st = await expectStatus(await s.client.call('DELETE', '/api/v1/namespaces/default'), 403, 'Forbidden');
  assert.equal(st.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
});
