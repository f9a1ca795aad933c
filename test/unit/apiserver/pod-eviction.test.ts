import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

// pods/eviction as kube-apiserver 1.28's EvictionREST: budgets honoured, 429 when one forbids it.
// No disruption controller runs here: each test writes the budget's status itself.

type Obj = { metadata: { name: string; uid: string; resourceVersion: string; generation?: number }; status?: Record<string, unknown> };
type Status = { kind: string; status: string; message: string; reason: string; code: number; details?: { causes?: { reason: string; message: string }[]; retryAfterSeconds?: number } };

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const pods = '/api/v1/namespaces/default/pods';
const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

/** A pod labelled `app`, Running and (unless told) Ready, written through pods/status. */
async function runningPod(name: string, app: string, ready = true): Promise<Obj> {
  const created = await s.client.call('POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } });
  assert.equal(created.status, 201, created.text);
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
  const res = await s.client.call('PATCH', `${pods}/${name}/status`, { body: { status }, contentType: 'application/merge-patch+json' });
  assert.equal(res.status, 200, res.text);
  return res.json as Obj;
}

/** A budget over `app` whose status says `allowed` disruptions for its current generation. */
async function budget(name: string, app: string, allowed: number, observed = true): Promise<Obj> {
  const created = await s.client.call('POST', pdbs, { body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } } } } });
  assert.equal(created.status, 201, created.text);
  const pdb = created.json as Obj;
  const status = { disruptionsAllowed: allowed, currentHealthy: 1 + allowed, desiredHealthy: 1, expectedPods: 1 + allowed, observedGeneration: observed ? pdb.metadata.generation : 0 };
  const res = await s.client.call('PATCH', `${pdbs}/${name}/status`, { body: { status }, contentType: 'application/merge-patch+json' });
  assert.equal(res.status, 200, res.text);
  return res.json as Obj;
}

function eviction(name: string, deleteOptions?: Record<string, unknown>, apiVersion = 'policy/v1'): Record<string, unknown> {
  return { apiVersion, kind: 'Eviction', metadata: { name, namespace: 'default' }, ...(deleteOptions ? { deleteOptions } : {}) };
}

async function evict(name: string, body: unknown = eviction(name), query = '') {
  return s.client.call('POST', `${pods}/${name}/eviction${query}`, { body });
}

async function exists(path: string): Promise<boolean> {
  return (await s.client.call('GET', path)).status === 200;
}

test('a budget that allows a disruption lets the eviction delete the pod and spends the disruption', async () => {
  await runningPod('ok-1', 'ok');
  await budget('ok-budget', 'ok', 1);
  const res = await evict('ok-1');
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  assert.equal(await exists(`${pods}/ok-1`), false);
  const pdb = (await s.client.call('GET', `${pdbs}/ok-budget`)).json as Obj;
  assert.equal(pdb.status?.disruptionsAllowed, 0);
  assert.deepEqual(Object.keys(pdb.status?.disruptedPods as object), ['ok-1']);
  const condition = (pdb.status?.conditions as { type: string; status: string; reason: string }[]).find((c) => c.type === 'DisruptionAllowed');
  assert.deepEqual([condition?.status, condition?.reason], ['False', 'InsufficientPods']);
});

test('a budget that allows no disruption answers 429 with a DisruptionBudget cause and the pod stays', async () => {
  await runningPod('full-1', 'full');
  await budget('full-budget', 'full', 0);
  const res = await evict('full-1');
  assert.equal(res.status, 429, res.text);
  const status = res.json as Status;
  assert.equal(status.reason, 'TooManyRequests');
  assert.equal(status.message, "Cannot evict pod as it would violate the pod's disruption budget.");
  assert.deepEqual(status.details?.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget full-budget needs 1 healthy pods and has 1 currently' }]);
  assert.equal(await exists(`${pods}/full-1`), true);
});

test('a budget whose status is older than its spec answers 429 with Retry-After 10', async () => {
  await runningPod('stale-1', 'stale');
  await budget('stale-budget', 'stale', 5, false);
  const res = await evict('stale-1');
  assert.equal(res.status, 429, res.text);
  assert.equal(res.headers['retry-after'], '10');
  assert.equal((res.json as Status).details?.causes?.[0]?.message, 'The disruption budget stale-budget is still being processed by the server.');
  assert.equal(await exists(`${pods}/stale-1`), true);
});

test('a pod covered by two budgets gets upstream 201 carrying a Failure Status with code 500, and stays', async () => {
  await runningPod('two-1', 'two');
  await budget('two-a', 'two', 1);
  await budget('two-b', 'two', 1);
  const res = await evict('two-1');
  assert.equal(res.status, 201, res.text);
  const status = res.json as Status;
  assert.deepEqual([status.status, status.code, status.message], ['Failure', 500, 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.']);
  assert.equal(await exists(`${pods}/two-1`), true);
});

test('a pending pod is evicted without a budget check', async () => {
  const created = await s.client.call('POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending-1', labels: { app: 'pending' } }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } });
  assert.equal(created.status, 201, created.text);
  await budget('pending-budget', 'pending', 0);
  const res = await evict('pending-1');
  assert.equal(res.status, 201, res.text);
  assert.equal(await exists(`${pods}/pending-1`), false);
});

test('an unready pod goes without spending a disruption when its budget is met', async () => {
  await runningPod('unready-1', 'unready', false);
  await budget('unready-budget', 'unready', 1);
  const res = await evict('unready-1');
  assert.equal(res.status, 201, res.text);
  assert.equal(await exists(`${pods}/unready-1`), false);
  assert.equal(((await s.client.call('GET', `${pdbs}/unready-budget`)).json as Obj).status?.disruptionsAllowed, 1);
});

test('a pod without a budget is evicted; a dry run and a failed precondition leave it in place', async () => {
  await runningPod('free-1', 'free');
  const dry = await evict('free-1', eviction('free-1', { dryRun: ['All'] }));
  assert.equal(dry.status, 201, dry.text);
  const dryQuery = await evict('free-1', eviction('free-1'), '?dryRun=All');
  assert.equal(dryQuery.status, 201, dryQuery.text);
  assert.equal(await exists(`${pods}/free-1`), true);
  const badUid = await evict('free-1', eviction('free-1', { preconditions: { uid: 'someone-else' } }));
  assert.equal(badUid.status, 409, badUid.text);
  assert.equal(await exists(`${pods}/free-1`), true);
  const res = await evict('free-1', eviction('free-1', { gracePeriodSeconds: 0 }, 'policy/v1beta1'));
  assert.equal(res.status, 201, res.text);
  assert.equal(await exists(`${pods}/free-1`), false);
});

test('bad evictions are 4xx: missing pod 404, name mismatch, wrong kind or version, bad field types', async () => {
  const missing = await evict('ghost');
  assert.equal(missing.status, 404, missing.text);
  assert.equal((missing.json as Status).message, 'pods "ghost" not found');
  await runningPod('bad-1', 'bad');
  const mismatch = await evict('bad-1', eviction('other'));
  assert.equal(mismatch.status, 400, mismatch.text);
  assert.equal((mismatch.json as Status).message, 'name in URL does not match name in Eviction object');
  const wrongVersion = await evict('bad-1', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad-1' } });
  assert.equal(wrongVersion.status, 400, wrongVersion.text);
  assert.equal((wrongVersion.json as Status).message, 'the API version in the data (v1) does not match the expected API version (policy/v1)');
  const wrongKind = await evict('bad-1', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'bad-1' } });
  assert.equal(wrongKind.status, 400, wrongKind.text);
  const badGrace = await evict('bad-1', eviction('bad-1', { gracePeriodSeconds: 'soon' }));
  assert.ok(badGrace.status >= 400 && badGrace.status < 500, badGrace.text);
  const badPolicy = await evict('bad-1', eviction('bad-1', { propagationPolicy: 'Sometimes' }));
  assert.ok(badPolicy.status >= 400 && badPolicy.status < 500, badPolicy.text);
  const pending = await runningPod('bad-2', 'bad2');
  const refused = await evict('bad-2', eviction('bad-2', { propagationPolicy: 'Sometimes' }));
  assert.equal(refused.status, 400, refused.text);
  const after = (await s.client.call('GET', `${pods}/bad-2`)).json as Obj;
  assert.equal(after.metadata.resourceVersion, pending.metadata.resourceVersion, 'a refused eviction writes nothing (no DisruptionTarget condition)');
  const notJson = await s.client.call('POST', `${pods}/bad-1/eviction`, { body: '{"apiVersion":' });
  assert.equal(notJson.status, 400, notJson.text);
  const get = await s.client.call('GET', `${pods}/bad-1/eviction`);
  assert.equal(get.status, 405, get.text);
  assert.equal(await exists(`${pods}/bad-1`), true);
});
