// Regressions found by a hostile review of the built-in kinds (schemas from the official OpenAPI,
// one Event store): each input here was a 500, stored something kube-apiserver never stores, or
// was refused where kube-apiserver takes it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Json = Record<string, unknown>;
type Status = { message: string; reason: string; details?: { causes?: { field?: string }[] } };
const pods = '/api/v1/namespaces/default/pods';
const pod = (name: string, spec: Json): Json => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'a', image: 'nginx' }], ...spec } });

test('a null item of a keyed list is what Go decodes it to (an empty struct): a 422 naming its missing key, never a 500', async () => {
  const cases: [Json, string][] = [
    [{ containers: [null] }, 'spec.containers[0].name'],
    [{ containers: [{ name: 'a', image: 'nginx', env: [null] }] }, 'spec.containers[0].env[0].name'],
    [{ containers: [{ name: 'a', image: 'nginx', ports: [null] }] }, 'spec.containers[0].ports[0].containerPort'],
  ];
  for (const [i, [spec, field]] of cases.entries()) {
    const name = `null-item-${i}`;
    for (const write of [
      () => s.client.call('POST', pods, { body: pod(name, spec) }),
      () => s.client.call('PATCH', `${pods}/base`, { body: { spec }, contentType: 'application/merge-patch+json' }),
    ]) {
      if ((await s.client.call('GET', `${pods}/base`)).status === 404) assert.equal((await s.client.call('POST', pods, { body: pod('base', {}) })).status, 201);
      const r = await write();
      assert.equal(r.status, 422, r.text);
      const status = r.json as Status;
      assert.equal(status.reason, 'Invalid');
      assert.ok(status.details?.causes?.some((c) => c.field === field), r.text);
    }
    assert.equal((await s.client.call('GET', `${pods}/${name}`)).status, 404);
  }
});

test('a null list item or map value is stored as Go\'s zero value, never as null', async () => {
  // An empty image pull secret is one kube-apiserver takes (an empty toleration it refuses: no key needs operator Exists).
  const created = await s.client.call('POST', pods, { body: { ...pod('zero-values', { imagePullSecrets: [null] }), metadata: { name: 'zero-values', labels: { a: null } } } });
  assert.equal(created.status, 201, created.text);
  const stored = (await s.client.call('GET', `${pods}/zero-values`)).json as { metadata: { labels: Json }; spec: { imagePullSecrets: unknown[] } };
  assert.deepEqual(stored.spec.imagePullSecrets, [{}]);
  assert.deepEqual(stored.metadata.labels, { a: '' });
});

test('an object the field manager cannot walk (a list-map item without its key) is written with managedFields cleared, as UpdateNoErrors does', async () => {
  // kube-apiserver 1.28 takes both (an empty image pull secret name is only a warning there).
  const created = await s.client.call('POST', pods, { body: pod('keyless', { imagePullSecrets: [{}] }) });
  assert.equal(created.status, 201, created.text);
  assert.equal((created.json as { metadata: Json }).metadata.managedFields, undefined);
  const sa = await s.client.call('POST', '/api/v1/namespaces/default/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'keyless' }, secrets: [{ kind: 'Secret' }] } });
  assert.equal(sa.status, 201, sa.text);
  const updated = await s.client.call('PATCH', `${pods}/keyless`, { body: { metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' });
  assert.equal(updated.status, 200, updated.text);
});

test('a ControllerRevision whose data nests 200 objects deep is stored (the field manager\'s depth limit is not a 500)', async () => {
  const data = `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`;
  const body = `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"deep"},"revision":1,"data":${data}}`;
  const r = await s.client.call('POST', '/apis/apps/v1/namespaces/default/controllerrevisions', { body });
  assert.equal(r.status, 201, r.text);
});

test('an int64 that a double cannot hold inside int64 is a 400, never stored as 9223372036854776000 (which no Go client decodes)', async () => {
  // 2^63 - 1 and -2^63 are int64s to Go; a double changes them, so orch refuses them (inexact-integers.ts).
  for (const value of ['9223372036854775807', '-9223372036854775808']) {
    const body = `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"max-deadline"},"spec":{"activeDeadlineSeconds":${value},"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"a","image":"nginx"}]}}}}`;
    const r = await s.client.call('POST', '/apis/batch/v1/namespaces/default/jobs', { body });
    assert.equal(r.status, 400, r.text);
    assert.match((r.json as Status).message, new RegExp(`^Job in version "v1" cannot be handled as a Job: the integer ${value} at spec\\.activeDeadlineSeconds cannot be represented exactly: .* would store it as -?9223372036854776000$`));
  }
  assert.equal((await s.client.call('GET', '/apis/batch/v1/namespaces/default/jobs/max-deadline')).status, 404);
  // The largest double below 2^63 is written as 9223372036854775000, inside int64, and kept as sent
  // in that form; sent as its exact digits (9223372036854774784) it would come back changed: refused.
  const body = (deadline: string): string => `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"big-deadline"},"spec":{"activeDeadlineSeconds":${deadline},"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"a","image":"nginx"}]}}}}`;
  assert.equal((await s.client.call('POST', '/apis/batch/v1/namespaces/default/jobs', { body: body('9223372036854774784') })).status, 400);
  const r = await s.client.call('POST', '/apis/batch/v1/namespaces/default/jobs', { body: body('9223372036854775000') });
  assert.equal(r.status, 201, r.text);
  assert.match(r.text, /"activeDeadlineSeconds":9223372036854775000[,}]/);
});

const corePath = '/api/v1/namespaces/default/events';
const eventsPath = '/apis/events.k8s.io/v1/namespaces/default/events';

test('an Event written through core/v1 can be labelled, applied and put back through events.k8s.io/v1 (the strict rules are for creation only)', async () => {
  const legacy = {
    apiVersion: 'v1', kind: 'Event', metadata: { name: 'legacy' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, reason: 'Pulled', message: 'pulled', type: 'Normal',
    source: { component: 'kubelet' }, count: 2, firstTimestamp: '2026-11-26T10:00:00Z', lastTimestamp: '2026-11-26T10:05:00Z',
  };
  assert.equal((await s.client.call('POST', corePath, { body: legacy })).status, 201);
  const labelled = await s.client.call('PATCH', `${eventsPath}/legacy`, { body: { metadata: { labels: { seen: 'yes' } } }, contentType: 'application/merge-patch+json' });
  assert.equal(labelled.status, 200, labelled.text);
  const applied = await s.client.call('PATCH', `${eventsPath}/legacy?fieldManager=tool`, { body: JSON.stringify({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'legacy', annotations: { a: 'b' } } }), contentType: 'application/apply-patch+yaml' });
  assert.equal(applied.status, 200, applied.text);
  const read = (await s.client.call('GET', `${eventsPath}/legacy`)).json;
  const put = await s.client.call('PUT', `${eventsPath}/legacy`, { body: read });
  assert.equal(put.status, 200, put.text);
});

test('an events.k8s.io/v1 update may not change what the Event reports (ValidateEventUpdate\'s immutable fields)', async () => {
  const created = await s.client.call('POST', eventsPath, {
    body: {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'structured' },
      eventTime: '2026-11-26T10:00:00.000000Z', reportingController: 'example.com/ctl', reportingInstance: 'ctl-1', action: 'Create', reason: 'Created', note: 'made it', type: 'Normal',
      regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
    },
  });
  assert.equal(created.status, 201, created.text);
  const r = await s.client.call('PATCH', `${eventsPath}/structured`, { body: { note: 'rewritten', regarding: { name: 'other' } }, contentType: 'application/merge-patch+json' });
  assert.equal(r.status, 422, r.text);
  const fields = ((r.json as Status).details?.causes ?? []).map((c) => c.field);
  assert.deepEqual(fields, ['involvedObject', 'message']);
  assert.equal(((await s.client.call('GET', `${eventsPath}/structured`)).json as Json).note, 'made it');
  const series = await s.client.call('PATCH', `${eventsPath}/structured`, { body: { series: { count: 2, lastObservedTime: '2026-11-26T10:01:00.000000Z' } }, contentType: 'application/merge-patch+json' });
  assert.equal(series.status, 200, series.text);
});

test('a time whose day its month does not have is a 400 in Go\'s words, never stored for Go and Python clients to fail on', async () => {
  const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
  const cases: [string, string][] = [
    ['2026-02-29T10:00:00.000000Z', 'day out of range'],
    ['2026-04-31T10:00:00Z', 'day out of range'],
    ['2026-01-01T10:00:00+25:00', 'time zone offset hour out of range'],
  ];
  for (const [time, problem] of cases) {
    const r = await s.client.call('POST', leases, { body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'bad-time' }, spec: { renewTime: time } } });
    assert.equal(r.status, 400, r.text);
    assert.equal((r.json as Status).message, `Lease in version "v1" cannot be handled as a Lease: parsing time ${JSON.stringify(time)}: ${problem}`);
  }
  assert.equal((await s.client.call('GET', `${leases}/bad-time`)).status, 404);
  const leap = await s.client.call('POST', leases, { body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'leap-day' }, spec: { renewTime: '2028-02-29T10:00:00.000000Z' } } });
  assert.equal(leap.status, 201, leap.text);
});

test('a Scale whose replicas an int32 cannot hold is a 400 decode error, never written to the workload', async () => {
  const template = { metadata: { labels: { app: 'scaled' } }, spec: { containers: [{ name: 'a', image: 'nginx' }] } };
  const workloads = [
    { path: '/apis/apps/v1/namespaces/default/deployments', body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'scaled' }, spec: { replicas: 1, selector: { matchLabels: { app: 'scaled' } }, template } } },
    { path: '/api/v1/namespaces/default/replicationcontrollers', body: { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'scaled' }, spec: { replicas: 1, selector: { app: 'scaled' }, template } } },
  ];
  for (const { path, body } of workloads) {
    assert.equal((await s.client.call('POST', path, { body })).status, 201);
    const writes = [
      () => s.client.call('PATCH', `${path}/scaled/scale`, { body: { spec: { replicas: 2147483648 } }, contentType: 'application/merge-patch+json' }),
      () => s.client.call('PATCH', `${path}/scaled/scale`, { body: '[{"op":"replace","path":"/spec/replicas","value":9223372036854775807}]', contentType: 'application/json-patch+json' }),
      () => s.client.call('PUT', `${path}/scaled/scale`, { body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'scaled' }, spec: { replicas: 99999999999 } } }),
    ];
    for (const write of writes) {
      const r = await write();
      assert.equal(r.status, 400, r.text);
      assert.match((r.json as Status).message, /^Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number \d+ into Go struct field ScaleSpec\.spec\.replicas of type int32$/);
    }
    const stored = (await s.client.call('GET', `${path}/scaled`)).json as { spec: { replicas: number } };
    assert.equal(stored.spec.replicas, 1);
  }
});
