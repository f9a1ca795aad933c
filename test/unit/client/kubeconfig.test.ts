import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeconfigError } from '../../../internal/client/errors.ts';
import { loadKubeconfig, parseKubeconfig, resolveContext, sameCaServers } from '../../../internal/client/kubeconfig.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

test('a kubeconfig resolves files relative to its own directory and inline data from base64', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-kubeconfig-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'pki'));
  writeFileSync(join(dir, 'pki', 'ca.crt'), 'CA-PEM');
  writeFileSync(join(dir, 'token'), 'file-token\n');
  writeFileSync(join(dir, 'pki', 'client.key'), 'KEY-PEM');
  writeFileSync(join(dir, 'config'), `
apiVersion: v1
kind: Config
clusters:
- name: r1
  cluster: { server: https://127.0.0.1:6443, certificate-authority: pki/ca.crt }
- name: r2
  cluster: { server: https://127.0.0.1:6444, certificate-authority: pki/ca.crt }
- name: other
  cluster: { server: https://10.0.0.1:6443, insecure-skip-tls-verify: true }
users:
- name: admin
  user: { token-file: token }
- name: cert-user
  user: { client-certificate-data: ${b64('CERT-PEM')}, client-key: pki/client.key }
contexts:
- name: r1
  context: { cluster: r1, user: admin, namespace: team-a }
- name: r2-cert
  context: { cluster: r2, user: cert-user }
current-context: r1
`);
  const config = loadKubeconfig(join(dir, 'config'));
  const current = resolveContext(config);
  assert.equal(current.name, 'r1');
  assert.equal(current.cluster.caPem, 'CA-PEM');
  assert.equal(current.user.token, 'file-token');
  assert.equal(current.namespace, 'team-a');
  assert.deepEqual(sameCaServers(config, current), ['https://127.0.0.1:6443', 'https://127.0.0.1:6444']);
  const cert = resolveContext(config, 'r2-cert');
  assert.equal(cert.user.clientCertPem, 'CERT-PEM');
  assert.equal(cert.user.clientKeyPem, 'KEY-PEM');
  assert.equal(cert.namespace, 'default');
  assert.equal(config.clusters.get('other')?.insecureSkipTlsVerify, true);
});

test('a kubeconfig with a missing context, cluster or key is refused with KubeconfigError', () => {
  const base = `clusters: [{ name: c, cluster: { server: "https://x" } }]\nusers: [{ name: u, user: { client-certificate-data: ${b64('x')} } }]\n`;
  assert.throws(() => resolveContext(parseKubeconfig(`${base}contexts: []`, '/')), KubeconfigError);
  assert.throws(() => resolveContext(parseKubeconfig(`clusters: []\ncontexts: [{ name: x, context: { cluster: nope } }]\ncurrent-context: x`, '/')), KubeconfigError);
  assert.throws(() => parseKubeconfig(`${base}`, '/'), /needs its key/);
  assert.throws(() => parseKubeconfig('clusters: [{ name: c, cluster: { certificate-authority: missing.crt, server: "https://x" } }]', '/nonexistent'), KubeconfigError);
});
