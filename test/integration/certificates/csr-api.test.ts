// CertificateSigningRequests through the real HTTP API of an in-process server with RBAC and the
// default admission plugins, as kube-apiserver 1.28 answers: a create fills the requestor from the
// user; /approval needs `approve` on the signer (CertificateApproval); bad requests are 422 with
// kube's field paths (403 for system:masters to the kube-apiserver client signer), nothing stored;
// kubectl's table; a Protobuf read and write.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, testToken, type TestServer } from '../../unit/apiserver/harness.ts';
import { ProtobufTestClient, goObjectMeta } from '../../support/protobuf-test-client.ts';

const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const rbac = '/apis/rbac.authorization.k8s.io/v1';
let server: TestServer;
let good: string;
let masters: string;

/** A PKCS#10 request made by openssl for `subject`, PEM. */
function opensslRequest(subject: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-csr-api-'));
  try {
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'k'), '-subj', subject, '-out', join(dir, 'r')], { stdio: 'ignore' });
    return readFileSync(join(dir, 'r'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A self-signed certificate made by openssl, PEM. */
function opensslCertificate(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-csr-api-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'k'), '-subj', '/CN=issued', '-days', '1', '-out', join(dir, 'c')], { stdio: 'ignore' });
    return readFileSync(join(dir, 'c'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function csr(name: string, pem: string, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec: { request: Buffer.from(pem).toString('base64'), signerName: 'example.com/signer', usages: ['client auth'], ...spec } };
}

function as(user: string, method: string, path: string, body?: unknown) {
  return server.client.call(method, path, { headers: { 'impersonate-user': user }, ...(body === undefined ? {} : { body }) });
}

async function admin(method: string, path: string, body: unknown): Promise<void> {
  const res = await server.client.call(method, path, { body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
}

async function grant(user: string, rules: unknown[]): Promise<void> {
  await admin('POST', `${rbac}/clusterroles`, { metadata: { name: user }, rules });
  await admin('POST', `${rbac}/clusterrolebindings`, { metadata: { name: user }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: user }, subjects: [{ kind: 'User', name: user }] });
}

const csrRights = { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['create', 'get', 'list', 'update'] };

before(async () => {
  server = await startTestServer();
  good = opensslRequest('/CN=carol/O=devs');
  masters = opensslRequest('/O=system:masters/CN=mallory');
  await grant('carol', [csrRights]);
  await grant('approver', [csrRights, { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve'] }]);
  // The RBAC index follows the store's watch: wait until both bindings are seen.
  for (let i = 0; i < 100; i++) {
    if ((await as('carol', 'GET', csrs)).status === 200 && (await as('approver', 'GET', csrs)).status === 200) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail('the bindings were never seen');
});

after(async () => {
  await server.close();
});

test('a create is 201 with the requestor taken from the user and an empty status', async () => {
  const res = await as('carol', 'POST', csrs, csr('carol-1', good, { username: 'someone-else', groups: ['system:masters'] }));
  assert.equal(res.status, 201, res.text);
  const body = res.json as { spec: Record<string, unknown>; status: unknown };
  assert.equal(body.spec.username, 'carol');
  assert.deepEqual(body.spec.groups, ['system:authenticated']);
  assert.deepEqual(body.status, {});
});

test('/approval: 200 for a user with approve on the signer, 403 without', async () => {
  assert.equal((await as('carol', 'POST', csrs, csr('to-approve', good))).status, 201);
  const current = (await as('carol', 'GET', `${csrs}/to-approve`)).json as Record<string, unknown>;
  const approval = { ...current, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } };
  const refused = await as('carol', 'PUT', `${csrs}/to-approve/approval`, approval);
  assert.equal(refused.status, 403, refused.text);
  assert.equal((refused.json as { message: string }).message, 'certificatesigningrequests.certificates.k8s.io "to-approve" is forbidden: user not permitted to approve requests with signerName "example.com/signer"');
  const allowed = await as('approver', 'PUT', `${csrs}/to-approve/approval`, approval);
  assert.equal(allowed.status, 200, allowed.text);
  const conditions = (allowed.json as { status: { conditions: Record<string, unknown>[] } }).status.conditions;
  assert.equal(conditions[0]?.type, 'Approved');
  assert.ok(typeof conditions[0]?.lastUpdateTime === 'string' && typeof conditions[0]?.lastTransitionTime === 'string');
});

test('/status: setting the certificate needs sign on the signer; the stored approval stays', async () => {
  const current = (await as('carol', 'GET', `${csrs}/to-approve`)).json as { status: { conditions: unknown[] } } & Record<string, unknown>;
  const certificate = Buffer.from(opensslCertificate()).toString('base64');
  const body = { ...current, status: { ...current.status, certificate } };
  const refused = await as('carol', 'PUT', `${csrs}/to-approve/status`, body);
  assert.equal(refused.status, 403, refused.text);
  assert.equal((refused.json as { message: string }).message, 'certificatesigningrequests.certificates.k8s.io "to-approve" is forbidden: user not permitted to sign requests with signerName "example.com/signer"');
  // Validation answers before validating admission: the admin's removal of the approval is a 422.
  const removed = await server.client.call('PUT', `${csrs}/to-approve/status`, { body: { ...current, status: { conditions: [], certificate } } });
  assert.equal(removed.status, 422, removed.text);
  assert.match((removed.json as { message: string }).message, /status\.conditions: Forbidden: updates may not remove a condition of type "Approved"/);
  const issued = await server.client.call('PUT', `${csrs}/to-approve/status`, { body });
  assert.equal(issued.status, 200, issued.text);
  assert.equal((issued.json as { status: { certificate: string } }).status.certificate, certificate);
  const table = await server.client.call('GET', `${csrs}/to-approve`, { headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
  assert.equal((table.json as { rows: { cells: unknown[] }[] }).rows[0]?.cells[5], 'Approved,Issued');
});

test('labels written through /status and /approval are kept, as kube\'s CSR strategies keep metadata; the spec is not changed', async () => {
  for (const sub of ['status', 'approval']) {
    const current = (await server.client.call('GET', `${csrs}/to-approve`)).json as { metadata: Record<string, unknown>; spec: Record<string, unknown> } & Record<string, unknown>;
    const body = { ...current, metadata: { ...current.metadata, labels: { via: sub } }, spec: { ...current.spec, signerName: 'example.com/other' } };
    const written = await server.client.call('PUT', `${csrs}/to-approve/${sub}`, { body });
    assert.equal(written.status, 200, written.text);
    const stored = (await server.client.call('GET', `${csrs}/to-approve`)).json as typeof current;
    assert.deepEqual(stored.metadata.labels, { via: sub });
    assert.equal(stored.spec.signerName, 'example.com/signer');
  }
});

test('bad requests are 422 with kube\'s field paths (403 for system:masters), nothing stored', async () => {
  const cases = [
    { name: 'malformed', body: csr('malformed', '-----BEGIN CERTIFICATE REQUEST-----\nbm90IGEgcmVxdWVzdA==\n-----END CERTIFICATE REQUEST-----\n'), code: 422, field: 'spec.request' },
    { name: 'unknown-usage', body: csr('unknown-usage', good, { usages: ['client auth', 'ca'] }), code: 422, field: 'spec.usages[1]' },
    { name: 'duplicate-usage', body: csr('duplicate-usage', good, { usages: ['client auth', 'client auth'] }), code: 422, field: 'spec.usages[1]' },
    { name: 'short', body: csr('short', good, { expirationSeconds: 599 }), code: 422, field: 'spec.expirationSeconds' },
    { name: 'masters', body: csr('masters', masters, { signerName: 'kubernetes.io/kube-apiserver-client' }), code: 403, field: undefined },
  ];
  for (const { name, body, code, field } of cases) {
    const res = await as('carol', 'POST', csrs, body);
    assert.equal(res.status, code, `${name}: ${res.text}`);
    const status = res.json as { message: string; details?: { causes?: { field: string }[] } };
    if (field !== undefined) assert.deepEqual(status.details?.causes?.map((c) => c.field), [field], name);
    else assert.equal(status.message, 'certificatesigningrequests.certificates.k8s.io "masters" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
    assert.equal((await as('carol', 'GET', `${csrs}/${name}`)).status, 404, name);
  }
});

test('a status write of a duplicate condition is 422 and changes nothing', async () => {
  assert.equal((await as('carol', 'POST', csrs, csr('conditions', good))).status, 201);
  const current = (await server.client.call('GET', `${csrs}/conditions`)).json as Record<string, unknown>;
  const condition = { type: 'Failed', status: 'True', reason: 'Test', message: 'twice' };
  const res = await server.client.call('PUT', `${csrs}/conditions/status`, { body: { ...current, status: { conditions: [condition, condition] } } });
  assert.equal(res.status, 422, res.text);
  assert.match((res.json as { message: string }).message, /status\.conditions\[1\]\.type: Duplicate value: "Failed"/);
  assert.deepEqual(((await server.client.call('GET', `${csrs}/conditions`)).json as { status: unknown }).status, {});
});

test('the table kubectl asks for has kube\'s columns; spec.signerName selects', async () => {
  await as('carol', 'POST', csrs, csr('timed', good, { expirationSeconds: 3600, signerName: 'example.com/timed' }));
  const res = await server.client.call('GET', `${csrs}?fieldSelector=spec.signerName%3Dexample.com%2Ftimed`, { headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
  assert.equal(res.status, 200, res.text);
  const table = res.json as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
  assert.deepEqual(table.columnDefinitions.map((c) => c.name), ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
  assert.equal(table.rows.length, 1);
  assert.deepEqual(table.rows[0]?.cells.filter((_, i) => i !== 1), ['timed', 'example.com/timed', 'carol', '60m', 'Pending']);
  const unsupported = await server.client.call('GET', `${csrs}?fieldSelector=metadata.namespace%3Dx`);
  assert.equal(unsupported.status, 400, unsupported.text);
});

test('Protobuf: a create and a read round-trip', async () => {
  const proto = new ProtobufTestClient(server.baseUrl, server.tls.cert, testToken);
  const message = {
    metadata: goObjectMeta({ name: 'proto' }),
    spec: { request: Buffer.from(good), signerName: 'example.com/signer', usages: ['client auth'], expirationSeconds: 7200 },
    status: {},
  };
  const created = await proto.call('POST', csrs, { object: { typeMeta: { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest' }, message } }, [201]);
  assert.equal(created.typeMeta.kind, 'CertificateSigningRequest');
  const read = await proto.call('GET', `${csrs}/proto`, {}, [200]);
  const spec = read.message.spec as { request: Uint8Array; username: string; expirationSeconds: number };
  assert.equal(Buffer.from(spec.request).toString('utf8'), good);
  assert.equal(spec.expirationSeconds, 7200);
  const json = (await server.client.call('GET', `${csrs}/proto`)).json as { spec: { request: string } };
  assert.equal(json.spec.request, Buffer.from(good).toString('base64'));
});
