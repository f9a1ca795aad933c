// API Priority and Fairness on a replica process: one user flooding it with slow LISTs is queued
// and refused (429, Retry-After) in its own level while a service account's reads and writes and
// the health checks go on; kubectl sees the levels in the debug dump, and a FlowSchema made with
// kubectl moves a user's requests to another level, as the response headers say.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Agent, request } from 'undici';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlOn, succeeded } from '../support/kubectl-runner.ts';
import { startListFlooder } from '../../bench/start-list-flooder.ts';

const adminToken = 'admin-token-0123456789-0123456789-abcdef';
const floodToken = 'flooder-token-0123456789-abcdef';
const calmToken = 'calm-token-0123456789-abcdef';
const configMaps = 2_000;
const floodConnections = 400;
const floodMs = 8_000;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The replica process's resident memory, in MiB (/proc/<pid>/status VmRSS). */
function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')) ?? '';
  return Number(/(\d+)/.exec(line)?.[1] ?? Number.NaN) / 1024;
}

test('a flooding user is queued and refused with 429 in its level while another user and the health checks keep working', { timeout: 240_000 }, async (t) => {
  const started: { fixture?: ClusterFixture } = {};
  const dir = mkdtempSync(join(tmpdir(), 'orch-apf-'));
  t.after(async () => {
    await started.fixture?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const tokens = join(dir, 'tokens.csv');
  // The cluster's own --token-auth-file (the admin's) is replaced by this one: the admin is listed too.
  writeFileSync(tokens, `${adminToken},orch-admin,orch-admin,"system:masters"\n${floodToken},flooder,flooder-uid\n${calmToken},system:serviceaccount:apps:calm,calm-uid,"system:serviceaccounts,system:serviceaccounts:apps"\n`, { mode: 0o600 });
  // A small server concurrency limit (12 seats): the flood's level (global-default) gets 1.
  const fixture = (started.fixture = await startClusterFixture({ replicas: 1, adminToken, extraArgs: ['--token-auth-file', tokens, '--max-requests-inflight', '8', '--max-mutating-requests-inflight', '4'] }));
  const [admin] = fixture.clients;
  assert.ok(admin);
  const replica = fixture.cluster.replicas[0];
  const pid = replica?.process?.pid;
  assert.ok(replica !== undefined && pid !== undefined);
  const ca = fixture.cluster.caPem;
  const tls = new Agent({ connect: { ca }, connections: floodConnections + 8, allowH2: false, bodyTimeout: 60_000, headersTimeout: 60_000 });
  t.after(() => tls.close());
  const call = async (token: string | null, method: string, path: string, body?: unknown) => {
    const res = await request(`${replica.apiUrl}${path}`, {
      method: method as 'GET', dispatcher: tls,
      headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  };

  for (const [name, user] of [['flooder-view', 'flooder'], ['calm-edit', 'system:serviceaccount:apps:calm']] as const) {
    const role = name === 'flooder-view' ? 'view' : 'edit';
    const res = await admin.call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }] } });
    assert.equal(res.status, 201, res.text);
  }
  for (const ns of ['flood', 'apps']) assert.equal((await admin.call('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < configMaps) {
      const i = next++;
      const res = await admin.call('POST', '/api/v1/namespaces/flood/configmaps', { body: { metadata: { name: `cm-${i}` }, data: { value: 'x'.repeat(200) } } });
      assert.equal(res.status, 201, res.text);
    }
  }));

  // The calm user: a read and a write in turn, as a controller would; every answer kept.
  const calmLoop = async (until: number, latencies: number[], statuses: number[], created: string[]) => {
    for (let i = 0; performance.now() < until; i++) {
      const t0 = performance.now();
      const read = await call(calmToken, 'GET', '/api/v1/namespaces/flood/configmaps/cm-1');
      latencies.push(performance.now() - t0);
      statuses.push(read.status);
      const name = `calm-${created.length}-${Math.round(t0)}`;
      const t1 = performance.now();
      const write = await call(calmToken, 'POST', '/api/v1/namespaces/apps/configmaps', { metadata: { name }, data: { i: String(i) } });
      latencies.push(performance.now() - t1);
      statuses.push(write.status);
      if (write.status === 201) created.push(name);
    }
  };
  const unloaded: number[] = [];
  const created: string[] = [];
  const unloadedStatuses: number[] = [];
  await calmLoop(performance.now() + 2_000, unloaded, unloadedStatuses, created);
  assert.ok(unloadedStatuses.every((s) => s === 200 || s === 201), `calm user unloaded: ${unloadedStatuses.filter((s) => s >= 300).join(',')}`);

  const rssBefore = rssMiB(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(pid))), 200);
  const until = performance.now() + floodMs;
  // The flood comes from a process of its own: its load must not slow this one's measurements.
  const flooder = startListFlooder({ urls: [`${replica.apiUrl}/api/v1/namespaces/flood/configmaps`], token: floodToken, caPem: ca, connections: floodConnections, ms: floodMs });
  t.after(() => {
    if (flooder.child.exitCode === null) flooder.child.kill('SIGKILL');
  });
  const flooded = flooder.counts;
  const loaded: number[] = [];
  const loadedStatuses: number[] = [];
  const health: number[] = [];
  const healthLoop = (async () => {
    while (performance.now() < until) {
      health.push((await call(null, 'GET', '/readyz')).status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  await Promise.all([calmLoop(until, loaded, loadedStatuses, created), healthLoop]);
  const flood = await flooded;
  clearInterval(sampler);

  const p99 = (v: readonly number[]) => percentile(v, 99).toFixed(1);
  t.diagnostic(`flood: ${flood.served} LISTs served, ${flood.refused} refused with 429, others ${JSON.stringify(flood.other)}`);
  t.diagnostic(`calm user: p99 ${p99(unloaded)} ms unloaded, ${p99(loaded)} ms under the flood (p50 ${percentile(unloaded, 50).toFixed(1)} / ${percentile(loaded, 50).toFixed(1)} ms), ${loaded.length} requests`);
  t.diagnostic(`replica RSS: ${rssBefore.toFixed(0)} MiB before the flood, peak ${rssPeak.toFixed(0)} MiB during it`);
  assert.ok(flood.refused > 0, 'the flooding user was refused some requests');
  assert.equal(flood.badRefusal, '', 'every 429 says Retry-After: 1 with kube\'s plain-text body');
  assert.deepEqual(flood.other, [], 'the flood got only 200s and 429s');
  assert.ok(loadedStatuses.length > 0 && loadedStatuses.every((s) => s === 200 || s === 201), `calm user under the flood: ${loadedStatuses.filter((s) => s >= 300).join(',')}`);
  assert.ok(health.length > 0 && health.every((s) => s === 200), `readyz under the flood: ${health.join(',')}`);
  // Nothing acknowledged is lost: every create the calm user was answered 201 for is there.
  const listed = await admin.call('GET', '/api/v1/namespaces/apps/configmaps');
  const names = new Set(((listed.json as { items: { metadata: { name: string } }[] }).items).map((i) => i.metadata.name));
  assert.deepEqual(created.filter((n) => !names.has(n)), []);

  const kubectl = kubectlOn(fixture);
  const dump = succeeded(await kubectl(0, ['get', '--raw', '/debug/api_priority_and_fairness/dump_priority_levels']), 'get --raw dump_priority_levels');
  for (const level of ['PriorityLevelName', 'exempt', 'global-default', 'workload-low', 'catch-all']) assert.match(dump, new RegExp(`^${level},`, 'm'), dump);
  // The dump is authorized as any non-resource path: a user with only the view role is refused.
  assert.equal((await call(floodToken, 'GET', '/debug/api_priority_and_fairness/dump_priority_levels')).status, 403);
  const metrics = (await admin.call('GET', '/metrics')).text;
  assert.match(metrics, /^apiserver_flowcontrol_rejected_requests_total\{flow_schema="global-default",priority_level="global-default",reason="(queue-full|time-out)"\} [1-9]/m);
  assert.match(metrics, /^apiserver_flowcontrol_dispatched_requests_total\{flow_schema="service-accounts",priority_level="workload-low"\} [1-9]/m);

  // A FlowSchema made with kubectl moves the flooder's requests to workload-high.
  const schema = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', metadata: { name: 'flooder-high' }, spec: { priorityLevelConfiguration: { name: 'workload-high' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'flooder' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }] } };
  succeeded(await kubectl(0, ['apply', '-f', '-'], JSON.stringify(schema)), 'apply the FlowSchema');
  const schemaUid = succeeded(await kubectl(0, ['get', 'flowschema', 'flooder-high', '-o', 'jsonpath={.metadata.uid}']), 'get the FlowSchema');
  const levelUid = succeeded(await kubectl(0, ['get', 'prioritylevelconfiguration', 'workload-high', '-o', 'jsonpath={.metadata.uid}']), 'get the level');
  let headers: Record<string, unknown> = {};
  for (let i = 0; i < 100; i++) {
    headers = (await call(floodToken, 'GET', '/api/v1/namespaces/flood/configmaps/cm-1')).headers;
    if (headers['x-kubernetes-pf-flowschema-uid'] === schemaUid) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(headers['x-kubernetes-pf-flowschema-uid'], schemaUid);
  assert.equal(headers['x-kubernetes-pf-prioritylevel-uid'], levelUid);
  // The leader writes the schema's Dangling condition: its level exists.
  let dangling = '';
  for (let i = 0; i < 100 && dangling !== 'False'; i++) {
    dangling = succeeded(await kubectl(0, ['get', 'flowschema', 'flooder-high', '-o', 'jsonpath={.status.conditions[?(@.type=="Dangling")].status}']), 'get the FlowSchema status');
    if (dangling !== 'False') await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(dangling, 'False');
});
