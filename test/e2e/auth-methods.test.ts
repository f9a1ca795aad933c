// Authentication end to end on a real 3-process cluster started with the local cluster's own
// credentials plus the flags of every other method: kubectl with the generated kubeconfig (the
// admin's client certificate), token-file users, service-account tokens signed with the cluster's
// shared key, an OpenID Connect provider this test serves over HTTPS with its own CA (tokens signed
// with jose), an authenticating proxy with its own CA, anonymous requests, and the Debian Python
// client with the client certificate. Who a request is shows in RBAC's 403 message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenIssuer } from '../../internal/authn/index.ts';
import { parsePrivateKeyPem } from '../../internal/authn/jwt/pem-keys.ts';
import { issueCertificate } from '../../internal/certificates/index.ts';
import { startLocalCluster, type LocalCluster } from '../../internal/cluster/local-cluster.ts';
import { fastRaftArgs } from '../support/cluster-fixture.ts';
import { freePorts } from '../support/free-ports.ts';
import { kubectlPath, kubectlTarget } from '../support/kubectl-runner.ts';
import { makeCa, makeCertificate } from '../unit/authn/fixtures/test-pki.ts';
import { callReplica, type Answer } from '../support/auth-https.ts';
import { closeServer, idToken as signIdToken, startOidcProvider, type OidcProvider } from '../support/auth-providers.ts';
import { pythonClientMissing, pythonPath } from '../support/python-client.ts';

/** The user a 403 names (`User "x" cannot ...`), or the status when the answer is no 403. */
function forbiddenUser(answer: Answer): string {
  if (answer.status !== 403) return `status ${answer.status}: ${answer.body.slice(0, 200)}`;
  const match = /User "([^"]*)" cannot/.exec((JSON.parse(answer.body) as { message: string }).message);
  return match?.[1] ?? answer.body;
}

function idToken(provider: OidcProvider, claims: Record<string, unknown>, audience = 'orch'): Promise<string> {
  return signIdToken(provider, { claims, audience });
}

function kubectl(cluster: LocalCluster, context: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(kubectlPath, [...kubectlTarget(cluster.kubeconfigPath, context), ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

const pythonListNamespaces = `
import sys, kubernetes
kubernetes.config.load_kube_config(config_file=sys.argv[1], context=sys.argv[2])
print(",".join(sorted(n.metadata.name for n in kubernetes.client.CoreV1Api().list_namespace().items)))
`;

test('every authentication method through real replicas: client certificates, token file, service accounts, OIDC, proxy headers, anonymous, invalid credentials', { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-e2e-auth-'));
  const provider = await startOidcProvider();
  const started: { cluster?: LocalCluster } = {};
  t.after(async () => {
    await started.cluster?.stop();
    await closeServer(provider.server);
    rmSync(dir, { recursive: true, force: true });
  });
  // The admin token is made by the test, so that the test's token file (which replaces the
  // cluster's: a repeated flag's last value wins) still holds it beside alice's.
  const dataDir = join(dir, 'data');
  const adminToken = 'admin-token-0123456789-0123456789-abcdef';
  execFileSync('mkdir', ['-p', dataDir]);
  writeFileSync(join(dataDir, 'admin-token'), `${adminToken}\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'tokens.csv'), `${adminToken},orch-admin,orch-admin,"system:masters"\nalice-token-0123456789,alice,alice-uid\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'oidc-ca.crt'), provider.ca.pem);
  const proxyCa = await makeCa('test-front-proxy-ca');
  writeFileSync(join(dir, 'proxy-ca.crt'), proxyCa.pem);
  const proxy = await makeCertificate({ commonName: 'front-proxy-client', issuer: proxyCa });
  const strangerProxy = await makeCertificate({ commonName: 'not-the-proxy', issuer: proxyCa });
  const ports = await freePorts(6);
  const c = await startLocalCluster({
    dataDir, host: '127.0.0.1', apiPorts: ports.slice(0, 3), peerPorts: ports.slice(3), kubeconfigPath: join(dir, 'kubeconfig'),
    output: process.env.ORCH_TEST_LOGS ? 'prefixed' : 'ignore', readyTimeoutMs: 90_000,
    extraArgs: [
      ...fastRaftArgs,
      '--token-auth-file', join(dir, 'tokens.csv'),
      '--oidc-issuer-url', provider.issuer, '--oidc-client-id', 'orch', '--oidc-ca-file', join(dir, 'oidc-ca.crt'),
      '--oidc-username-prefix', 'oidc:', '--oidc-groups-claim', 'groups',
      '--requestheader-client-ca-file', join(dir, 'proxy-ca.crt'), '--requestheader-username-headers', 'X-Remote-User',
      '--requestheader-group-headers', 'X-Remote-Group', '--requestheader-allowed-names', 'front-proxy-client',
    ],
  });
  started.cluster = c;
  assert.equal(c.adminToken, adminToken);
  const pods = '/api/v1/namespaces/default/pods';

  await t.test('kubectl with the generated kubeconfig (client certificate CN orch-admin, O system:masters) works through every replica', async () => {
    const kubeconfig = readFileSync(c.kubeconfigPath, 'utf8');
    assert.match(kubeconfig, /client-certificate-data/);
    assert.doesNotMatch(kubeconfig, /token/);
    for (const replica of c.replicas) {
      const result = await kubectl(c, replica.spec.name, ['get', 'namespaces', '-o', 'name']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /namespace\/default/);
    }
    const created = await kubectl(c, 'orch-2', ['create', 'configmap', 'made-by-cert', '--from-literal=a=b']);
    assert.equal(created.code, 0, created.stderr);
  });

  await t.test('an invalid bearer token is a bare 401 on every path, health and /version included; no credential is anonymous', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version', '/api', '/apis', pods]) {
      const answer = await callReplica(c, 1, path, { token: 'not-a-token' });
      assert.equal(answer.status, 401, path);
      assert.deepEqual(JSON.parse(answer.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }, path);
    }
    assert.equal((await callReplica(c, 0, '/healthz')).status, 200);
    assert.equal((await callReplica(c, 2, '/version')).status, 200);
    assert.equal(forbiddenUser(await callReplica(c, 0, pods)), 'system:anonymous');
  });

  await t.test('token-file users: the admin token is orch-admin in system:masters, alice is herself with no rights', async () => {
    assert.equal((await callReplica(c, 0, pods, { token: adminToken })).status, 200);
    for (const replica of [0, 1, 2]) assert.equal(forbiddenUser(await callReplica(c, replica, pods, { token: 'alice-token-0123456789' })), 'alice');
  });

  await t.test('a certificate of another CA than --client-ca-file is a 401; one of the cluster CA is its CN', async () => {
    const otherCa = await makeCa('some-other-ca');
    const stranger = await makeCertificate({ commonName: 'mallory', organizations: ['system:masters'], issuer: otherCa });
    assert.equal((await callReplica(c, 0, pods, { cert: stranger.pem, key: stranger.keyPem })).status, 401);
    const ca = { cert: c.caPem, key: readFileSync(join(dataDir, 'pki', 'ca.key'), 'utf8') };
    const carol = await issueCertificate(ca, { commonName: 'carol', organizations: ['team-a'], usages: ['client'] });
    assert.equal(forbiddenUser(await callReplica(c, 1, pods, carol)), 'carol');
  });

  await t.test('proxy headers count only with the proxy\'s certificate (its CA and an allowed name); otherwise they are ignored', async () => {
    const asMaster = { 'x-remote-user': 'bob', 'x-remote-group': 'system:masters' };
    assert.equal(forbiddenUser(await callReplica(c, 0, pods, { headers: asMaster })), 'system:anonymous', 'no certificate');
    const ca = { cert: c.caPem, key: readFileSync(join(dataDir, 'pki', 'ca.key'), 'utf8') };
    const carol = await issueCertificate(ca, { commonName: 'carol', usages: ['client'] });
    assert.equal(forbiddenUser(await callReplica(c, 0, pods, { ...carol, headers: asMaster })), 'carol', 'a user\'s certificate');
    assert.equal((await callReplica(c, 1, pods, { cert: strangerProxy.pem, key: strangerProxy.keyPem, headers: asMaster })).status, 401, 'a name not allowed');
    assert.equal(forbiddenUser(await callReplica(c, 1, pods, { cert: proxy.pem, key: proxy.keyPem, headers: { 'x-remote-user': 'bob' } })), 'bob');
    assert.equal((await callReplica(c, 2, pods, { cert: proxy.pem, key: proxy.keyPem, headers: asMaster })).status, 200);
  });

  await t.test('OpenID Connect: an id_token of the provider served here authenticates through the replica flags; a wrong audience is a 401', async () => {
    const alice = await idToken(provider, { sub: 'alice' });
    assert.equal(forbiddenUser(await callReplica(c, 0, pods, { token: alice })), 'oidc:alice');
    assert.equal((await callReplica(c, 1, pods, { token: await idToken(provider, { sub: 'alice' }, 'someone-else') })).status, 401);
    const admin = await idToken(provider, { sub: 'root', groups: ['system:masters'] });
    const result = await kubectl(c, 'orch-3', ['--token', admin, 'get', 'configmap', 'made-by-cert', '-o', 'jsonpath={.data.a}']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'b');
  });

  await t.test('service-account tokens signed with the cluster\'s shared key work on every replica until the account is deleted', async () => {
    const created = await callReplica(c, 0, '/api/v1/namespaces/default/serviceaccounts', { token: adminToken, method: 'POST', body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } } });
    assert.equal(created.status, 201, created.body);
    const uid = (JSON.parse(created.body) as { metadata: { uid: string } }).metadata.uid;
    const issuer = new TokenIssuer({
      signingKey: parsePrivateKeyPem(readFileSync(c.serviceAccount.signingKeyFile, 'utf8'), 'sa.key'), issuer: c.serviceAccount.issuer,
      apiAudiences: [c.serviceAccount.issuer], extendExpiration: false, clock: Date.now,
    });
    const { token } = issuer.issueBoundToken({ namespace: 'default', serviceAccountName: 'robot', serviceAccountUid: uid });
    for (const replica of [0, 1]) assert.equal(forbiddenUser(await callReplica(c, replica, pods, { token })), 'system:serviceaccount:default:robot');
    assert.equal((await callReplica(c, 0, '/api/v1/namespaces/default/serviceaccounts/robot', { token: adminToken, method: 'DELETE' })).status, 200);
    // Replica 3 has not seen (nor cached) the token: the account's absence is a 401 at once.
    assert.equal((await callReplica(c, 2, pods, { token })).status, 401);
  });

  await t.test('the Debian Python client with the kubeconfig\'s client certificate', { skip: pythonClientMissing() ?? false }, async () => {
    for (const context of ['orch-1', 'orch-3']) {
      const stdout = execFileSync(pythonPath, ['-c', pythonListNamespaces, c.kubeconfigPath, context], { timeout: 60_000 }).toString();
      assert.match(stdout, /(^|,)default(,|$)/, context);
    }
  });
});
