import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClusterPki, issueCertificate, issuePeerCertificate, verifyIssuedBy, createCertificateAuthority, writePair } from '../../../internal/certificates/index.ts';
import { ensureCertificateAuthorities, loadIssuingCa, PkiFileError } from '../../../internal/certificates/cluster-pki.ts';

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

/** A host's pki directory: ca.crt without ca.key, and the files `copy` names from an operator's directory. */
async function hostPkiDir(t: { after: (fn: () => Promise<void>) => void }, copy: (operator: string, host: string) => Promise<void>): Promise<{ operator: string; host: string }> {
  const operator = await mkdtemp(join(tmpdir(), 'orch-pki-operator-'));
  const host = await mkdtemp(join(tmpdir(), 'orch-pki-host-'));
  t.after(() => Promise.all([operator, host].map((d) => rm(d, { recursive: true, force: true }))).then(() => undefined));
  await ensureCertificateAuthorities(operator);
  await copyFile(join(operator, 'ca.crt'), join(host, 'ca.crt'));
  await copy(operator, host);
  return { operator, host };
}

async function issueInto(operator: string, name: string): Promise<void> {
  await writePair(operator, `peer-${name}`, await issuePeerCertificate(await loadIssuingCa(operator), name, ['h4.example', '10.0.0.4']));
}

async function copyPair(from: string, to: string, base: string): Promise<void> {
  for (const ext of ['crt', 'key']) await copyFile(join(from, `${base}.${ext}`), join(to, `${base}.${ext}`));
}

test('a host with ca.crt but no ca.key loads its pre-issued peer certificate and the signing CA, and writes nothing', async (t) => {
  const { operator, host } = await hostPkiDir(t, async (operator, host) => {
    await issueInto(operator, 'orch-4');
    await copyPair(operator, host, 'peer-orch-4');
    await copyPair(operator, host, 'signing-ca');
  });
  const before = (await readdir(host)).sort();
  const pki = await ensureClusterPki(host, ['orch-4']);
  assert.deepEqual((await readdir(host)).sort(), before);
  assert.equal(pki.hasCaKey, false);
  assert.equal(pki.ca.cert, await readFile(join(operator, 'ca.crt'), 'utf8'));
  assert.equal(pki.replicas['orch-4']?.cert, await readFile(join(operator, 'peer-orch-4.crt'), 'utf8'));
  assert.equal(pki.signingCa.key, await readFile(join(operator, 'signing-ca.key'), 'utf8'));
  assert.throws(() => pki.ca.key, (err: Error) => err instanceof PkiFileError && /no ca\.key in .* to issue certificates with/.test(err.message));
});

test('a host with no certificate for its replica and no ca.key fails with the orchctl command that issues it, and keeps its ca.crt', async (t) => {
  const { operator, host } = await hostPkiDir(t, () => Promise.resolve());
  await assert.rejects(ensureClusterPki(host, ['orch-4']), (err: Error) => {
    assert.ok(err instanceof PkiFileError);
    assert.equal(err.message, `no certificate for replica orch-4 in ${host} and no ca.key to issue one: run orchctl certs replica orch-4 --hosts <its names and addresses> and copy peer-orch-4.crt/.key there`);
    return true;
  });
  assert.equal(await readFile(join(host, 'ca.crt'), 'utf8'), await readFile(join(operator, 'ca.crt'), 'utf8'));
  assert.deepEqual(await readdir(host), ['ca.crt']);
});

test('a host without the signing CA starts, but reading it names the files to copy or the --cluster-signing flags', async (t) => {
  const { host } = await hostPkiDir(t, async (operator, host) => {
    await issueInto(operator, 'orch-4');
    await copyPair(operator, host, 'peer-orch-4');
  });
  const pki = await ensureClusterPki(host, ['orch-4']);
  assert.throws(() => pki.signingCa.cert, /no signing-ca\.crt\/\.key in .*: run orchctl certs ca .* or give --cluster-signing-cert-file/);
  assert.equal(existsSync(join(host, 'signing-ca.crt')), false, 'a host never makes its own signing CA');
});

test('signing-ca.crt without its key is kept and reading the key says to copy it', async (t) => {
  const { host } = await hostPkiDir(t, async (operator, host) => {
    await issueInto(operator, 'orch-4');
    await copyPair(operator, host, 'peer-orch-4');
    await copyFile(join(operator, 'signing-ca.crt'), join(host, 'signing-ca.crt'));
  });
  const pki = await ensureClusterPki(host, ['orch-4']);
  assert.ok(pki.signingCa.cert.includes('BEGIN CERTIFICATE'));
  assert.throws(() => pki.signingCa.key, /signing-ca\.crt in .* without signing-ca\.key/);
});

test('ca.key without ca.crt, or a peer certificate without its key, is an error and nothing is made over them', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'ca.key'), 'old key');
  await assert.rejects(ensureClusterPki(dir, ['a']), /ca\.key in .* without ca\.crt: copy ca\.crt there too/);
  assert.deepEqual(await readdir(dir), ['ca.key']);
  await rm(join(dir, 'ca.key'));
  await ensureClusterPki(dir, []);
  await writeFile(join(dir, 'peer-a.crt'), 'a certificate');
  await assert.rejects(ensureClusterPki(dir, ['a']), /peer-a\.crt in .* without peer-a\.key/);
  assert.equal(await readFile(join(dir, 'peer-a.crt'), 'utf8'), 'a certificate');
});

test('a peer certificate from another CA, for another name, or a key of another pair is refused with what to do', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pki = await ensureClusterPki(dir, ['a', 'b']);
  await writePair(dir, 'peer-c', await issuePeerCertificate(await createCertificateAuthority('rogue'), 'c'));
  await assert.rejects(ensureClusterPki(dir, ['c']), /peer-c\.crt in .* is not signed by ca\.crt there: issue it from this cluster's CA \(orchctl certs replica c\)/);
  await writePair(dir, 'peer-c', pki.replicas.a!);
  await assert.rejects(ensureClusterPki(dir, ['c']), /peer-c\.crt in .* is for CN=a, not c/);
  await writePair(dir, 'peer-c', { cert: pki.replicas.a!.cert, key: pki.replicas.b!.key });
  await assert.rejects(ensureClusterPki(dir, ['c']), /peer-c\.key in .* is not the key of peer-c\.crt/);
});

test('ensureCertificateAuthorities makes both CAs once, and refuses a host copy without the CA key', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = await ensureCertificateAuthorities(dir);
  assert.deepEqual(first.made, ['ca', 'signing-ca']);
  const second = await ensureCertificateAuthorities(dir);
  assert.deepEqual(second.made, []);
  assert.equal(second.ca.key, first.ca.key);
  assert.equal(second.signingCa.cert, first.signingCa.cert);
  await rm(join(dir, 'ca.key'));
  await assert.rejects(ensureCertificateAuthorities(dir), /ca\.crt in .* without ca\.key: this is a host's copy/);
  assert.equal(existsSync(join(dir, 'ca.key')), false);
  assert.equal(await readFile(join(dir, 'ca.crt'), 'utf8'), first.ca.cert);
});

test('with the CA key here, a signing-ca.crt without its key is still never replaced by a new signing CA', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = await ensureClusterPki(dir, ['a']);
  await rm(join(dir, 'signing-ca.key'));
  const second = await ensureClusterPki(dir, ['a']);
  assert.equal(second.hasCaKey, true);
  assert.equal(second.signingCa.cert, first.signingCa.cert);
  assert.equal(await readFile(join(dir, 'signing-ca.crt'), 'utf8'), first.signingCa.cert);
  assert.throws(() => second.signingCa.key, /signing-ca\.crt in .* without signing-ca\.key/);
  assert.equal(existsSync(join(dir, 'signing-ca.key')), false);
});
