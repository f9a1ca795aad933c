// The controllers' reads and writes in the audit log (a catch-all Metadata policy): each as its own
// service account, as kube-apiserver audits kube-controller-manager's requests. Creating a
// namespace shows the service-account controller and the root-CA publisher at work; deleting it,
// the namespace controller's deletes; the informers' lists and watches are kube-controller-manager's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { Auditor } from '../../../internal/audit/auditor.ts';
import { AuditMetrics } from '../../../internal/audit/metrics.ts';
import { parsePolicy } from '../../../internal/audit/policy-file.ts';
import type { AuditSink } from '../../../internal/audit/sink.ts';
import { createControllers } from '../../../internal/controllers/controllers.ts';
import { startTestServer, type TestServer } from '../../unit/apiserver/harness.ts';
import { eventually } from '../../unit/controllers/garbage-collector-fixture.ts';

type Event = { auditID: string; stage: string; verb: string; requestURI: string; userAgent: string; sourceIPs: string[]; user: { username: string }; objectRef?: Record<string, string>; responseStatus?: { code?: number }; annotations?: Record<string, string> };

const bundle = '-----BEGIN CERTIFICATE-----\nMIIBaudit\n-----END CERTIFICATE-----\n';
const events: Event[] = [];
const sink: AuditSink = {
  processEvents(list) {
    for (const e of list) events.push(JSON.parse(e.json) as Event);
    return true;
  },
  shutdown: () => Promise.resolve(),
};
const auditor = new Auditor(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n'), sink, new AuditMetrics(new Registry()));
let server: TestServer;
const abort = new AbortController();
let runs: Promise<void>[] = [];

before(async () => {
  server = await startTestServer({ audit: auditor });
  await server.server.authorizationReady;
  const controllers = createControllers(
    { registry: server.server.registry, stores: server.server.stores, authorizer: server.server.authorization.authorizer, audit: auditor, log: () => undefined },
    { rootCaBundle: bundle },
  );
  runs = controllers.map((c) => c.run(abort.signal));
});

after(async () => {
  abort.abort();
  await Promise.all(runs);
  await server.close();
});

const sa = (name: string): string => `system:serviceaccount:kube-system:${name}`;

function completed(match: (e: Event) => boolean): Event | undefined {
  return events.find((e) => e.stage === 'ResponseComplete' && match(e));
}

test('a namespace\'s default ServiceAccount and kube-root-ca.crt are audited as their controllers\' creates', { timeout: 30_000 }, async () => {
  assert.equal((await server.client.call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'audited' } } })).status, 201);
  const created = (resource: string, name: string) => (e: Event) => e.verb === 'create' && e.objectRef?.resource === resource && e.objectRef.namespace === 'audited' && e.objectRef.name === name;
  await eventually('the ServiceAccount create audited', () => Promise.resolve(completed(created('serviceaccounts', 'default')) !== undefined));
  await eventually('the ConfigMap create audited', () => Promise.resolve(completed(created('configmaps', 'kube-root-ca.crt')) !== undefined));
  const account = completed(created('serviceaccounts', 'default'));
  assert.equal(account?.user.username, sa('service-account-controller'));
  assert.equal(account?.requestURI, '/api/v1/namespaces/audited/serviceaccounts');
  assert.equal(account?.responseStatus?.code, 201);
  assert.deepEqual(account?.sourceIPs, ['127.0.0.1']);
  assert.match(account?.userAgent ?? '', /\/service-account-controller$/);
  assert.equal(account?.annotations?.['authorization.k8s.io/decision'], 'allow');
  assert.ok(events.some((e) => e.stage === 'RequestReceived' && e.auditID === account?.auditID), 'RequestReceived too');
  const configMap = completed(created('configmaps', 'kube-root-ca.crt'));
  assert.equal(configMap?.user.username, sa('root-ca-cert-publisher'));
  assert.equal(configMap?.responseStatus?.code, 201);
  // The informers' reads are kube-controller-manager's own.
  const list = completed((e) => e.verb === 'list' && e.objectRef?.resource === 'namespaces');
  assert.equal(list?.user.username, 'system:kube-controller-manager');
  assert.ok(events.some((e) => e.stage === 'ResponseStarted' && e.verb === 'watch' && e.user.username === 'system:kube-controller-manager'), 'watches start');
});

test('deleting a namespace: the namespace controller\'s deletes are audited', { timeout: 60_000 }, async () => {
  assert.equal((await server.client.call('POST', '/api/v1/namespaces/audited/configmaps', { body: { metadata: { name: 'content' } } })).status, 201);
  assert.equal((await server.client.call('DELETE', '/api/v1/namespaces/audited')).status, 200);
  await eventually('the namespace gone', async () => (await server.client.call('GET', '/api/v1/namespaces/audited')).status === 404, 30_000);
  const byController = events.filter((e) => e.stage === 'ResponseComplete' && e.user.username === sa('namespace-controller'));
  assert.ok(byController.some((e) => e.verb === 'deletecollection' && e.objectRef?.resource === 'configmaps' && e.objectRef.namespace === 'audited' && e.responseStatus?.code === 200), 'the content removed');
  assert.ok(byController.some((e) => e.objectRef?.resource === 'namespaces' && e.objectRef.name === 'audited' && e.verb === 'update' && e.objectRef.subresource === 'finalize' && e.requestURI === '/api/v1/namespaces/audited/finalize'), 'the namespace finalized');
});
