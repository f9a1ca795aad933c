// Audit end to end, on one real 3-process cluster: every replica logs to its own file
// (--audit-log-path) and sends to one webhook receiver in batches (--audit-webhook-config-file,
// --audit-webhook-batch-max-wait=1s). Writes through each replica, with kubectl and raw calls, are
// each logged exactly once, by the replica that served them, with the caller, verb, object
// reference, code and the bodies their level says; the receiver gets the same events; a replica
// restarted with a changed policy file logs by the new policy while the others keep the old.
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlOn, succeeded } from '../support/kubectl-runner.ts';
import { eventually } from '../support/auth-https.ts';
import { startAuditWebhookServer } from '../support/audit-webhook-server.ts';

type AuditEvent = {
  auditID: string; stage: string; level: string; verb: string; requestURI: string;
  user: { username?: string }; objectRef?: Record<string, string>; responseStatus?: { code?: number };
  requestObject?: unknown; responseObject?: unknown; annotations?: Record<string, string>;
};

function policy(metaLevel: string): string {
  return [
    'apiVersion: audit.k8s.io/v1', 'kind: Policy', 'rules:',
    '- level: ' + metaLevel, '  namespaces: [audit-meta]', '  verbs: [create, update, patch, delete]',
    '- level: RequestResponse', '  namespaces: [audit-full]', '  verbs: [create, update, patch, delete]',
    '- level: Metadata', '  resources: [{group: flowcontrol.apiserver.k8s.io}]',
    '- level: None', '',
  ].join('\n');
}

/** A write and where it went. */
interface Write {
  readonly replica: number;
  readonly verb: string;
  readonly namespace: string;
  readonly name: string;
  readonly code: number;
  /** Known for raw calls (the Audit-Id answered). */
  readonly auditId?: string;
}

test('audit logs and webhook batches on a 3-replica cluster; a changed policy after a restart', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-e2e-audit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const receiver = await startAuditWebhookServer();
  t.after(() => receiver.close());
  const policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, policy('Metadata'));
  const webhookConfig = join(dir, 'audit-webhook.kubeconfig');
  receiver.writeKubeconfig(webhookConfig, 'audit-webhook-token');
  const logOf = (name: string): string => join(dir, `${name}-audit.log`);
  const fixture = await startClusterFixture({
    extraArgs: ['--audit-policy-file', policyFile, '--audit-webhook-config-file', webhookConfig, '--audit-webhook-batch-max-wait=1s', '--audit-log-maxbackup=2'],
    replicaArgs: (name) => ['--audit-log-path', logOf(name)],
  });
  t.after(() => fixture.close());
  const names = fixture.cluster.replicas.map((r) => r.spec.name);
  const kubectl = kubectlOn(fixture);
  const readLog = (name: string): AuditEvent[] => (existsSync(logOf(name)) ? readFileSync(logOf(name), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as AuditEvent) : []);
  const client = (i: number) => {
    const c = fixture.clients[i];
    assert.ok(c !== undefined);
    return c;
  };

  for (const ns of ['audit-meta', 'audit-full']) succeeded(await kubectl(0, ['create', 'namespace', ns]), `create namespace ${ns}`);
  const writes: Write[] = [];
  for (const i of [0, 1, 2]) {
    succeeded(await kubectl(i, ['create', 'configmap', `kubectl-${i}`, '-n', 'audit-full', '--from-literal=a=b']), 'create configmap');
    writes.push({ replica: i, verb: 'create', namespace: 'audit-full', name: `kubectl-${i}`, code: 201 });
    for (const namespace of ['audit-meta', 'audit-full']) {
      const base = `/api/v1/namespaces/${namespace}/configmaps`;
      const created = await client(i).call('POST', base, { body: { metadata: { name: `raw-${i}` }, data: { a: 'b' } } });
      assert.equal(created.status, 201, created.text);
      const patched = await client(i).call('PATCH', `${base}/raw-${i}`, { body: { data: { c: 'd' } }, contentType: 'application/merge-patch+json' });
      assert.equal(patched.status, 200, patched.text);
      const deleted = await client(i).call('DELETE', `${base}/raw-${i}`);
      assert.equal(deleted.status, 200, deleted.text);
      for (const [verb, res] of [['create', created], ['patch', patched], ['delete', deleted]] as const) {
        writes.push({ replica: i, verb, namespace, name: `raw-${i}`, code: res.status, auditId: String(res.headers['audit-id']) });
      }
    }
  }

  // Each write: exactly one RequestReceived and one ResponseComplete, in the log of the replica that served it.
  const checkWrites = (list: readonly Write[], levelOf: (w: Write) => string): void => {
    const logs = names.map(readLog);
    for (const w of list) {
      // A create's RequestReceived has no name yet (it comes from the body): kubectl's writes are found by their ResponseComplete.
      const ids = new Set(w.auditId !== undefined ? [w.auditId] : logs.flat().filter((e) => e.stage === 'ResponseComplete' && e.verb === w.verb && e.objectRef?.namespace === w.namespace && e.objectRef.name === w.name).map((e) => e.auditID));
      const matches = (e: AuditEvent): boolean => ids.has(e.auditID);
      const found = logs.map((events) => events.filter(matches));
      const what = `${w.verb} ${w.namespace}/${w.name} through ${names[w.replica]}`;
      assert.deepEqual(found.map((events) => events.length), names.map((_, r) => (r === w.replica ? 2 : 0)), what);
      const [received, complete] = found[w.replica] ?? [];
      assert.equal(received?.stage, 'RequestReceived', what);
      assert.equal(complete?.stage, 'ResponseComplete', what);
      assert.equal(complete?.auditID, received?.auditID, what);
      assert.equal(complete?.user.username, 'orch-admin', what);
      assert.equal(complete?.verb, w.verb, what);
      assert.deepEqual(complete?.objectRef, { resource: 'configmaps', namespace: w.namespace, name: w.name, apiVersion: 'v1' }, what);
      assert.equal(complete?.responseStatus?.code, w.code, what);
      assert.equal(complete?.annotations?.['authorization.k8s.io/decision'], 'allow', what);
      const level = levelOf(w);
      assert.equal(complete?.level, level, what);
      assert.equal(complete?.requestObject !== undefined, level !== 'Metadata' && w.verb !== 'delete', `${what}: requestObject at ${level}`);
      assert.equal(complete?.responseObject !== undefined, level === 'RequestResponse', `${what}: responseObject at ${level}`);
    }
  };
  const firstLevel = (w: Write): string => (w.namespace === 'audit-meta' ? 'Metadata' : 'RequestResponse');
  checkWrites(writes, firstLevel);
  const full = names.flatMap(readLog).find((e) => e.verb === 'create' && e.objectRef?.name === 'raw-0' && e.objectRef.namespace === 'audit-full' && e.stage === 'ResponseComplete');
  assert.deepEqual(full?.requestObject, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw-0' }, data: { a: 'b' } });
  assert.equal((full?.responseObject as { metadata?: { namespace?: string } } | undefined)?.metadata?.namespace, 'audit-full');
  // A controller's write: the root-CA publisher's create of kube-root-ca.crt, as its service account, in the leader's log only.
  const rootCa = (events: readonly AuditEvent[]) => events.filter((e) => e.stage === 'ResponseComplete' && e.verb === 'create' && e.objectRef?.namespace === 'audit-meta' && e.objectRef.name === 'kube-root-ca.crt');
  await eventually('the kube-root-ca.crt create logged', async () => names.some((n) => rootCa(readLog(n)).length > 0), 10_000);
  const rootCaEvents = names.map((n) => rootCa(readLog(n)));
  assert.equal(rootCaEvents.flat().length, 1, 'logged once, by the leader');
  assert.equal(rootCaEvents.flat()[0]?.user.username, 'system:serviceaccount:kube-system:root-ca-cert-publisher');
  assert.equal(rootCaEvents.flat()[0]?.responseStatus?.code, 201);

  // A deprecated version: kubectl shows the Warning, the event carries kube's two annotations.
  const deprecated = await kubectl(1, ['get', 'flowschemas.v1beta2.flowcontrol.apiserver.k8s.io', 'exempt']);
  succeeded(deprecated, 'get a v1beta2 FlowSchema');
  assert.match(deprecated.stderr, /Warning: flowcontrol\.apiserver\.k8s\.io\/v1beta2 FlowSchema is deprecated in v1\.26\+, unavailable in v1\.29\+; use flowcontrol\.apiserver\.k8s\.io\/v1beta3 FlowSchema/);
  const deprecatedEvent = readLog(names[1] ?? '').find((e) => e.stage === 'ResponseComplete' && e.objectRef?.apiVersion === 'v1beta2' && e.objectRef.name === 'exempt');
  assert.equal(deprecatedEvent?.annotations?.['k8s.io/deprecated'], 'true');
  assert.equal(deprecatedEvent?.annotations?.['k8s.io/removed-release'], '1.29');

  // The webhook receiver gets the same events as the logs, in EventList batches.
  const keys = (events: readonly AuditEvent[]): string[] => events.map((e) => `${e.auditID}/${e.stage}`).sort();
  const logged = keys(names.flatMap(readLog));
  await eventually('the webhook has every logged event', async () => {
    const got = new Set(keys(receiver.batches.flatMap((b) => b.items as unknown as AuditEvent[])));
    return logged.every((k) => got.has(k));
  }, 10_000);
  assert.deepEqual(keys(receiver.batches.flatMap((b) => b.items as unknown as AuditEvent[])), logged);
  assert.ok(receiver.batches.every((b) => b.kind === 'EventList' && b.apiVersion === 'audit.k8s.io/v1' && b.authorization === 'Bearer audit-webhook-token'));
  assert.ok(receiver.batches.some((b) => b.items.length > 1), 'events of one second travel together');

  // orch-1 restarted with audit-meta at RequestResponse; orch-2 keeps the policy it started with.
  writeFileSync(policyFile, policy('RequestResponse'));
  fixture.cluster.signal(names[0] ?? '', 'SIGTERM');
  await eventually(`${names[0]} stopped`, async () => fixture.cluster.replicas[0]?.process === null, 20_000);
  fixture.cluster.restart(names[0] ?? '');
  await fixture.cluster.waitReady([names[0] ?? '']);
  const after: Write[] = [];
  for (const i of [0, 1]) {
    const res = await client(i).call('POST', '/api/v1/namespaces/audit-meta/configmaps', { body: { metadata: { name: `after-${i}` }, data: { a: 'b' } } });
    assert.equal(res.status, 201, res.text);
    after.push({ replica: i, verb: 'create', namespace: 'audit-meta', name: `after-${i}`, code: 201, auditId: String(res.headers['audit-id']) });
  }
  checkWrites(after, (w) => (w.replica === 0 ? 'RequestResponse' : 'Metadata'));
  // What orch-1 logged before its restart is still there, once.
  checkWrites(writes.filter((w) => w.replica === 0), firstLevel);
});
