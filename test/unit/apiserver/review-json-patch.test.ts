// Regressions found by a hostile review: a JSON patch of a few hundred bytes whose copies copy
// what earlier copies made grows the object 2^n-fold and took the whole server down (out of memory).
// kube-apiserver bounds what the copies of one patch may add (JSONPatchMaxCopyBytes, 3 MiB) and
// how many operations a patch may have (10,000).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPatchCopyBytesMax } from '../../../internal/registry/generic/limits.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const path = '/api/v1/namespaces/default/configmaps';
const jsonPatch = 'application/json-patch+json';

test('copies that double the object are a 422 once they would add more than the copy limit, and nothing is written', async () => {
  assert.equal((await s.client.call('POST', path, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'doubling' }, data: { a: 'b' } } })).status, 201);
  // 40 doublings of a 100-byte list: 100 TB if nothing stops them.
  const ops: unknown[] = [{ op: 'add', path: '/metadata/annotations', value: { seed: 'x' } }, { op: 'add', path: '/x', value: ['y'.repeat(100)] }];
  for (let i = 0; i < 40; i++) ops.push({ op: 'copy', from: '/x', path: '/x/-' });
  const started = Date.now();
  const r = await s.client.call('PATCH', `${path}/doubling`, { body: ops, contentType: jsonPatch });
  assert.equal(r.status, 422, r.text);
  assert.match((r.json as { message: string }).message, new RegExp(`Unable to complete the copy, the accumulated size increase of copy is \\d+, exceeding the limit ${jsonPatchCopyBytesMax}$`));
  assert.ok(Date.now() - started < 5000, 'refused before the copies grow');
  const stored = (await s.client.call('GET', `${path}/doubling`)).json as { metadata: { annotations?: unknown } };
  assert.equal(stored.metadata.annotations, undefined, 'nothing written');
  // Copies that stay under the limit still apply.
  const few = [{ op: 'add', path: '/data/c', value: 'z'.repeat(1000) }, { op: 'copy', from: '/data/c', path: '/data/d' }];
  const ok = await s.client.call('PATCH', `${path}/doubling`, { body: few, contentType: jsonPatch });
  assert.equal(ok.status, 200, ok.text);
  assert.equal((ok.json as { data: Record<string, string> }).data.d, 'z'.repeat(1000));
});

test('a JSON patch of more than 10,000 operations is a 413, as kube-apiserver answers', async () => {
  assert.equal((await s.client.call('POST', path, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'many-ops' } } })).status, 201);
  const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/metadata/name', value: 'many-ops' }));
  const r = await s.client.call('PATCH', `${path}/many-ops`, { body: ops, contentType: jsonPatch });
  assert.equal(r.status, 413, r.text);
  assert.match((r.json as { message: string }).message, /The allowed maximum operations in a JSON patch is 10000, got 10001$/);
  const fine = await s.client.call('PATCH', `${path}/many-ops`, { body: ops.slice(1), contentType: jsonPatch });
  assert.equal(fine.status, 200, fine.text);
});
