import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespaceController } from '../../../internal/controllers/namespace-controller.ts';
import { FakeStorage } from './fake-storage.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Obj = { metadata: Record<string, unknown>; [k: string]: unknown };
const cm = (name: string, data: Record<string, string> = { k: 'v' }, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

test('create fills server metadata and get returns the stored object', async () => {
  const created = await s.client.call('POST', '/api/v1/namespaces/default/configmaps?fieldManager=tester', { body: cm('meta1') });
  assert.equal(created.status, 201);
  const obj = created.json as Obj;
  assert.match(String(obj.metadata.uid), /^[0-9a-f-]{36}$/);
  assert.match(String(obj.metadata.resourceVersion), /^\d+$/);
  assert.match(String(obj.metadata.creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(obj.metadata.namespace, 'default');
  const mf = (obj.metadata.managedFields as { manager: string; operation: string; fieldsType: string; fieldsV1: object }[])[0];
  assert.equal(mf?.manager, 'tester');
  assert.equal(mf?.operation, 'Update');
  assert.deepEqual(mf?.fieldsV1, { 'f:data': { '.': {}, 'f:k': {} } });
  const got = await s.client.call('GET', '/api/v1/namespaces/default/configmaps/meta1');
  assert.equal(got.status, 200);
  assert.deepEqual(got.json, obj);
});

test('generateName produces a name with a five-character suffix', async () => {
  const res = await s.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } } });
  assert.equal(res.status, 201);
  assert.match(String((res.json as Obj).metadata.name), /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
});

test('update with the current resourceVersion succeeds; a stale one is a 409 Conflict', async () => {
  const created = (await s.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: cm('upd') })).json as Obj;
  const rv = created.metadata.resourceVersion;
  const ok = await s.client.call('PUT', '/api/v1/namespaces/default/configmaps/upd', { body: { ...created, data: { k: 'v2' } } });
  assert.equal(ok.status, 200);
  assert.notEqual((ok.json as Obj).metadata.resourceVersion, rv);
  assert.equal((ok.json as Obj).metadata.uid, created.metadata.uid);
  const stale = await s.client.call('PUT', '/api/v1/namespaces/default/configmaps/upd', { body: { ...created, data: { k: 'v3' } } });
  assert.equal(stale.status, 409);
  assert.equal((stale.json as { reason: string }).reason, 'Conflict');
  assert.match((stale.json as { message: string }).message, /the object has been modified; please apply your changes to the latest version and try again/);
});

test('PUT of a missing object is 404 unless the resource allows create-on-update', async () => {
  const cmRes = await s.client.call('PUT', '/api/v1/namespaces/default/configmaps/nope', { body: cm('nope') });
  assert.equal(cmRes.status, 404);
  const ep = await s.client.call('PUT', '/api/v1/namespaces/default/endpoints/ep1', { body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ep1' }, subsets: [] } });
  assert.equal(ep.status, 201);
});

test('dryRun=All runs validation but writes nothing', async () => {
  const res = await s.client.call('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: cm('dry') });
  assert.equal(res.status, 201);
  assert.equal((await s.client.call('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
  const bad = await s.client.call('POST', '/api/v1/namespaces/default/configmaps?dryRun=Some', { body: cm('dry') });
  assert.equal(bad.status, 422, 'invalid CreateOptions, as kube-apiserver answers them');
});

test('list filters by label and field selectors and pages with limit and continue', async () => {
  await s.client.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'listing' } } });
  for (const [name, tier] of [['l1', 'a'], ['l2', 'b'], ['l3', 'a'], ['l4', 'a']] as const) {
    assert.equal((await s.client.call('POST', '/api/v1/namespaces/listing/configmaps', { body: cm(name, {}, { tier }) })).status, 201);
  }
  const sel = (await s.client.call('GET', '/api/v1/namespaces/listing/configmaps?labelSelector=tier%3Da')).json as { items: Obj[] };
  assert.deepEqual(sel.items.map((i) => i.metadata.name), ['l1', 'l3', 'l4']);
  const notin = (await s.client.call('GET', '/api/v1/namespaces/listing/configmaps?labelSelector=tier%20notin%20(a)')).json as { items: Obj[] };
  assert.deepEqual(notin.items.map((i) => i.metadata.name), ['l2']);
  const byName = (await s.client.call('GET', '/api/v1/configmaps?fieldSelector=metadata.name%3Dl2,metadata.namespace%3Dlisting')).json as { items: Obj[] };
  assert.deepEqual(byName.items.map((i) => i.metadata.name), ['l2']);
  const page1 = (await s.client.call('GET', '/api/v1/namespaces/listing/configmaps?limit=3')).json as { items: Obj[]; metadata: { continue?: string; resourceVersion: string; remainingItemCount?: number } };
  assert.deepEqual(page1.items.map((i) => i.metadata.name), ['l1', 'l2', 'l3']);
  assert.equal(page1.metadata.remainingItemCount, 1);
  await s.client.call('POST', '/api/v1/namespaces/listing/configmaps', { body: cm('l5') });
  const page2 = (await s.client.call('GET', `/api/v1/namespaces/listing/configmaps?limit=3&continue=${page1.metadata.continue}`)).json as { items: Obj[]; metadata: { continue?: string; resourceVersion: string } };
  assert.deepEqual(page2.items.map((i) => i.metadata.name), ['l4'], 'the second page is read at the first page revision');
  assert.equal(page2.metadata.resourceVersion, page1.metadata.resourceVersion);
  assert.equal(page2.metadata.continue, undefined);
  const selPage = (await s.client.call('GET', '/api/v1/namespaces/listing/configmaps?limit=1&labelSelector=tier%3Da')).json as { items: Obj[]; metadata: { remainingItemCount?: number; continue?: string } };
  assert.equal(selPage.metadata.remainingItemCount, undefined, 'no remainingItemCount with selectors');
  assert.ok(selPage.metadata.continue);
});

test('delete honours preconditions; deletecollection removes what the selector matches', async () => {
  await s.client.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'deleting' } } });
  const obj = (await s.client.call('POST', '/api/v1/namespaces/deleting/configmaps', { body: cm('d1', {}, { gone: 'yes' }) })).json as Obj;
  await s.client.call('POST', '/api/v1/namespaces/deleting/configmaps', { body: cm('d2', {}, { gone: 'yes' }) });
  await s.client.call('POST', '/api/v1/namespaces/deleting/configmaps', { body: cm('d3') });
  const wrongUid = await s.client.call('DELETE', '/api/v1/namespaces/deleting/configmaps/d1', { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'other' } } });
  assert.equal(wrongUid.status, 409);
  const ok = await s.client.call('DELETE', '/api/v1/namespaces/deleting/configmaps/d1', { body: { preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion }, propagationPolicy: 'Background', gracePeriodSeconds: 0 } });
  assert.equal(ok.status, 200);
  assert.equal((await s.client.call('DELETE', '/api/v1/namespaces/deleting/configmaps/d1')).status, 404);
  const dc = await s.client.call('DELETE', '/api/v1/namespaces/deleting/configmaps?labelSelector=gone');
  assert.equal(dc.status, 200);
  assert.deepEqual((dc.json as { items: Obj[] }).items.map((i) => i.metadata.name), ['d2']);
  const left = (await s.client.call('GET', '/api/v1/namespaces/deleting/configmaps')).json as { items: Obj[] };
  assert.deepEqual(left.items.map((i) => i.metadata.name), ['d3']);
});

test('an object with finalizers is only marked for deletion until the last finalizer goes', async () => {
  const created = (await s.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { ...cm('fin'), metadata: { name: 'fin', finalizers: ['example.com/hold'] } } })).json as Obj;
  const del = await s.client.call('DELETE', '/api/v1/namespaces/default/configmaps/fin');
  assert.equal(del.status, 202);
  const marked = (del.json as Obj).metadata;
  assert.ok(marked.deletionTimestamp);
  const cleared = await s.client.call('PATCH', '/api/v1/namespaces/default/configmaps/fin', { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
  assert.equal(cleared.status, 200);
  assert.equal((await s.client.call('GET', '/api/v1/namespaces/default/configmaps/fin')).status, 404);
  assert.ok(created);
});

test('deployments get apps/v1 defaults, generation counts spec changes, and status writes keep the spec', async () => {
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } } } };
  const res = await s.client.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body });
  assert.equal(res.status, 201, res.text);
  const d = res.json as Obj & { spec: Record<string, unknown> };
  assert.equal(d.metadata.generation, 1);
  assert.equal(d.spec.progressDeadlineSeconds, 600);
  assert.equal(d.spec.revisionHistoryLimit, 10);
  assert.equal(d.spec.replicas, 1);
  assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
  const status = await s.client.call('PUT', '/apis/apps/v1/namespaces/default/deployments/web/status', { body: { ...d, spec: { ...d.spec, replicas: 7 }, status: { replicas: 1 } } });
  assert.equal(status.status, 200, status.text);
  const afterStatus = status.json as Obj & { spec: { replicas: number }; status: { replicas: number } };
  assert.equal(afterStatus.spec.replicas, 1, 'the status sub-resource does not change spec');
  assert.equal(afterStatus.status.replicas, 1);
  assert.equal(afterStatus.metadata.generation, 1);
  const scale = await s.client.call('GET', '/apis/apps/v1/namespaces/default/deployments/web/scale');
  assert.deepEqual((scale.json as { kind: string; spec: unknown; status: unknown }).spec, { replicas: 1 });
  assert.deepEqual((scale.json as { status: unknown }).status, { replicas: 1, selector: 'app=web' });
  const scaled = await s.client.call('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale', { body: { spec: { replicas: 4 } }, contentType: 'application/merge-patch+json' });
  assert.equal(scaled.status, 200, scaled.text);
  const after = (await s.client.call('GET', '/apis/apps/v1/namespaces/default/deployments/web')).json as Obj & { spec: { replicas: number }; status: unknown };
  assert.equal(after.spec.replicas, 4);
  assert.equal(after.metadata.generation, 2);
  assert.deepEqual(after.status, { replicas: 1 });
  const main = await s.client.call('PUT', '/apis/apps/v1/namespaces/default/deployments/web', { body: { ...after, status: { replicas: 99 }, spec: { ...after.spec, selector: { matchLabels: { app: 'other' } } } } });
  assert.equal(main.status, 422, 'the selector is immutable');
  const badScale = await s.client.call('PUT', '/apis/apps/v1/namespaces/default/deployments/web/scale', { body: { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web' }, spec: { replicas: -1 } } });
  assert.equal(badScale.status, 422);
});

test('a missing namespace is a 404 on create', async () => {
  const res = await s.client.call('POST', '/api/v1/namespaces/absent/configmaps', { body: cm('x') });
  assert.equal(res.status, 404);
  assert.match((res.json as { message: string }).message, /namespaces "absent" not found/);
});

test('a replica that does not hold a new namespace yet confirms it with a consistent read before refusing', async (t) => {
  if (!(s.storage instanceof FakeStorage)) {
    t.skip('the lag of the namespace informer is simulated by the fake store only');
    return;
  }
  // This replica lags: neither its namespace informer nor its local state has namespace "fresh" yet; a consistent read does.
  const lag = s.storage.lagWatches((key) => key.includes('fresh'));
  await s.client.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } } });
  const original = s.storage.get.bind(s.storage);
  const localReads: string[] = [];
  s.storage.get = async (key, options) => {
    if (options?.consistency === 'local' && key.includes('fresh')) {
      localReads.push(key);
      return null;
    }
    return original(key, options);
  };
  try {
    const res = await s.client.call('POST', '/api/v1/namespaces/fresh/configmaps', { body: cm('first') });
    assert.equal(res.status, 201, res.text);
    assert.equal(localReads.length, 1, 'the local state was asked first');
  } finally {
    s.storage.get = original;
    lag.catchUp();
  }
});

test('a PUT pinned to a resourceVersion this replica holds reads locally; otherwise it reads linearizably', async () => {
  const created = (await s.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: cm('pinned') })).json as Obj;
  const original = s.storage.get.bind(s.storage);
  const reads: string[] = [];
  let lagging = false;
  s.storage.get = async (key, options) => {
    if (key.endsWith('/pinned')) reads.push(options?.consistency ?? 'linearizable');
    if (lagging && options?.consistency === 'local' && key.endsWith('/pinned')) return null;
    return original(key, options);
  };
  try {
    const put = (rv: unknown, v: string) => s.client.call('PUT', '/api/v1/namespaces/default/configmaps/pinned', { body: { ...cm('pinned'), metadata: { name: 'pinned', ...(typeof rv === 'string' ? { resourceVersion: rv } : {}) }, data: { v } } });
    const first = await put(created.metadata.resourceVersion, '1');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(reads, ['local'], 'the pinned version was read from the local state only');
    reads.length = 0;
    lagging = true; // this replica lost sight of the object: the linearizable read decides
    const second = await put((first.json as Obj).metadata.resourceVersion, '2');
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(reads, ['local', 'linearizable']);
    reads.length = 0;
    const stale = await put(created.metadata.resourceVersion, '3');
    assert.equal(stale.status, 409, 'a stale version is still a conflict');
    reads.length = 0;
    assert.equal((await put(undefined, '4')).status, 200);
    assert.deepEqual(reads, ['linearizable'], 'an unpinned PUT reads linearizably');
  } finally {
    s.storage.get = original;
  }
});

test('concurrent patches without a resourceVersion all land (lost races are retried)', async () => {
  await s.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: cm('race') });
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) => s.client.call('PATCH', '/api/v1/namespaces/default/configmaps/race', { body: { metadata: { labels: { [`l${i}`]: 'x' } } }, contentType: 'application/merge-patch+json' })),
  );
  assert.deepEqual(results.map((r) => r.status), Array(6).fill(200));
  const labels = ((await s.client.call('GET', '/api/v1/namespaces/default/configmaps/race')).json as Obj).metadata.labels as Record<string, string>;
  assert.equal(Object.keys(labels).length, 6);
});

test('an immutable configmap rejects data changes but may be deleted', async () => {
  const created = (await s.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { ...cm('frozen'), immutable: true } })).json as Obj;
  const change = await s.client.call('PUT', '/api/v1/namespaces/default/configmaps/frozen', { body: { ...created, data: { k: 'changed' } } });
  assert.equal(change.status, 422);
  assert.equal((await s.client.call('DELETE', '/api/v1/namespaces/default/configmaps/frozen')).status, 200);
});

/** Polls `check` until true (a liveness bound, not a performance claim). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs a namespace controller against the test server's stores until the test ends. */
function runNamespaceController(t: TestContext): void {
  const abort = new AbortController();
  const controller = createNamespaceController({ registry: s.server.registry, stores: s.server.stores, log: () => undefined }, { resyncIntervalMs: 50, busyResyncIntervalMs: 20 });
  const running = controller.run(abort.signal);
  t.after(async () => {
    abort.abort();
    await running;
  });
}

test('deleting a namespace makes it Terminating; the namespace controller deletes its objects, finalizers keep it, and it takes no new objects', async (t) => {
  const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await s.client.call('POST', '/api/v1/namespaces', { body: ns('doomed') });
  await s.client.call('POST', '/api/v1/namespaces/doomed/configmaps', { body: cm('a') });
  await s.client.call('POST', '/api/v1/namespaces/doomed/secrets', { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } } });
  await s.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: cm('survivor') });
  const del = await s.client.call('DELETE', '/api/v1/namespaces/doomed');
  assert.equal(del.status, 200, del.text);
  assert.equal(((del.json as Obj).status as { phase: string }).phase, 'Terminating');
  assert.notEqual((del.json as Obj).metadata.deletionTimestamp, undefined);
  runNamespaceController(t);
  await until('namespace doomed removed', async () => (await s.client.call('GET', '/api/v1/namespaces/doomed')).status === 404);
  assert.deepEqual(((await s.client.call('GET', '/api/v1/namespaces/doomed/configmaps')).json as { items: unknown[] }).items, []);
  assert.equal((await s.client.call('GET', '/api/v1/namespaces/default/configmaps/survivor')).status, 200);

  await s.client.call('POST', '/api/v1/namespaces', { body: ns('held') });
  await s.client.call('POST', '/api/v1/namespaces/held/configmaps', { body: { ...cm('pinned'), metadata: { name: 'pinned', finalizers: ['example.com/hold'] } } });
  const held = await s.client.call('DELETE', '/api/v1/namespaces/held');
  assert.equal(((held.json as Obj).status as { phase: string }).phase, 'Terminating');
  const refused = await s.client.call('POST', '/api/v1/namespaces/held/configmaps', { body: cm('late') });
  assert.equal(refused.status, 403);
  await until('pinned terminating', async () => ((await s.client.call('GET', '/api/v1/namespaces/held/configmaps/pinned')).json as Obj).metadata.deletionTimestamp !== undefined);
  assert.equal((await s.client.call('GET', '/api/v1/namespaces/held')).status, 200);
  await s.client.call('PATCH', '/api/v1/namespaces/held/configmaps/pinned', { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
  await until('namespace held removed', async () => (await s.client.call('GET', '/api/v1/namespaces/held')).status === 404);
});

test('PUT of namespaces/{name}/finalize replaces only spec.finalizers, and lets a terminating namespace go', async () => {
  await s.client.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'manual' } } });
  await s.client.call('POST', '/api/v1/namespaces/manual/configmaps', { body: cm('left-behind') });
  const created = (await s.client.call('GET', '/api/v1/namespaces/manual')).json as Obj;
  assert.deepEqual(created.spec, { finalizers: ['kubernetes'] });
  const put = await s.client.call('PUT', '/api/v1/namespaces/manual', { body: { ...created, spec: { finalizers: [] } } });
  assert.deepEqual((put.json as Obj).spec, { finalizers: ['kubernetes'] }, 'an ordinary update keeps spec.finalizers');
  const stale = await s.client.call('PUT', '/api/v1/namespaces/manual/finalize', { body: { ...created, metadata: { ...created.metadata, resourceVersion: '1' }, spec: { finalizers: [] } } });
  assert.equal(stale.status, 409);
  assert.equal((await s.client.call('DELETE', '/api/v1/namespaces/manual')).status, 200);
  const current = (await s.client.call('GET', '/api/v1/namespaces/manual')).json as Obj;
  const fin = await s.client.call('PUT', '/api/v1/namespaces/manual/finalize', { body: { ...current, spec: { finalizers: [] } } });
  assert.equal(fin.status, 200, fin.text);
  assert.equal((await s.client.call('GET', '/api/v1/namespaces/manual')).status, 404);
});
