import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import { StorageError, type Storage } from '../../../internal/storage/storage.ts';
import { handleStoreRequest, type ShimResponse } from '../../../bench/store-shim.ts';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

async function withStore(body: (storage: Storage) => Promise<void>): Promise<void> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  try {
    await body(storage);
  } finally {
    await storage.close();
  }
}

function post(storage: Storage, path: string, body: unknown): Promise<ShimResponse> {
  return handleStoreRequest(storage, { method: 'POST', path, bodyText: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** A store whose reads and writes all fail with `error`. */
function failing(storage: Storage, error: Error): Storage {
  const broken = new Set<PropertyKey>(['get', 'create', 'update']);
  return new Proxy(storage, { get: (target, prop, receiver) => (broken.has(prop) ? () => Promise.reject(error) : Reflect.get(target, prop, receiver)) });
}

test('put creates a new key and answers the revision of the write', () => withStore(async (storage) => {
  const answer = await post(storage, '/v3/kv/put', { key: b64('/bench/a'), value: b64('one') });
  assert.equal(answer.status, 200);
  const kv = await storage.get('/bench/a');
  assert.equal(Buffer.from(kv?.value ?? []).toString(), 'one');
  assert.deepEqual(answer.body, { header: { revision: String(kv?.modRevision) } });
}));

test('put of an existing key replaces its value (etcd put is an upsert)', () => withStore(async (storage) => {
  await post(storage, '/v3/kv/put', { key: b64('/bench/a'), value: b64('one') });
  const answer = await post(storage, '/v3/kv/put', { key: b64('/bench/a'), value: b64('two') });
  assert.equal(answer.status, 200);
  const kv = await storage.get('/bench/a');
  assert.equal(Buffer.from(kv?.value ?? []).toString(), 'two');
  assert.equal((answer.body['header'] as { revision: string }).revision, String(kv?.modRevision));
}));

test('range of an existing key answers it in etcd\'s shape', () => withStore(async (storage) => {
  const created = await storage.create('/bench/r', Buffer.from('value'));
  const answer = await post(storage, '/v3/kv/range', { key: b64('/bench/r') });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, {
    header: { revision: String(created.modRevision) },
    kvs: [{ key: b64('/bench/r'), create_revision: String(created.createRevision), mod_revision: String(created.modRevision), value: b64('value') }],
    count: '1',
  });
}));

test('range of a missing key answers count 0 without kvs', () => withStore(async (storage) => {
  const answer = await post(storage, '/v3/kv/range', { key: b64('/bench/none') });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { header: { revision: '0' }, count: '0' });
}));

test('bad input answers a 4xx with a message and a gRPC code, and writes nothing', () => withStore(async (storage) => {
  const cases: { name: string; request: Parameters<typeof handleStoreRequest>[1]; status: number; message: RegExp }[] = [
    { name: 'not JSON', request: { method: 'POST', path: '/v3/kv/put', bodyText: '{"key":' }, status: 400, message: /not JSON/ },
    { name: 'not an object', request: { method: 'POST', path: '/v3/kv/put', bodyText: '[1]' }, status: 400, message: /JSON object/ },
    { name: 'no key', request: { method: 'POST', path: '/v3/kv/put', bodyText: '{"value":"eA=="}' }, status: 400, message: /key is not provided/ },
    { name: 'empty key', request: { method: 'POST', path: '/v3/kv/range', bodyText: '{"key":""}' }, status: 400, message: /key is not provided/ },
    { name: 'key not a string', request: { method: 'POST', path: '/v3/kv/range', bodyText: '{"key":12}' }, status: 400, message: /key must be a base64 string/ },
    { name: 'bad base64 key', request: { method: 'POST', path: '/v3/kv/range', bodyText: '{"key":"a*b"}' }, status: 400, message: /key is not valid base64/ },
    { name: 'bad base64 value', request: { method: 'POST', path: '/v3/kv/put', bodyText: `{"key":"${b64('k')}","value":"%%"}` }, status: 400, message: /value is not valid base64/ },
    { name: 'unsupported field', request: { method: 'POST', path: '/v3/kv/range', bodyText: `{"key":"${b64('k')}","range_end":"AA=="}` }, status: 400, message: /unsupported field\(s\) range_end/ },
    { name: 'unknown path', request: { method: 'POST', path: '/v3/kv/deleterange', bodyText: '{}' }, status: 404, message: /no route/ },
    { name: 'wrong method', request: { method: 'GET', path: '/v3/kv/range', bodyText: '' }, status: 405, message: /only POST/ },
  ];
  for (const c of cases) {
    const answer = await handleStoreRequest(storage, c.request);
    assert.equal(answer.status, c.status, c.name);
    assert.match(String(answer.body['error']), c.message, c.name);
    assert.equal(typeof answer.body['code'], 'number', c.name);
  }
  assert.equal(storage.localRevision(), 0);
}));

test('store errors answer 503 when nothing was applied and 504 when the write may have been', () => withStore(async (storage) => {
  const unavailable = await post(failing(storage, new StorageError('Unavailable', 'no leader')), '/v3/kv/range', { key: b64('k') });
  assert.equal(unavailable.status, 503);
  assert.match(String(unavailable.body['error']), /no leader/);
  const indeterminate = await post(failing(storage, new StorageError('Indeterminate', 'leader lost')), '/v3/kv/put', { key: b64('k'), value: b64('v') });
  assert.equal(indeterminate.status, 504);
  assert.match(String(indeterminate.body['error']), /leader lost/);
  const bug = await post(failing(storage, new Error('boom')), '/v3/kv/put', { key: b64('k'), value: b64('v') });
  assert.equal(bug.status, 500);
}));
