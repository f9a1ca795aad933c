// Regressions found by a hostile review: two checks ran a backtracking regular expression whose
// time is quadratic in the text, so one request of a long malformed quantity or CronJob schedule
// held the event loop (the whole server) for minutes: 200,000 digits then "x" as a CPU request took
// about 45 s, as an `@every` duration about 3 min. Both answer at once now, as kube-apiserver does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const digits = '1'.repeat(200_000);
// The bounds are not performance measures: the quadratic patterns took minutes on these inputs; they leave room for a loaded CI machine.
const refusedWithinMs = 30_000;

test('a long malformed quantity is refused at once', async () => {
  const started = Date.now();
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'slow-quantity' }, spec: { containers: [{ name: 'a', image: 'nginx', resources: { requests: { cpu: `${digits}x`, memory: `${digits}.1.` } } }] } };
  const r = await s.client.call('POST', '/api/v1/namespaces/default/pods', { body: pod });
  assert.equal(r.status, 400, r.text);
  assert.match((r.json as { message: string }).message, /cannot be handled as a Pod: quantities must match the regular expression/);
  assert.ok(Date.now() - started < refusedWithinMs, `took ${Date.now() - started} ms`);
});

test('a long malformed @every schedule is refused at once', async () => {
  const started = Date.now();
  const cronJob = {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'slow-schedule' },
    spec: { schedule: `@every ${digits}x`, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'nginx' }] } } } } },
  };
  const r = await s.client.call('POST', '/apis/batch/v1/namespaces/default/cronjobs', { body: cronJob });
  assert.equal(r.status, 422, r.text);
  assert.ok(Date.now() - started < refusedWithinMs, `took ${Date.now() - started} ms`);
});
