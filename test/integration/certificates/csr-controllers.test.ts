// The certificate controllers of the replica against an API server with RBAC and only the
// bootstrap policy, each acting as kube-system:certificate-controller: a bootstrapping node's
// client certificate request is auto-approved and signed; a request a signer refuses is failed; a
// requester without the nodeclient permission stays pending.
import 'reflect-metadata';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as x509 from '@peculiar/x509';
import type { Controller } from '../../../internal/controllers/controller.ts';
import { createControllers } from '../../../internal/controllers/controllers.ts';
import { parseControllerSelection } from '../../../internal/controllers/controller-selection.ts';
import { loadSigningAuthorities, parseSigningFlags } from '../../../internal/replica/signing-flags.ts';
import { parseDurationMs } from '../../../internal/replica/parse-flags.ts';
import { startTestServer, type TestServer } from '../../unit/apiserver/harness.ts';
import { eventually, settle } from '../../unit/controllers/garbage-collector-fixture.ts';
import { makeCa, makeRequest, nodeClientRequest } from '../../unit/certificates/signing-fixture.ts';

type Json = Record<string, unknown>;
const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const kubeletClient = 'kubernetes.io/kube-apiserver-client-kubelet';
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
let server: TestServer;
let caPem = '';
const logs: string[] = [];
const abort = new AbortController();
let runs: Promise<void>[] = [];

const as = (user: string, group: string): Record<string, string> => ({ 'Impersonate-User': user, 'Impersonate-Group': group });

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  const answer = await server.client.call(method, path, { ...(body === undefined ? {} : { body }), headers });
  return { status: answer.status, json: answer.json as Json };
}

async function created(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const answer = await call('POST', path, body, headers);
  assert.ok(answer.status === 201, `${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json;
}

const csrBody = (name: string, requestPem: string, signerName: string, usages: readonly string[]): Json => ({
  apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: Buffer.from(requestPem).toString('base64'), signerName, usages },
});
const status = async (name: string): Promise<{ conditions?: Json[]; certificate?: string }> => ((await call('GET', `${csrs}/${name}`)).json.status ?? {}) as { conditions?: Json[]; certificate?: string };

const binding = (name: string, role: string, group: string): Json => ({
  metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: group }],
});

before(async () => {
  server = await startTestServer();
  await server.server.authorizationReady;
  // A separate signing CA, as --cluster-signing-{cert,key}-file would give (RSA, PKCS#1 key).
  const ca = await makeCa({ kind: 'rsa', keyFormat: 'pkcs1' });
  caPem = ca.cert;
  const flags = parseSigningFlags({ 'cluster-signing-duration': '720h' }, parseDurationMs, (message) => new Error(message));
  const controllers: Controller[] = createControllers(
    { registry: server.server.registry, stores: server.server.stores, authorizer: server.server.authorization.authorizer, log: (message, err) => logs.push(`${message} ${err instanceof Error ? err.message : ''}`) },
    { csrSigning: { authorities: await loadSigningAuthorities(flags, { ca: await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }), signingCa: ca }), durationMs: flags.durationMs }, selection: parseControllerSelection('csrsigning,csrapproving,csrcleaner') },
  );
  assert.deepEqual(controllers.map((c) => c.name).filter((n) => n.startsWith('csr')), ['csrapproving', 'csrcleaner', 'csrsigning']);
  runs = controllers.map((c) => c.run(abort.signal));
  // kubeadm's bindings: bootstrappers may create requests and have their node client requests approved.
  await created('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding('bootstrappers-create', 'system:node-bootstrapper', 'system:bootstrappers'));
  await created('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding('bootstrappers-approve', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'system:bootstrappers'));
  await created('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding('strangers-create', 'system:node-bootstrapper', 'strangers'));
});

after(async () => {
  abort.abort();
  await Promise.all(runs);
  await server.close();
});

test('a bootstrapping node\'s client certificate request is auto-approved and signed', { timeout: 30_000 }, async () => {
  await created(csrs, csrBody('node-n1', await nodeClientRequest('n1'), kubeletClient, clientUsages), as('system:bootstrap:abcdef', 'system:bootstrappers'));
  await eventually('the certificate', async () => typeof (await status('node-n1')).certificate === 'string', 20_000);
  const done = await status('node-n1');
  const approved = done.conditions?.find((c) => c.type === 'Approved');
  assert.equal(approved?.reason, 'AutoApproved');
  assert.equal(approved?.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');
  const issued = new x509.X509Certificate(Buffer.from(done.certificate ?? '', 'base64').toString('utf8'));
  assert.equal(await issued.verify({ publicKey: new x509.X509Certificate(caPem).publicKey, signatureOnly: true }), true);
  assert.equal(issued.subject, 'O=system:nodes, CN=system:node:n1');
  // --cluster-signing-duration=720h, backdated 5 minutes.
  assert.equal(issued.notAfter.getTime() - issued.notBefore.getTime(), 720 * 3_600_000);
});

test('an approved request the signer refuses gets Failed / SignerValidationFailure', { timeout: 30_000 }, async () => {
  await created(csrs, csrBody('bad-client', await makeRequest({ commonName: 'alice' }), 'kubernetes.io/kube-apiserver-client', ['client auth', 'server auth']));
  const current = (await call('GET', `${csrs}/bad-client`)).json;
  const approval = await call('PUT', `${csrs}/bad-client/approval`, { ...current, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Admin', message: 'ok' }] } });
  assert.equal(approval.status, 200, JSON.stringify(approval.json));
  await eventually('the Failed condition', async () => (await status('bad-client')).conditions?.some((c) => c.type === 'Failed') === true, 20_000);
  const failed = (await status('bad-client')).conditions?.find((c) => c.type === 'Failed');
  assert.equal(failed?.reason, 'SignerValidationFailure');
  assert.equal(failed?.message, 'invalid usage for client certificate: server auth');
  assert.equal((await status('bad-client')).certificate, undefined);
});

test('a requester without the nodeclient permission stays pending, and nothing was refused to the controllers', { timeout: 30_000 }, async () => {
  await created(csrs, csrBody('stranger', await nodeClientRequest('n9'), kubeletClient, clientUsages), as('eve', 'strangers'));
  await settle(1500);
  assert.deepEqual((await status('stranger')).conditions ?? [], []);
  assert.deepEqual(logs.filter((l) => /forbidden|cannot/i.test(l)), []);
});
