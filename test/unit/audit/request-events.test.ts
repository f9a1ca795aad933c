// The events of requests through a real API server: stages, user, verb, objectRef, responseStatus,
// bodies by level, annotations, Audit-Id; a failed authentication and a watch as kube writes them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request } from 'node:https';
import { Registry } from 'prom-client';
import { Auditor } from '../../../internal/audit/auditor.ts';
import { AuditMetrics } from '../../../internal/audit/metrics.ts';
import { parsePolicy } from '../../../internal/audit/policy-file.ts';
import type { AuditSink } from '../../../internal/audit/sink.ts';
import { startTestServer, testToken, type TestServer } from '../apiserver/harness.ts';

type Event = Record<string, unknown> & { auditID: string; stage: string; level: string; verb: string; requestURI: string; objectRef?: Record<string, string>; responseStatus?: Record<string, unknown>; annotations?: Record<string, string> };

const events: Event[] = [];
const registry = new Registry();
const sink: AuditSink = {
  processEvents(list) {
    for (const e of list) events.push(JSON.parse(e.json) as Event);
    return true;
  },
  shutdown: () => Promise.resolve(),
};
const policy = parsePolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*"]
- level: Metadata
  resources: [{group: "", resources: ["secrets"]}]
- level: Metadata
  namespaces: [meta]
- level: Request
  namespaces: [req]
  omitStages: [RequestReceived]
- level: RequestResponse
`);
let server: TestServer;

before(async () => {
  server = await startTestServer({ audit: new Auditor(policy, sink, new AuditMetrics(registry)) });
  for (const ns of ['meta', 'req', 'full']) await server.client.call('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
});
after(() => server.close());

function eventsOf(auditId: string): Event[] {
  return events.filter((e) => e.auditID === auditId);
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

test('RequestResponse: both stages, the caller, the object reference, both bodies; Audit-Id answered', async () => {
  const res = await server.client.call('POST', '/api/v1/namespaces/full/configmaps', { body: configMap('one'), headers: { 'user-agent': 'audit-test/1.0', 'x-forwarded-for': '10.0.0.1, bogus, 10.0.0.2' } });
  assert.equal(res.status, 201);
  const auditId = String(res.headers['audit-id']);
  const [received, complete, ...rest] = eventsOf(auditId);
  assert.equal(rest.length, 0);
  assert.equal(received?.stage, 'RequestReceived');
  assert.equal(received?.requestReceivedTimestamp, received?.stageTimestamp);
  assert.match(String(received?.stageTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.equal(received?.requestObject, undefined);
  assert.equal(complete?.stage, 'ResponseComplete');
  assert.deepEqual(Object.keys(complete ?? {}), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef', 'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations']);
  assert.equal(complete?.kind, 'Event');
  assert.equal(complete?.apiVersion, 'audit.k8s.io/v1');
  assert.equal(complete?.level, 'RequestResponse');
  assert.equal(complete?.verb, 'create');
  assert.equal(complete?.requestURI, '/api/v1/namespaces/full/configmaps');
  assert.deepEqual(complete?.user, { username: 'orch-admin', groups: ['system:masters', 'system:authenticated'] });
  assert.deepEqual(complete?.sourceIPs, ['10.0.0.1', '10.0.0.2', '127.0.0.1']);
  assert.equal(complete?.userAgent, 'audit-test/1.0');
  assert.deepEqual(complete?.objectRef, { resource: 'configmaps', namespace: 'full', name: 'one', apiVersion: 'v1' });
  assert.deepEqual(complete?.responseStatus, { metadata: {}, code: 201 });
  assert.deepEqual(complete?.requestObject, configMap('one'));
  assert.equal((complete?.responseObject as { metadata: { uid: string } }).metadata.uid, (res.json as { metadata: { uid: string } }).metadata.uid);
  assert.deepEqual(complete?.annotations, { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
});

test('a client\'s Audit-ID is kept and answered', async () => {
  const res = await server.client.call('GET', '/api/v1/namespaces/full/configmaps/one', { headers: { 'audit-id': 'my-own-id' } });
  assert.equal(res.headers['audit-id'], 'my-own-id');
  assert.deepEqual(eventsOf('my-own-id').map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
});

test('Metadata: no bodies; a failure\'s Status in responseStatus', async () => {
  const created = await server.client.call('POST', '/api/v1/namespaces/meta/configmaps', { body: configMap('m') });
  const complete = eventsOf(String(created.headers['audit-id'])).at(-1);
  assert.equal(complete?.level, 'Metadata');
  assert.equal(complete?.requestObject, undefined);
  assert.equal(complete?.responseObject, undefined);
  const missing = await server.client.call('GET', '/api/v1/namespaces/meta/configmaps/nothing');
  assert.equal(missing.status, 404);
  assert.deepEqual(eventsOf(String(missing.headers['audit-id'])).at(-1)?.responseStatus, {
    metadata: {}, status: 'Failure', message: 'configmaps "nothing" not found', reason: 'NotFound', details: { name: 'nothing', kind: 'configmaps' }, code: 404,
  });
});

test('Request with RequestReceived omitted: one event, the patch as requestObject, no response', async () => {
  await server.client.call('POST', '/api/v1/namespaces/req/configmaps', { body: configMap('p') });
  const patch = { data: { c: 'd' } };
  const res = await server.client.call('PATCH', '/api/v1/namespaces/req/configmaps/p', { body: patch, contentType: 'application/merge-patch+json' });
  assert.equal(res.status, 200);
  const [only, ...rest] = eventsOf(String(res.headers['audit-id']));
  assert.equal(rest.length, 0);
  assert.equal(only?.stage, 'ResponseComplete');
  assert.equal(only?.verb, 'patch');
  assert.deepEqual(only?.requestObject, patch);
  assert.equal(only?.responseObject, undefined);
});

test('a failed authentication: one ResponseStarted event with no user and the 401', async () => {
  const res = await server.client.call('GET', '/api/v1/namespaces', { headers: { authorization: 'Bearer not-a-token', 'audit-id': 'failed-authn' } });
  assert.equal(res.status, 401);
  const [only, ...rest] = eventsOf('failed-authn');
  assert.equal(rest.length, 0);
  assert.equal(only?.stage, 'ResponseStarted');
  assert.deepEqual(only?.user, {});
  assert.equal(only?.verb, 'list');
  assert.deepEqual(only?.responseStatus, { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
});

test('secrets at Metadata, health not at all, impersonation named beside the caller', async () => {
  await server.client.call('POST', '/api/v1/namespaces/full/secrets', { body: { metadata: { name: 's' }, stringData: { password: 'hunter2' } }, headers: { 'audit-id': 'secret-write' } });
  assert.ok(eventsOf('secret-write').length > 0 && eventsOf('secret-write').every((e) => e.level === 'Metadata' && !JSON.stringify(e).includes('hunter2')));
  await server.client.call('GET', '/healthz', { headers: { 'audit-id': 'health' } });
  assert.equal(eventsOf('health').length, 0);
  const as = await server.client.call('GET', '/api/v1/namespaces/full/configmaps', { headers: { 'audit-id': 'impersonating', 'impersonate-user': 'bob' } });
  assert.equal(as.status, 403);
  const complete = eventsOf('impersonating').at(-1);
  assert.equal((complete?.user as { username: string }).username, 'orch-admin');
  assert.deepEqual(complete?.impersonatedUser, { username: 'bob', groups: ['system:authenticated'] });
  assert.equal(complete?.annotations?.['authorization.k8s.io/decision'], 'forbid');
  assert.equal(JSON.stringify(events).includes(testToken), false);
});

test('a watch: RequestReceived, ResponseStarted as it starts, ResponseComplete as it ends', async () => {
  const url = `${server.baseUrl}/api/v1/namespaces/full/configmaps?watch=true&timeoutSeconds=1`;
  const auditId = await new Promise<string>((resolve, reject) => {
    const req = request(url, { ca: server.tls.cert, headers: { authorization: `Bearer ${testToken}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.headers['audit-id'])));
    });
    req.on('error', reject);
    req.end();
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const stages = eventsOf(auditId);
  assert.deepEqual(stages.map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  assert.equal(stages[1]?.verb, 'watch');
  assert.deepEqual(stages[2]?.responseStatus, { metadata: {}, code: 200 });
});

test('the audit counters', async () => {
  const text = await registry.metrics();
  assert.match(text, /^apiserver_audit_event_total \d+/m);
  assert.match(text, /^apiserver_audit_level_total\{level="None"\} \d+/m);
  assert.match(text, /^apiserver_audit_level_total\{level="RequestResponse"\} \d+/m);
});

test('a deprecated version: k8s.io/deprecated and k8s.io/removed-release on the event', async () => {
  const res = await server.client.call('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas', { headers: { 'audit-id': 'deprecated' } });
  if (res.status === 404) return; // Not served by this build's defaults.
  assert.equal(res.status, 200);
  const annotations = eventsOf('deprecated').at(-1)?.annotations;
  assert.equal(annotations?.['k8s.io/deprecated'], 'true');
  assert.equal(annotations?.['k8s.io/removed-release'], '1.29');
});

test('admission\'s annotations reach the event: PodSecurity\'s enforce-policy on a pod create', async () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
  const res = await server.client.call('POST', '/api/v1/namespaces/full/pods', { body: pod, headers: { 'audit-id': 'pod-create' } });
  assert.equal(res.status, 201, res.text);
  assert.equal(eventsOf('pod-create').at(-1)?.annotations?.['pod-security.kubernetes.io/enforce-policy'], 'privileged:latest');
});

test('the OpenAPI documents and /version are audited without a response object (kube writes them as raw bytes); discovery keeps one', async () => {
  for (const path of ['/openapi/v2', '/openapi/v3/api/v1', '/version']) {
    const res = await server.client.call('GET', path, { headers: { 'audit-id': `raw-${path}` } });
    assert.equal(res.status, 200, path);
    const complete = eventsOf(`raw-${path}`).find((e) => e.stage === 'ResponseComplete');
    assert.equal(complete?.level, 'RequestResponse', path);
    assert.deepEqual(complete?.responseStatus, { metadata: {}, code: 200 }, path);
    assert.equal(complete?.responseObject, undefined, path);
  }
  const discovery = await server.client.call('GET', '/api/v1', { headers: { 'audit-id': 'discovery-v1' } });
  assert.equal(discovery.status, 200);
  assert.notEqual(eventsOf('discovery-v1').find((e) => e.stage === 'ResponseComplete')?.responseObject, undefined);
});

test('a long-running sub-resource (pods/log, kube\'s long-running check) has a ResponseStarted stage', async () => {
  const res = await server.client.call('GET', '/api/v1/namespaces/full/pods/absent/log', { headers: { 'audit-id': 'pod-log' } });
  assert.equal(res.status, 404);
  assert.deepEqual(eventsOf('pod-log').map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
});
