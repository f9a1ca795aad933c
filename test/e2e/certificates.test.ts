// Certificates and bootstrap tokens end to end, on one real 3-process cluster, as a user meets
// them: `openssl req`, a CertificateSigningRequest created with kubectl, `kubectl certificate
// approve` refused without the approve right on the signer and allowed with it, the leader's signer
// issuing the certificate, and a kubeconfig holding it authenticating at once (`kubectl auth
// whoami`); bad requests refused with kube's codes and field paths, nothing stored; a bootstrap
// token authenticating until its expiry and removed by the token cleaner; and the join guide
// (docs/joining.md) run as written: cluster-info read anonymously and its JWS checked with the
// token, a node client certificate requested, auto-approved, signed and used.
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { eventually, failed, startAdmissionCluster, type AdmissionCluster } from '../support/admission-cluster.ts';
import { callReplica } from '../support/auth-https.ts';
import { kubectlPath, succeeded } from '../support/kubectl-runner.ts';

/** A fresh EC key and a PKCS#10 request for `subject` (openssl's -subj form), PEM. */
function opensslRequest(dir: string, name: string, subject: string): { key: string; csr: string } {
  const keyPath = join(dir, `${name}.key`);
  const csrPath = join(dir, `${name}.csr`);
  execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyPath, '-subj', subject, '-out', csrPath], { stdio: 'ignore' });
  return { key: readFileSync(keyPath, 'utf8'), csr: readFileSync(csrPath, 'utf8') };
}

function csrManifest(name: string, csr: string, signerName: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(csr).toString('base64'), signerName, usages: ['client auth'], ...extra },
  });
}

/** The fenced `bash` block of docs/joining.md whose first line starts with `# <tag>:`. */
function guideBlock(tag: string): string {
  const guide = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'joining.md'), 'utf8');
  const block = [...guide.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((b) => b.startsWith(`# ${tag}:`));
  assert.ok(block !== undefined, `docs/joining.md has a bash block starting "# ${tag}:"`);
  return block;
}

/** Runs `script` with bash in `cwd` with `env` (and a PATH holding kubectl); resolves with its exit code and output. */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('bash', ['-c', script], { cwd, env: { PATH: `${join(kubectlPath, '..')}:/usr/bin:/bin`, HOME: cwd, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
    child.stdin?.end();
  });
}

/** The CSR's issued certificate, once the signer has written it. */
async function issuedCertificate(c: AdmissionCluster, name: string): Promise<string> {
  let pem = '';
  await eventually(`certificate of CSR ${name}`, async () => {
    const out = await c.kubectl(1, ['get', 'csr', name, '-o', 'jsonpath={.status.certificate}']);
    pem = Buffer.from(out.stdout, 'base64').toString('utf8');
    return pem.includes('BEGIN CERTIFICATE');
  }, 30_000);
  return pem;
}

test('certificates and bootstrap tokens end to end: kubectl, openssl, the signer, the join guide', { timeout: 600_000 }, async (t) => {
  const c = await startAdmissionCluster();
  t.after(() => c.stop());
  const dir = mkdtempSync(join(tmpdir(), 'orch-e2e-certificates-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = c.fixture.cluster.kubeconfigPath;

  await t.test('openssl req, kubectl create, approve refused without the approve right and allowed with it, the certificate authenticates', async () => {
    // bob may update approvals but holds no approve right on any signer; carol also approves for kube-apiserver-client.
    succeeded(await c.apply(0, `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: csr-approval-writer}
rules:
- {apiGroups: [certificates.k8s.io], resources: [certificatesigningrequests], verbs: [get, list, watch]}
- {apiGroups: [certificates.k8s.io], resources: [certificatesigningrequests/approval], verbs: [update]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: csr-approval-writers}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: csr-approval-writer}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: bob}
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: carol}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: carol-approves-client-certificates}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: 'system:certificates.k8s.io:kube-apiserver-client-approver'}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: carol}
`), 'apply the approvers');
    const alice = opensslRequest(dir, 'alice', '/O=dev/CN=alice');
    succeeded(await c.kubectl(0, ['create', '-f', c.manifest('alice.json', csrManifest('alice', alice.csr, 'kubernetes.io/kube-apiserver-client', { expirationSeconds: 3600 }))]), 'create csr alice');
    const pending = succeeded(await c.kubectl(1, ['get', 'csr', 'alice']), 'get csr');
    assert.match(pending, /^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION$/m);
    assert.match(pending, /^alice\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+orch-admin\s+60m\s+Pending$/m);

    const refused = failed(await c.kubectl(2, ['--as=bob', 'certificate', 'approve', 'alice']), 'bob approves');
    assert.match(refused, /user not permitted to approve requests with signerName "kubernetes\.io\/kube-apiserver-client"/);
    assert.match(succeeded(await c.kubectl(0, ['get', 'csr', 'alice']), 'get csr'), /Pending$/m);

    assert.match(succeeded(await c.kubectl(2, ['--as=carol', 'certificate', 'approve', 'alice']), 'carol approves'), /approved/);
    const pem = await issuedCertificate(c, 'alice');
    const certificate = new x509.X509Certificate(pem);
    assert.match(certificate.subject, /CN=alice/);
    const lifetimeS = (certificate.notAfter.getTime() - Date.now()) / 1000;
    assert.ok(lifetimeS <= 3600 && lifetimeS > 3000, `lifetime follows expirationSeconds: ${lifetimeS} s left`);
    assert.match(succeeded(await c.kubectl(0, ['get', 'csr', 'alice']), 'get csr'), /Approved,Issued$/m);

    // A kubeconfig with alice's certificate: she is who the certificate says, on every replica.
    writeFileSync(join(dir, 'alice.crt'), pem);
    const aliceConfig = join(dir, 'alice.kubeconfig');
    writeFileSync(aliceConfig, readFileSync(kubeconfig));
    succeeded(await c.kubectl(0, ['--kubeconfig', aliceConfig, 'config', 'set-credentials', 'alice', `--client-certificate=${join(dir, 'alice.crt')}`, `--client-key=${join(dir, 'alice.key')}`, '--embed-certs=true']), 'set-credentials');
    for (const replica of [0, 1, 2]) {
      const whoami = JSON.parse(succeeded(await c.kubectl(replica, ['--kubeconfig', aliceConfig, '--user=alice', 'auth', 'whoami', '-o', 'json']), 'auth whoami')) as { status: { userInfo: { username: string; groups: string[] } } };
      assert.equal(whoami.status.userInfo.username, 'alice');
      assert.deepEqual(whoami.status.userInfo.groups, ['dev', 'system:authenticated']);
    }
  });

  await t.test('bad requests are refused with kube\'s code and field path, and nothing is stored', async () => {
    const good = opensslRequest(dir, 'good', '/CN=good').csr;
    const masters = opensslRequest(dir, 'masters', '/O=system:masters/CN=mallory').csr;
    const cases: { name: string; body: string; code: RegExp }[] = [
      { name: 'malformed', body: csrManifest('malformed', '-----BEGIN CERTIFICATE REQUEST-----\nbm90IGEgcmVxdWVzdA==\n-----END CERTIFICATE REQUEST-----\n', 'kubernetes.io/kube-apiserver-client'), code: /is invalid: spec\.request: Invalid value/ },
      { name: 'not-a-request', body: csrManifest('not-a-request', 'hello', 'kubernetes.io/kube-apiserver-client'), code: /spec\.request: Invalid value: .*PEM block type must be CERTIFICATE REQUEST/ },
      { name: 'unknown-usage', body: csrManifest('unknown-usage', good, 'kubernetes.io/kube-apiserver-client', { usages: ['client auth', 'ca'] }), code: /spec\.usages\[1\]: Unsupported value: "ca"/ },
      { name: 'duplicate-usage', body: csrManifest('duplicate-usage', good, 'kubernetes.io/kube-apiserver-client', { usages: ['client auth', 'client auth'] }), code: /spec\.usages\[1\]: Duplicate value: "client auth"/ },
      { name: 'short', body: csrManifest('short', good, 'kubernetes.io/kube-apiserver-client', { expirationSeconds: 599 }), code: /spec\.expirationSeconds: Invalid value: 599/ },
      { name: 'no-signer', body: csrManifest('no-signer', good, ''), code: /spec\.signerName: Required value/ },
      { name: 'legacy', body: csrManifest('legacy', good, 'kubernetes.io/legacy-unknown'), code: /spec\.signerName: Invalid value: "kubernetes\.io\/legacy-unknown"/ },
      { name: 'masters', body: csrManifest('masters', masters, 'kubernetes.io/kube-apiserver-client'), code: /forbidden: use of kubernetes\.io\/kube-apiserver-client signer with system:masters group is not allowed/ },
    ];
    for (const { name, body, code } of cases) {
      assert.match(failed(await c.kubectl(0, ['create', '-f', c.manifest(`${name}.json`, body)]), `create ${name}`), code, name);
      assert.match(failed(await c.kubectl(1, ['get', 'csr', name]), `get ${name}`), /NotFound|not found/, name);
    }
    // A CA usage is a known usage, so kube-apiserver stores the request; its signer refuses it once
    // approved: a Failed condition with kube's reason and message, and no certificate.
    succeeded(await c.kubectl(0, ['create', '-f', c.manifest('ca-usage.json', csrManifest('ca-usage', good, 'kubernetes.io/kube-apiserver-client', { usages: ['client auth', 'cert sign'] }))]), 'create ca-usage');
    succeeded(await c.kubectl(1, ['certificate', 'approve', 'ca-usage']), 'approve ca-usage');
    await eventually('the signer fails the CA usage', async () => /Approved,Failed$/m.test((await c.kubectl(2, ['get', 'csr', 'ca-usage'])).stdout));
    const failedCondition = succeeded(await c.kubectl(0, ['get', 'csr', 'ca-usage', '-o', 'jsonpath={.status.conditions[?(@.type=="Failed")].reason}: {.status.conditions[?(@.type=="Failed")].message}{.status.certificate}']), 'get ca-usage');
    assert.equal(failedCondition, 'SignerValidationFailure: invalid usage for client certificate: cert sign');

    // A duplicate condition through the status sub-resource of a stored request: 422, the stored object unchanged.
    succeeded(await c.kubectl(0, ['create', '-f', c.manifest('conditions.json', csrManifest('conditions', good, 'example.com/private'))]), 'create conditions');
    const condition = { type: 'Failed', status: 'True', reason: 'Test', message: 'twice' };
    const patch = JSON.stringify({ status: { conditions: [condition, condition] } });
    const duplicate = failed(await c.kubectl(0, ['patch', 'csr', 'conditions', '--subresource=status', '--type=merge', '-p', patch]), 'duplicate condition');
    assert.match(duplicate, /status\.conditions\[1\]\.type: Duplicate value: "Failed"/);
    assert.equal(succeeded(await c.kubectl(1, ['get', 'csr', 'conditions', '-o', 'jsonpath={.status.conditions}']), 'get conditions'), '');
  });

  const tokenId = 'e2eabc';
  const token = `${tokenId}.0123456789abcdef`;
  await t.test('a bootstrap token authenticates until it expires, then is refused and cleaned up', async () => {
    const expiration = new Date(Date.now() + 12_000).toISOString().replace(/\.\d+Z$/, 'Z');
    succeeded(await c.kubectl(0, ['-n', 'kube-system', 'create', 'secret', 'generic', `bootstrap-token-${tokenId}`, '--type=bootstrap.kubernetes.io/token',
      `--from-literal=token-id=${tokenId}`, '--from-literal=token-secret=0123456789abcdef', '--from-literal=usage-bootstrap-authentication=true',
      '--from-literal=usage-bootstrap-signing=true', `--from-literal=expiration=${expiration}`]), 'create token');
    const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
    // Another replica than the one that stored the Secret: its own copy answers, as kube's informer does.
    let whoami = { status: 0, body: '' };
    await eventually('the token authenticates on replica 1', async () => {
      whoami = await callReplica(c.fixture.cluster, 1, '/apis/authentication.k8s.io/v1/selfsubjectreviews', { method: 'POST', token, body: review });
      return whoami.status === 201;
    });
    const user = (JSON.parse(whoami.body) as { status: { userInfo: { username: string; groups: string[] } } }).status.userInfo;
    assert.equal(user.username, `system:bootstrap:${tokenId}`);
    assert.deepEqual(user.groups, ['system:bootstrappers', 'system:authenticated']);
    const wrong = await callReplica(c.fixture.cluster, 1, '/api/v1/namespaces', { token: `${tokenId}.fedcba9876543210` });
    assert.equal(wrong.status, 401);

    // The JWS the bootstrap signer wrote verifies with this token.
    let jws = '';
    await eventually('cluster-info signed for the token', async () => {
      const info = await callReplica(c.fixture.cluster, 2, '/api/v1/namespaces/kube-public/configmaps/cluster-info');
      jws = info.status === 200 ? (JSON.parse(info.body) as { data: Record<string, string> }).data[`jws-kubeconfig-${tokenId}`] ?? '' : '';
      return jws !== '';
    });
    assert.match(jws, /^[\w-]+\.\.[\w-]+$/);

    await eventually('the token is refused after its expiry', async () => (await callReplica(c.fixture.cluster, 0, '/api/v1/namespaces', { token })).status === 401, 30_000);
    await eventually('the token cleaner deleted the Secret', async () => (await c.kubectl(0, ['-n', 'kube-system', 'get', 'secret', `bootstrap-token-${tokenId}`])).code !== 0, 30_000);
    await eventually('the signature left cluster-info', async () => {
      const info = await callReplica(c.fixture.cluster, 0, '/api/v1/namespaces/kube-public/configmaps/cluster-info');
      return info.status === 200 && !(`jws-kubeconfig-${tokenId}` in (JSON.parse(info.body) as { data: Record<string, string> }).data);
    }, 30_000);
  });

  await t.test('the join guide, as written: a token, cluster-info checked, a node certificate requested, approved, signed, used', async () => {
    const admin = await bash(guideBlock('admin'), dir, { KUBECONFIG: kubeconfig });
    assert.equal(admin.code, 0, admin.stderr);
    const printed = /TOKEN=(\S+) CA_HASH=(\S+)/.exec(admin.stdout);
    assert.ok(printed?.[1] !== undefined && printed[2] !== undefined, admin.stdout);
    const [joinToken, caHash] = [printed[1], printed[2]];
    const server = c.fixture.cluster.replicas[1]?.apiUrl ?? '';
    const work = mkdtempSync(join(dir, 'join-'));
    // Until the bootstrap signer has signed for the new token, the guide stops saying so.
    let joined = { code: -1, stdout: '', stderr: '' };
    await eventually('the join guide succeeds', async () => {
      joined = await bash(guideBlock('join'), work, { SERVER: server, TOKEN: joinToken, NODE: 'worker-1', CA_HASH: caHash, KUBECONFIG: '/dev/null' });
      return joined.code === 0 || !/carries no signature/.test(joined.stderr);
    }, 30_000);
    assert.equal(joined.code, 0, joined.stderr);
    assert.match(joined.stdout, /Username\s+system:node:worker-1/);
    assert.match(joined.stdout, /Groups\s+\[system:nodes system:authenticated\]/);
    const csr = succeeded(await c.kubectl(0, ['get', 'csr', 'node-csr-worker-1', '-o', 'json']), 'get node csr');
    const conditions = (JSON.parse(csr) as { status: { conditions: { type: string; reason: string }[] } }).status.conditions;
    assert.deepEqual(conditions.map((x) => [x.type, x.reason]), [['Approved', 'AutoApproved']]);

    // The same guide with another token of the same id fails at the signature check.
    const forged = `${joinToken.split('.')[0] ?? ''}.ffffffffffffffff`;
    const other = await bash(guideBlock('join'), mkdtempSync(join(dir, 'forged-')), { SERVER: server, TOKEN: forged, NODE: 'worker-2', KUBECONFIG: '/dev/null' });
    assert.notEqual(other.code, 0);
    assert.match(other.stderr, /cluster-info is not signed with this token/);
  });
});
