import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { parse } from 'yaml';
import { startTestServer, testToken, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Json = Record<string, unknown>;
const cmPath = '/api/v1/namespaces/default/configmaps';

test('YAML request bodies and YAML responses', async () => {
  const created = await s.client.call('POST', cmPath, { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y1\ndata:\n  k: "yes"\n', contentType: 'application/yaml' });
  assert.equal(created.status, 201, created.text);
  const res = await s.client.call('GET', `${cmPath}/y1`, { headers: { accept: 'application/yaml' } });
  assert.equal(res.headers['content-type'], 'application/yaml');
  const obj = parse(res.text) as { data: Json; metadata: Json };
  assert.deepEqual(obj.data, { k: 'yes' });
});

test('fieldValidation: Warn adds a Warning header per field, Strict rejects listing all, Ignore drops silently', async () => {
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fv1","name":"fv1"},"data":{},"spec":{"foo":1}}';
  const warn = await s.client.call('POST', cmPath, { body });
  assert.equal(warn.status, 201);
  const warnings = [warn.headers.warning].flat().join('\n');
  assert.match(warnings, /299 - "unknown field \\"spec\\""/);
  assert.match(warnings, /299 - "duplicate field \\"metadata.name\\""/);
  assert.equal((warn.json as Json).spec, undefined, 'unknown fields are dropped');
  const strict = await s.client.call('POST', `${cmPath}?fieldValidation=Strict`, { body: body.replaceAll('fv1', 'fv2') });
  assert.equal(strict.status, 400);
  assert.match((strict.json as { message: string }).message, /unknown field "spec".*duplicate field "metadata.name"|duplicate field "metadata.name".*unknown field "spec"/);
  const ignore = await s.client.call('POST', `${cmPath}?fieldValidation=Ignore`, { body: body.replaceAll('fv1', 'fv3') });
  assert.equal(ignore.status, 201);
  assert.equal(ignore.headers.warning, undefined);
  const yamlStrict = await s.client.call('POST', `${cmPath}?fieldValidation=Strict`, { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fv4\n  name: fv4\n', contentType: 'application/yaml' });
  assert.equal(yamlStrict.status, 400);
  assert.equal((await s.client.call('POST', `${cmPath}?fieldValidation=Loud`, { body })).status, 422, 'invalid CreateOptions');
});

test('a body repeating a key thousands of times deep in its nesting gets a bounded answer: the first fields named, the rest counted, warnings cut short', async () => {
  // 5,000 "b" keys 900 levels down an unknown field (within the body's nesting limit): every duplicate's path is 1,800 characters long.
  const deep = `${'{"a":'.repeat(900)}{${Array.from({ length: 5000 }, () => '"b":1').join(',')}}${'}'.repeat(900)}`;
  const body = (name: string): string => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{},"x":${deep}}`;
  const strict = await s.client.call('POST', `${cmPath}?fieldValidation=Strict`, { body: body('dup-strict') });
  assert.equal(strict.status, 400);
  const status = strict.json as { message: string; details: { causes: unknown[] } };
  assert.match(status.message, /^strict decoding error: unknown field "x", duplicate field "x[.a]+\.\.\., duplicate field "x/);
  assert.match(status.message, /, and 4900 more unknown or duplicate fields$/);
  assert.ok(status.message.length < 100 * 300, `a message of ${status.message.length} characters`);
  assert.equal(status.details.causes.length, 100);
  const warn = await s.client.call('POST', cmPath, { body: body('dup-warn') });
  assert.equal(warn.status, 201);
  // The same warning text is sent once (kube's warning recorder); each names a path cut short.
  const warnings = [warn.headers.warning].flat();
  assert.equal(warnings.length, 3);
  assert.match(warnings[2] ?? '', /"and 4951 more unknown or duplicate fields"/);
  assert.ok(warnings.every((w) => w !== undefined && w.length < 300), 'each warning is cut short');
  const yamlKeys = Array.from({ length: 3000 }, () => '  k: v').join('\n');
  const yaml = await s.client.call('POST', `${cmPath}?fieldValidation=Strict`, { body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup-yaml\ndata:\n${yamlKeys}\n`, contentType: 'application/yaml' });
  assert.equal(yaml.status, 400);
  assert.match((yaml.json as { message: string }).message, /^strict decoding error: duplicate field "k \(line 7\)", duplicate field "k \(line 8\)", .*, and 2899 more unknown or duplicate fields$/);
});

test('tables: default columns, per-kind printer columns, includeObject', async () => {
  const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
  const list = (await s.client.call('GET', cmPath, { headers: { accept } })).json as { kind: string; apiVersion: string; columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[]; object: Json }[] };
  assert.equal(list.kind, 'Table');
  assert.equal(list.apiVersion, 'meta.k8s.io/v1');
  assert.deepEqual(list.columnDefinitions.map((c) => c.name), ['Name', 'Data', 'Age']);
  assert.equal(list.rows[0]?.object.kind, 'PartialObjectMetadata');
  await s.client.call('POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } });
  const pods = (await s.client.call('GET', '/api/v1/namespaces/default/pods?includeObject=Object', { headers: { accept } })).json as { columnDefinitions: { name: string; priority: number }[]; rows: { cells: unknown[]; object: Json }[] };
  assert.deepEqual(pods.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name), ['Name', 'Ready', 'Status', 'Restarts', 'Age']);
  assert.deepEqual(pods.rows[0]?.cells.slice(0, 4), ['p1', '0/1', 'Pending', '0']);
  assert.equal(pods.rows[0]?.object.kind, 'Pod');
  const one = (await s.client.call('GET', '/api/v1/namespaces/default/pods/p1', { headers: { accept } })).json as { rows: unknown[] };
  assert.equal(one.rows.length, 1);
  const svc = await s.client.call('POST', '/api/v1/namespaces/default/services', { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's1' }, spec: { ports: [{ port: 80 }] } } });
  assert.equal(svc.status, 201, svc.text);
  const svcTable = (await s.client.call('GET', '/api/v1/namespaces/default/services', { headers: { accept } })).json as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
  assert.deepEqual(svcTable.columnDefinitions.map((c) => c.name).slice(0, 6), ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age']);
  assert.deepEqual(svcTable.rows[0]?.cells.slice(0, 5), ['s1', 'ClusterIP', (svc.json as { spec: { clusterIP: string } }).spec.clusterIP, '<none>', '80/TCP']);
  const node = await s.client.call('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } });
  assert.equal(node.status, 201);
  const nodes = (await s.client.call('GET', '/api/v1/nodes', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).json as { rows: { cells: unknown[] }[] };
  assert.deepEqual(nodes.rows[0]?.cells.slice(0, 3), ['n1', 'Unknown', '<none>']);
});

test('gzip when asked for get and list; pretty output on request', async () => {
  const res = await request(`${s.baseUrl}${cmPath}`, { dispatcher: (s.client as unknown as { agent: never }).agent, headers: { authorization: `Bearer ${testToken}`, 'accept-encoding': 'gzip' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-encoding'], 'gzip');
  const json = JSON.parse(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString('utf8')) as Json;
  assert.equal(json.kind, 'ConfigMapList');
  const pretty = await s.client.call('GET', `${cmPath}?pretty=true`);
  assert.match(pretty.text, /^\{\n {2}"apiVersion"/);
});

test('patch: merge, JSON (with a failing test), strategic merge, and resourceVersion preconditions', async () => {
  await s.client.call('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pt' }, data: { a: '1', b: '2' } } });
  const merged = await s.client.call('PATCH', `${cmPath}/pt`, { body: { data: { a: null, c: '3' } }, contentType: 'application/merge-patch+json' });
  assert.deepEqual((merged.json as Json).data, { b: '2', c: '3' });
  const failing = await s.client.call('PATCH', `${cmPath}/pt`, { body: [{ op: 'replace', path: '/data/b', value: 'x' }, { op: 'test', path: '/data/b', value: 'nope' }], contentType: 'application/json-patch+json' });
  assert.equal(failing.status, 422);
  assert.deepEqual(((await s.client.call('GET', `${cmPath}/pt`)).json as Json).data, { b: '2', c: '3' }, 'a failed patch writes nothing');
  const json = await s.client.call('PATCH', `${cmPath}/pt`, { body: [{ op: 'test', path: '/data/b', value: '2' }, { op: 'add', path: '/data/d', value: '4' }], contentType: 'application/json-patch+json' });
  assert.equal(json.status, 200);
  const strategic = await s.client.call('PATCH', `${cmPath}/pt`, { body: { metadata: { labels: { x: 'y' } }, $setElementOrder: [] }, contentType: 'application/strategic-merge-patch+json' });
  assert.deepEqual(((strategic.json as Json).metadata as Json).labels, { x: 'y' });
  const stale = await s.client.call('PATCH', `${cmPath}/pt`, { body: { metadata: { resourceVersion: '1' }, data: { z: '1' } }, contentType: 'application/merge-patch+json' });
  assert.equal(stale.status, 409);
  const invalid = await s.client.call('PATCH', `${cmPath}/pt`, { body: { metadata: { labels: { 'bad key': 'v' } } }, contentType: 'application/merge-patch+json' });
  assert.equal(invalid.status, 422);
  assert.equal((await s.client.call('PATCH', `${cmPath}/missing`, { body: {}, contentType: 'application/merge-patch+json' })).status, 404);
});
