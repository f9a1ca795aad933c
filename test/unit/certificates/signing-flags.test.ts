// The --cluster-signing-* flags: kube-controller-manager's names, defaults and refusals, and the
// CAs they load.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FlagError, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';
import { defaultSigningFlags, loadSigningAuthorities } from '../../../internal/replica/signing-flags.ts';
import { caDerivedFrom, makeCa } from './signing-fixture.ts';

const parse = (...args: string[]) => parseReplicaFlags(['--name', 'orch-1', ...args]).signing;
const refused = (args: string[], message: RegExp): void => {
  assert.throws(() => parse(...args), (err: unknown) => err instanceof FlagError && message.test(err.message));
};
const hourMs = 3_600_000;

test('by default the signing CA signs for every built-in signer but legacy-unknown, for a year', () => {
  const flags = parse();
  assert.deepEqual([...flags.signers], [
    ['kubernetes.io/kubelet-serving', 'signing-ca'],
    ['kubernetes.io/kube-apiserver-client-kubelet', 'signing-ca'],
    ['kubernetes.io/kube-apiserver-client', 'signing-ca'],
  ]);
  assert.equal(flags.durationMs, 8760 * hourMs);
  assert.deepEqual(defaultSigningFlags(), flags);
});

test('--cluster-signing-{cert,key}-file sign for all four signers; --cluster-signing-duration is honoured', () => {
  const flags = parse('--cluster-signing-cert-file', 'ca.crt', '--cluster-signing-key-file', 'ca.key', '--cluster-signing-duration', '720h0m0s');
  assert.equal(flags.signers.size, 4);
  assert.deepEqual(flags.signers.get('kubernetes.io/legacy-unknown'), { certFile: 'ca.crt', keyFile: 'ca.key' });
  assert.equal(flags.durationMs, 720 * hourMs);
});

test('per-signer files: only the signers given files sign', () => {
  const flags = parse('--cluster-signing-kubelet-serving-cert-file=s.crt', '--cluster-signing-kubelet-serving-key-file=s.key', '--cluster-signing-legacy-unknown-cert-file=l.crt', '--cluster-signing-legacy-unknown-key-file=l.key');
  assert.deepEqual([...flags.signers.keys()], ['kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown']);
  assert.deepEqual(flags.signers.get('kubernetes.io/legacy-unknown'), { certFile: 'l.crt', keyFile: 'l.key' });
});

test('kube\'s refusals: both kinds of files, a cert without its key or the reverse, a bad duration', () => {
  refused(['--cluster-signing-cert-file=a', '--cluster-signing-key-file=b', '--cluster-signing-kubelet-client-cert-file=c', '--cluster-signing-kubelet-client-key-file=d'], /cannot specify --cluster-signing-\{cert,key\}-file and other --cluster-signing-\*-file flags at the same time/);
  refused(['--cluster-signing-kube-apiserver-client-cert-file=c'], /--cluster-signing-kube-apiserver-client-cert-file, --cluster-signing-kube-apiserver-client-key-file: cannot specify key without cert or cert without key/);
  refused(['--cluster-signing-key-file=k'], /--cluster-signing-cert-file, --cluster-signing-key-file: cannot specify key without cert or cert without key/);
  refused(['--cluster-signing-duration=soon'], /--cluster-signing-duration: "soon" is not a duration/);
  refused(['--cluster-signing-duration=0s'], /--cluster-signing-duration: must be greater than 0/);
});

test('the CAs are loaded from their files, once per pair; a mismatched pair stops the start naming the signer', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-signing-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const rsa = await makeCa({ kind: 'rsa', keyFormat: 'pkcs1' });
  const ec = await makeCa({ kind: 'ecdsa', keyFormat: 'sec1' });
  await writeFile(join(dir, 'rsa.crt'), rsa.cert);
  await writeFile(join(dir, 'rsa.key'), rsa.key);
  await writeFile(join(dir, 'ec.key'), ec.key);
  const cluster = { ca: await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }), signingCa: await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }) };
  const single = parse('--cluster-signing-cert-file', join(dir, 'rsa.crt'), '--cluster-signing-key-file', join(dir, 'rsa.key'));
  const loaded = await loadSigningAuthorities(single, cluster);
  assert.equal(loaded.size, 4);
  assert.equal(new Set(loaded.values()).size, 1);
  assert.equal(loaded.get('kubernetes.io/kubelet-serving')?.certificatePem, rsa.cert);
  const byDefault = await loadSigningAuthorities(defaultSigningFlags(), cluster);
  assert.equal(byDefault.get('kubernetes.io/kube-apiserver-client')?.certificatePem, cluster.signingCa.cert);
  const mismatched = parse('--cluster-signing-kubelet-client-cert-file', join(dir, 'rsa.crt'), '--cluster-signing-kubelet-client-key-file', join(dir, 'ec.key'));
  await assert.rejects(loadSigningAuthorities(mismatched, cluster), /failed to start kubernetes.io\/kube-apiserver-client-kubelet certificate controller: .*rsa.crt and .*ec.key: the CA private key does not match/);
  const missing = parse('--cluster-signing-cert-file', join(dir, 'nope.crt'), '--cluster-signing-key-file', join(dir, 'rsa.key'));
  await assert.rejects(loadSigningAuthorities(missing, cluster), /failed to start kubernetes.io\/kubelet-serving certificate controller: .*ENOENT/);
});

test('the cluster CA, which signs the Raft peers\' certificates, is refused as a signing CA', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-signing-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const cluster = { ca: await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }), signingCa: await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }) };
  await writeFile(join(dir, 'ca.crt'), cluster.ca.cert);
  await writeFile(join(dir, 'ca.key'), cluster.ca.key);
  const flags = parse('--cluster-signing-kube-apiserver-client-cert-file', join(dir, 'ca.crt'), '--cluster-signing-kube-apiserver-client-key-file', join(dir, 'ca.key'));
  await assert.rejects(loadSigningAuthorities(flags, cluster), /failed to start kubernetes.io\/kube-apiserver-client certificate controller: .*ca.crt and .*ca.key: is the cluster CA, which signs the Raft peers' certificates/);
  // A renewed certificate over the cluster CA's key, or an intermediate the cluster CA issued, is the cluster CA too.
  for (const kind of ['renewal', 'intermediate'] as const) {
    const derived = await caDerivedFrom(cluster.ca, kind);
    await writeFile(join(dir, `${kind}.crt`), derived.cert);
    await writeFile(join(dir, `${kind}.key`), derived.key);
    const via = parse('--cluster-signing-cert-file', join(dir, `${kind}.crt`), '--cluster-signing-key-file', join(dir, `${kind}.key`));
    await assert.rejects(loadSigningAuthorities(via, cluster), /is the cluster CA, which signs the Raft peers' certificates/, kind);
  }
  const unrelated = await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' });
  await writeFile(join(dir, 'other.crt'), unrelated.cert);
  await writeFile(join(dir, 'other.key'), unrelated.key);
  assert.equal((await loadSigningAuthorities(parse('--cluster-signing-cert-file', join(dir, 'other.crt'), '--cluster-signing-key-file', join(dir, 'other.key')), cluster)).size, 4);
});
