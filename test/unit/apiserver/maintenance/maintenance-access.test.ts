// Who may use the maintenance API, and the snapshot download: every path is authorized as a
// non-resource URL (verb = lowercased method), so a user without a grant gets 403 and changes
// nothing; the snapshot streams whole, and its temporary copy is released even when the client
// goes away mid-download.
import assert from 'node:assert/strict';
import { connect, constants } from 'node:http2';
import { after, before, test } from 'node:test';
import { Agent, request } from 'undici';
import { Registry } from 'prom-client';
import { Auditor } from '../../../../internal/audit/auditor.ts';
import { AuditMetrics } from '../../../../internal/audit/metrics.ts';
import { parsePolicy } from '../../../../internal/audit/policy-file.ts';
import type { AuditSink } from '../../../../internal/audit/sink.ts';
import { buildAuthenticator, defaultAuthenticationOptions, systemMasters } from '../../../../internal/authn/index.ts';
import { TestApiClient } from '../../../support/api-client.ts';
import { startTestServer, testToken, type TestServer } from '../harness.ts';
import { FakeBackend, fakeSnapshotByte } from './fake-backend.ts';

const userToken = 'maintenance-test-user-token-0123456789';
const rbac = '/apis/rbac.authorization.k8s.io/v1';
let server: TestServer;
let user: TestApiClient;
let raw: Agent;
const backend = new FakeBackend();
type AuditEvent = { auditID: string; stage: string; verb: string; requestURI: string; user: { username: string }; responseStatus?: { code: number }; annotations?: Record<string, string> };
const auditEvents: AuditEvent[] = [];
const auditSink: AuditSink = {
  processEvents(list) {
    for (const e of list) auditEvents.push(JSON.parse(e.json) as AuditEvent);
    return true;
  },
  shutdown: () => Promise.resolve(),
};
const auditPolicy = parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');

before(async () => {
  const authentication = await buildAuthenticator({
    ...defaultAuthenticationOptions(),
    staticTokens: [
      { token: testToken, user: { username: 'orch-admin', uid: '', groups: [systemMasters], extra: {} } },
      { token: userToken, user: { username: 'operator', uid: 'uid-operator', groups: [], extra: {} } },
    ],
  });
  server = await startTestServer({ authentication, maintenance: backend, audit: new Auditor(auditPolicy, auditSink, new AuditMetrics(new Registry())) });
  await server.server.authorizationReady;
  user = new TestApiClient(server.baseUrl, server.tls.cert, userToken);
  raw = new Agent({ connect: { ca: server.tls.cert } });
});

after(async () => {
  await raw.close();
  await user.close();
  await server.close();
});

/** Every maintenance call, with a body where it takes one. */
const everyCall: readonly (readonly [string, string, unknown?])[] = [
  ['GET', '/orch/v1/status'],
  ['GET', '/orch/v1/members'],
  ['POST', '/orch/v1/members', { name: 'orch-5', peerAddress: 'h5:6543' }],
  ['POST', '/orch/v1/members/orch-4/promote'],
  ['DELETE', '/orch/v1/members/orch-4'],
  ['POST', '/orch/v1/leader', { target: 'orch-2' }],
  ['GET', '/orch/v1/snapshot'],
];

test('a user without a grant gets 403 on every maintenance path, and nothing changes', async () => {
  for (const [method, path, body] of everyCall) {
    const res = await user.call(method, path, body === undefined ? {} : { body });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    const verb = method.toLowerCase();
    assert.equal((res.json as { message: string }).message, `forbidden: User "operator" cannot ${verb} path "${path}"`);
  }
  assert.deepEqual(backend.changes, []);
  assert.equal(backend.snapshot.released, 0);
});

test('the admin (system:masters) gets every answer', async () => {
  const codes: number[] = [];
  for (const [method, path, body] of everyCall) codes.push((await server.client.call(method, path, body === undefined ? {} : { body })).status);
  assert.deepEqual(codes, [200, 200, 201, 200, 200, 200, 200]);
});

test('maintenance calls are audited as other non-resource requests: the granted and the refused', async () => {
  backend.leader = backend.self; // the admin's calls above handed leadership to orch-2
  const granted = await server.client.call('POST', '/orch/v1/members', { body: { name: 'orch-7', peerAddress: 'h7:6543' } });
  assert.equal(granted.status, 201);
  const refused = await user.call('DELETE', '/orch/v1/members/orch-7');
  assert.equal(refused.status, 403);
  const complete = (res: { headers: Record<string, unknown> }) => auditEvents.find((e) => e.auditID === res.headers['audit-id'] && e.stage === 'ResponseComplete');
  await until(() => complete(granted) !== undefined && complete(refused) !== undefined);
  const grantedEvent = complete(granted);
  assert.equal(grantedEvent?.verb, 'post');
  assert.equal(grantedEvent?.requestURI, '/orch/v1/members');
  assert.equal(grantedEvent?.user.username, 'orch-admin');
  assert.equal(grantedEvent?.responseStatus?.code, 201);
  assert.equal(grantedEvent?.annotations?.['authorization.k8s.io/decision'], 'allow');
  const refusedEvent = complete(refused);
  assert.equal(refusedEvent?.verb, 'delete');
  assert.equal(refusedEvent?.user.username, 'operator');
  assert.equal(refusedEvent?.responseStatus?.code, 403);
  assert.equal(refusedEvent?.annotations?.['authorization.k8s.io/decision'], 'forbid');
});

test('a ClusterRole granting nonResourceURLs get on /orch/v1/status lets a user read it, and only that', async () => {
  const grant = async (path: string, body: unknown): Promise<void> => {
    const res = await server.client.call('POST', path, { body });
    assert.equal(res.status, 201, res.text);
  };
  await grant(`${rbac}/clusterroles`, { metadata: { name: 'orch-status-reader' }, rules: [{ nonResourceURLs: ['/orch/v1/status'], verbs: ['get'] }] });
  await grant(`${rbac}/clusterrolebindings`, {
    metadata: { name: 'operator-reads-status' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'orch-status-reader' }, subjects: [{ kind: 'User', name: 'operator' }],
  });
  // The RBAC index follows the store's watch.
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    status = (await user.call('GET', '/orch/v1/status')).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(status, 200);
  assert.equal((await user.call('GET', '/orch/v1/members')).status, 403);
  assert.equal((await user.call('POST', '/orch/v1/status')).status, 403);
});

test('GET snapshot streams the whole file with its length and releases the copy', async () => {
  backend.snapshot = { chunkBytes: 64 * 1024, chunks: 8, produced: 0, released: 0 };
  const res = await snapshotRequest();
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/octet-stream');
  assert.equal(res.headers['content-length'], String(8 * 64 * 1024));
  assert.equal(res.headers['content-disposition'], 'attachment; filename="orch-1-17.snapshot"');
  const bytes = Buffer.from(await res.body.arrayBuffer());
  assert.equal(bytes.length, 8 * 64 * 1024);
  for (const offset of [0, 1, 65_535, 65_536, 300_000, bytes.length - 1]) assert.equal(bytes[offset], fakeSnapshotByte(offset), `byte ${offset}`);
  await until(() => backend.snapshot.released === 1);
});

test('a client that goes away mid-download stops the stream and the copy is released (HTTP/1.1)', async () => {
  // Far more than the socket buffers hold: the server must wait for the client, and learn it left.
  backend.snapshot = { chunkBytes: 64 * 1024, chunks: 4096, produced: 0, released: 0 };
  const abort = new AbortController();
  const res = await snapshotRequest(abort.signal);
  assert.equal(res.statusCode, 200);
  for await (const chunk of res.body) {
    assert.ok((chunk as Buffer).length > 0);
    break;
  }
  abort.abort();
  await until(() => backend.snapshot.released === 1);
  assert.ok(backend.snapshot.produced < 4096, `the stream went on to chunk ${backend.snapshot.produced}`);
});

test('a client that cancels its HTTP/2 stream mid-download stops the stream and the copy is released', async () => {
  backend.snapshot = { chunkBytes: 64 * 1024, chunks: 4096, produced: 0, released: 0 };
  // node's own client: undici's HTTP/2 abort after a read leaves the stream open (no RST_STREAM).
  const session = connect(server.baseUrl, { ca: server.tls.cert });
  try {
    const stream = session.request({ ':path': '/orch/v1/snapshot', authorization: `Bearer ${testToken}` });
    const status = await new Promise<unknown>((resolve) => stream.once('response', (headers) => resolve(headers[':status'])));
    assert.equal(status, 200);
    await new Promise((resolve) => stream.once('data', resolve));
    stream.close(constants.NGHTTP2_CANCEL);
    await until(() => backend.snapshot.released === 1);
    assert.ok(backend.snapshot.produced < 4096, `the stream went on to chunk ${backend.snapshot.produced}`);
  } finally {
    session.close();
  }
});

/** GET /orch/v1/snapshot as the admin, the body left to read. */
function snapshotRequest(signal?: AbortSignal) {
  return request(`${server.baseUrl}/orch/v1/snapshot`, { dispatcher: raw, headers: { authorization: `Bearer ${testToken}` }, ...(signal === undefined ? {} : { signal }) });
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(done(), 'condition not met within 5 s');
}
