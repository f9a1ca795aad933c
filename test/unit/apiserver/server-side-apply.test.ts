// Server-side apply and strategic merge patch over HTTP: SSA rules with the managedFields they
// leave, the declared merge markers, and bad input that must persist nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { handlePatch } from '../../../internal/apiserver/handlers/patch.ts';
import type { RequestContext } from '../../../internal/apiserver/handlers/request-context.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { configmaps } from '../../../internal/registry/core/configmaps.ts';
import { startTestServer, type TestServer } from './harness.ts';

type Json = Record<string, unknown>;
interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: Json;
  subresource?: string;
}
interface Obj {
  metadata: Json & { managedFields?: Entry[] };
  [k: string]: unknown;
}

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const cmPath = '/api/v1/namespaces/default/configmaps';
const depPath = '/apis/apps/v1/namespaces/default/deployments';
const applyType = 'application/apply-patch+yaml';

async function applyAs(path: string, manager: string | undefined, body: unknown, query = ''): Promise<{ status: number; obj: Obj; text: string }> {
  const q = [manager === undefined ? '' : `fieldManager=${manager}`, query].filter((x) => x !== '').join('&');
  const r = await s.client.call('PATCH', q === '' ? path : `${path}?${q}`, { body, contentType: applyType });
  return { status: r.status, obj: r.json as Obj, text: r.text };
}

async function getObj(path: string): Promise<{ status: number; obj: Obj }> {
  const r = await s.client.call('GET', path);
  return { status: r.status, obj: r.json as Obj };
}

/** managedFields without the time, sorted by manager, for comparison. */
function owners(obj: Obj): Omit<Entry, 'time'>[] {
  return (obj.metadata.managedFields ?? []).map(({ time, ...rest }) => {
    assert.match(String(time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    return rest;
  }).sort((a, b) => (a.manager < b.manager ? -1 : 1));
}

const configMap = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const dataFields = (...keys: string[]) => ({ 'f:data': Object.fromEntries(keys.map((k) => [`f:${k}`, {}])) });
const applyEntry = (manager: string, fieldsV1: Json, apiVersion = 'v1') => ({ manager, operation: 'Apply', apiVersion, fieldsType: 'FieldsV1', fieldsV1 });
const updateEntry = (manager: string, fieldsV1: Json, apiVersion = 'v1') => ({ manager, operation: 'Update', apiVersion, fieldsType: 'FieldsV1', fieldsV1 });

describe('server-side apply rules', () => {
  test('apply creates a missing object (201) and the applier owns exactly its fields', async () => {
    const r = await applyAs(`${cmPath}/c1`, 'alice', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c1\n  labels:\n    team: a\ndata:\n  x: "1"\n');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(owners(r.obj), [applyEntry('alice', { 'f:metadata': { 'f:labels': { 'f:team': {} } }, ...dataFields('x') })]);
  });

  test('rule 2: changing a field another applier owns is a 409 listing each field and manager; nothing is written', async () => {
    await applyAs(`${cmPath}/c2`, 'alice', configMap('c2', { x: '1', y: '2' }));
    const r = await applyAs(`${cmPath}/c2`, 'bob', configMap('c2', { x: '9', y: '8' }));
    assert.equal(r.status, 409);
    const status = r.obj as unknown as { reason: string; message: string; details: { causes: unknown[] } };
    assert.equal(status.reason, 'Conflict');
    assert.equal(status.message, 'Apply failed with 2 conflicts: conflicts with "alice":\n- .data.x\n- .data.y');
    assert.deepEqual(status.details.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.x' },
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.y' },
    ]);
    assert.deepEqual((await getObj(`${cmPath}/c2`)).obj.data, { x: '1', y: '2' });
  });

  test('rule 2: force=true overwrites and moves ownership', async () => {
    await applyAs(`${cmPath}/c3`, 'alice', configMap('c3', { x: '1', y: '2' }));
    const r = await applyAs(`${cmPath}/c3`, 'bob', configMap('c3', { x: '9' }), 'force=true');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.obj.data, { x: '9', y: '2' });
    assert.deepEqual(owners(r.obj), [applyEntry('alice', dataFields('y')), applyEntry('bob', dataFields('x'))]);
  });

  test('rule 4: equal values share ownership; a later change by either conflicts', async () => {
    await applyAs(`${cmPath}/c4`, 'alice', configMap('c4', { x: '1' }));
    const shared = await applyAs(`${cmPath}/c4`, 'bob', configMap('c4', { x: '1' }));
    assert.equal(shared.status, 200, shared.text);
    assert.deepEqual(owners(shared.obj), [applyEntry('alice', dataFields('x')), applyEntry('bob', dataFields('x'))]);
    const change = await applyAs(`${cmPath}/c4`, 'alice', configMap('c4', { x: '2' }));
    assert.equal(change.status, 409);
    assert.match(change.text, /conflict with \\"bob\\": \.data\.x/);
  });

  test('rule 4: a field given up is kept while another manager owns it, removed when nobody does', async () => {
    await applyAs(`${cmPath}/c5`, 'alice', configMap('c5', { x: '1', y: '2' }));
    await applyAs(`${cmPath}/c5`, 'bob', configMap('c5', { x: '1' }));
    const alice = await applyAs(`${cmPath}/c5`, 'alice', configMap('c5', {}));
    assert.equal(alice.status, 200, alice.text);
    assert.deepEqual(alice.obj.data, { x: '1' }, 'y had no other owner: removed; x is still bob\'s');
    assert.deepEqual(owners(alice.obj), [applyEntry('bob', dataFields('x'))], 'alice owns nothing any more: her entry is gone');
  });

  test('rule 3: an update never conflicts and takes the fields it changed; the applier then conflicts with it', async () => {
    await applyAs(`${cmPath}/c6`, 'alice', configMap('c6', { x: '1', y: '2' }));
    const edit = await s.client.call('PATCH', `${cmPath}/c6`, { body: { data: { x: '5' } }, contentType: 'application/merge-patch+json', headers: { 'user-agent': 'kubectl-edit/v1.32.4 (linux/amd64) kubernetes/abc' } });
    assert.equal(edit.status, 200, edit.text);
    assert.deepEqual(owners(edit.json as Obj), [applyEntry('alice', dataFields('y')), updateEntry('kubectl-edit', dataFields('x'))]);
    const r = await applyAs(`${cmPath}/c6`, 'alice', configMap('c6', { x: '1', y: '2' }));
    assert.equal(r.status, 409);
    assert.equal((r.obj as unknown as { message: string }).message, 'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.x');
  });

  test('rule 6: a manager whose fields are all taken is removed', async () => {
    await applyAs(`${cmPath}/c7`, 'alice', configMap('c7', { x: '1' }));
    const r = await applyAs(`${cmPath}/c7`, 'bob', configMap('c7', { x: '2' }), 'force=true');
    assert.deepEqual(owners(r.obj), [applyEntry('bob', dataFields('x'))]);
  });

  test('rule 7: a non-apply write with managedFields [{}] resets them and the writer owns what it changed', async () => {
    await applyAs(`${cmPath}/c8`, 'alice', configMap('c8', { x: '1' }));
    const r = await s.client.call('PATCH', `${cmPath}/c8?fieldManager=resetter`, { body: { metadata: { managedFields: [{}] }, data: { y: '2' } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json as Obj), [updateEntry('resetter', dataFields('y'))]);
    const empty = await s.client.call('PATCH', `${cmPath}/c8?fieldManager=other`, { body: { metadata: { managedFields: [] }, data: { z: '3' } }, contentType: 'application/merge-patch+json' });
    assert.deepEqual(owners(empty.json as Obj).map((e) => e.manager), ['other', 'resetter'], 'an empty list does not reset');
  });

  test('every write records an Update entry named after the User-Agent program or fieldManager', async () => {
    const created = await s.client.call('POST', cmPath, { body: configMap('c9', { a: '1' }), headers: { 'user-agent': 'kubectl-client-side-apply/v1.32.4 (linux/amd64) kubernetes/abc' } });
    assert.deepEqual(owners(created.json as Obj), [updateEntry('kubectl-client-side-apply', { 'f:data': { '.': {}, 'f:a': {} } })]);
    const put = await s.client.call('PUT', `${cmPath}/c9`, { body: configMap('c9', { a: '1', b: '2' }), headers: { 'user-agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/abc' } });
    assert.deepEqual(owners(put.json as Obj), [updateEntry('kubectl', dataFields('b')), updateEntry('kubectl-client-side-apply', { 'f:data': { '.': {}, 'f:a': {} } })]);
  });

  test('dryRun apply answers the result and persists nothing', async () => {
    const r = await applyAs(`${cmPath}/c10`, 'alice', configMap('c10', { x: '1' }), 'dryRun=All');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.obj.data, { x: '1' });
    assert.equal((await getObj(`${cmPath}/c10`)).status, 404);
  });

  test('apply into a missing namespace is 404 and creates nothing', async () => {
    const r = await applyAs('/api/v1/namespaces/nowhere/configmaps/c11', 'alice', configMap('c11', { x: '1' }));
    assert.equal(r.status, 404);
  });

  test('status apply owns only status; main-resource apply never owns status', async () => {
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'st' }, spec: { selector: { matchLabels: { app: 'st' } }, template: { metadata: { labels: { app: 'st' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } }, status: { replicas: 7 } };
    const created = await applyAs(`${depPath}/st`, 'alice', dep);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.obj.status === undefined || !('replicas' in (created.obj.status as Json)), true);
    assert.equal('f:status' in (owners(created.obj)[0]?.fieldsV1 ?? {}), false);
    const st = await applyAs(`${depPath}/st/status`, 'ctrl', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'st' }, spec: { replicas: 9 }, status: { replicas: 3 } });
    assert.equal(st.status, 200, st.text);
    assert.equal((st.obj.status as Json).replicas, 3);
    assert.notEqual((st.obj.spec as Json).replicas, 9);
    const ctrl = owners(st.obj).find((e) => e.manager === 'ctrl');
    assert.deepEqual(ctrl, { manager: 'ctrl', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status' });
  });
});

describe('declared merge markers', () => {
  const pod = (containers: unknown[], extra: Json = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'mk', finalizers: ['example.com/a'] },
    spec: { selector: { matchLabels: { app: 'mk' } }, template: { metadata: { labels: { app: 'mk' } }, spec: { containers, ...extra } } },
  });
  const containers = (obj: Obj) => ((obj.spec as Json).template as { spec: { containers: Json[]; tolerations?: unknown } }).spec;

  test('apply fieldsV1 uses k: keys for list-maps (containers by name, ports by containerPort+protocol, env by name)', async () => {
    const r = await applyAs(`${depPath}/mk`, 'alice', pod([{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] }]));
    assert.equal(r.status, 201, r.text);
    const spec = ((owners(r.obj)[0]?.fieldsV1['f:spec'] as Json)['f:template'] as Json)['f:spec'] as Json;
    assert.deepEqual(spec, {
      'f:containers': {
        'k:{"name":"web"}': {
          '.': {},
          'f:name': {},
          'f:image': {},
          'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
          'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
        },
      },
    });
    assert.deepEqual((owners(r.obj)[0]?.fieldsV1['f:metadata'] as Json)['f:finalizers'], { 'v:"example.com/a"': {} });
    assert.deepEqual((owners(r.obj)[0]?.fieldsV1['f:spec'] as Json)['f:selector'], {}, 'a label selector is atomic');
  });

  test('strategic merge patch merges containers and env by name, finalizers as a set, replaces tolerations', async () => {
    const smp = (body: unknown) => s.client.call('PATCH', `${depPath}/mk`, { body, contentType: 'application/strategic-merge-patch+json' });
    await smp({ spec: { template: { spec: { tolerations: [{ key: 'a', operator: 'Exists' }] } } } });
    const r = await smp({
      metadata: { finalizers: ['example.com/b'] },
      spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox' }, { name: 'web', env: [{ name: 'B', value: '2' }] }], tolerations: [{ key: 'b', operator: 'Exists' }] } } },
    });
    assert.equal(r.status, 200, r.text);
    const obj = r.json as Obj;
    // As Kubernetes orders a merge without $setElementOrder: patched items first, then the others.
    assert.deepEqual(obj.metadata.finalizers, ['example.com/b', 'example.com/a']);
    const spec = containers(obj);
    assert.deepEqual(spec.containers.map((c) => c.name).sort(), ['side', 'web']);
    assert.deepEqual(spec.containers.find((c) => c.name === 'web')?.env, [{ name: 'B', value: '2' }, { name: 'A', value: '1' }]);
    assert.deepEqual(spec.tolerations, [{ key: 'b', operator: 'Exists' }]);
    const del = await smp({ metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] }, spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } });
    assert.equal(del.status, 200, del.text);
    assert.deepEqual((del.json as Obj).metadata.finalizers, ['example.com/b']);
    assert.deepEqual(containers(del.json as Obj).containers.map((c) => c.name), ['web']);
  });

  test('a malformed directive is a 4xx and changes nothing', async () => {
    const before = (await getObj(`${depPath}/mk`)).obj;
    const r = await s.client.call('PATCH', `${depPath}/mk`, { body: { spec: { template: { spec: { containers: [{ image: 'no-name' }] } } } }, contentType: 'application/strategic-merge-patch+json' });
    assert.ok(r.status >= 400 && r.status < 500, r.text);
    assert.equal((await getObj(`${depPath}/mk`)).obj.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  test('OpenAPI carries the markers', async () => {
    const r = await s.client.call('GET', '/openapi/v3/apis/apps/v1');
    const text = r.text;
    assert.match(text, /"x-kubernetes-patch-merge-key":"name"/);
    assert.match(text, /"x-kubernetes-list-map-keys":\["containerPort","protocol"\]/);
    assert.match(text, /"x-kubernetes-patch-strategy":"merge,retainKeys"/);
  });
});

describe('bad apply input persists nothing', () => {
  const cases: [string, string, unknown, string, number][] = [
    ['invalid YAML', 'bad1', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad1\ndata: [', 'fieldManager=alice', 400],
    ['no fieldManager (invalid PatchOptions)', 'bad2', configMap('bad2', { x: '1' }), '', 422],
    ['managedFields in the body', 'bad3', { ...configMap('bad3', { x: '1' }), metadata: { name: 'bad3', managedFields: [{ manager: 'x', operation: 'Apply' }] } }, 'fieldManager=alice', 400],
    ['a name other than the URL\'s', 'bad4', configMap('other', { x: '1' }), 'fieldManager=alice', 400],
    ['generateName', 'bad5', { ...configMap('bad5', {}), metadata: { generateName: 'x-' } }, 'fieldManager=alice', 400],
    ['an unknown field under Strict', 'bad7', { ...configMap('bad7', {}), bogus: 1 }, 'fieldManager=alice&fieldValidation=Strict', 400],
    ['an invalid object (validation runs on create-through-apply)', 'bad9', { ...configMap('bad9', {}), metadata: { name: 'bad9', labels: { 'bad key': 'v' } } }, 'fieldManager=alice', 422],
    ['another kind', 'bad10', { ...configMap('bad10', {}), kind: 'Secret' }, 'fieldManager=alice', 400],
    ['a list-map item without its key', 'bad11', { ...configMap('bad11', {}), metadata: { name: 'bad11', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'o' }] } }, 'fieldManager=alice', 422],
  ];
  for (const [what, name, body, query, code] of cases) {
    test(`${what}: ${code}`, async () => {
      const r = await s.client.call('PATCH', `${cmPath}/${name}${query ? `?${query}` : ''}`, { body, contentType: applyType });
      assert.equal(r.status, code, r.text);
      assert.equal((r.json as { kind?: string }).kind, 'Status');
      assert.equal((await getObj(`${cmPath}/${name}`)).status, 404);
    });
  }

  test('force on a non-apply patch is a 422 (invalid PatchOptions)', async () => {
    await applyAs(`${cmPath}/bad8`, 'alice', configMap('bad8', { x: '1' }));
    const r = await s.client.call('PATCH', `${cmPath}/bad8?force=true`, { body: { data: { x: '2' } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 422);
    assert.deepEqual((await getObj(`${cmPath}/bad8`)).obj.data, { x: '1' });
  });
});

test('a custom resource refuses strategic merge patch with 415 before reading the body', async () => {
  let bodyRead = false;
  const body = { [Symbol.asyncIterator]: () => { bodyRead = true; throw new Error('must not read'); } };
  const ctx = {
    headers: { 'content-type': 'application/strategic-merge-patch+json' },
    served: { decl: { ...configmaps, custom: true }, group: 'example.com', version: 'v1', apiVersion: 'example.com/v1' },
    query: new URLSearchParams(),
    info: { name: 'x', namespace: 'default' },
    body,
  } as unknown as RequestContext;
  await assert.rejects(handlePatch(ctx), (e: unknown) => e instanceof StatusError && e.code === 415 && /apply-patch\+yaml/.test(e.message) && !/strategic/.test(e.message.split('include')[1] ?? ''));
  assert.equal(bodyRead, false);
});
