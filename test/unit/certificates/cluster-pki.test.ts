import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClusterPki, issueCertificate, verifyIssuedBy, createCertificateAuthority } from '../../../internal/certificates/index.ts';

test('ensureClusterPki creates a CA and peer certificates that the CA verifies, with loopback and name SANs', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pki = await ensureClusterPki(dir, ['orch-1', 'orch-2']);
  const ca = new X509Certificate(pki.ca.cert);
  assert.equal(ca.ca, true);
  for (const name of ['orch-1', 'orch-2']) {
    const pair = pki.replicas[name];
    assert.ok(pair);
    const cert = new X509Certificate(pair.cert);
    assert.ok(cert.checkIssued(ca));
    assert.ok(cert.verify(ca.publicKey));
    assert.ok(await verifyIssuedBy(pair.cert, pki.ca.cert));
    assert.equal(cert.checkHost(name), name);
    assert.equal(cert.checkHost('localhost'), 'localhost');
    assert.equal(cert.checkIP('127.0.0.1'), '127.0.0.1');
    assert.equal(cert.checkIP('::1'), '::1');
    assert.ok(cert.checkPrivateKey((await import('node:crypto')).createPrivateKey(pair.key)));
  }
});

test('ensureClusterPki reuses existing files on the second call and adds only missing replicas', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = await ensureClusterPki(dir, ['a']);
  const second = await ensureClusterPki(dir, ['a', 'b']);
  assert.equal(second.ca.cert, first.ca.cert);
  assert.equal(second.ca.key, first.ca.key);
  assert.equal(second.replicas.a?.cert, first.replicas.a?.cert);
  assert.ok(second.replicas.b);
  assert.ok(await verifyIssuedBy(second.replicas.b.cert, first.ca.cert));
});

test('a certificate from another CA does not verify against the cluster CA', async () => {
  const ca = await createCertificateAuthority('one');
  const other = await createCertificateAuthority('two');
  const leaf = await issueCertificate(other, { commonName: 'x', usages: ['client'], organizations: ['system:masters'] });
  assert.equal(await verifyIssuedBy(leaf.cert, ca.cert), false);
  assert.match(new X509Certificate(leaf.cert).subject, /O=system:masters/);
});
