// kube-controller-manager's csrsigning: approved requests of the built-in signers it has a CA for
// are signed through /status, refused ones failed with SignerValidationFailure; the rest are left.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as x509 from '@peculiar/x509';
import { createCsrSigningController, signedRequest, signerValidationFailureReason, type CsrSigningOptions } from '../../../../internal/controllers/certificates/csr-signing-controller.ts';
import { csrConditions, issuedCertificatePem } from '../../../../internal/controllers/certificates/csr-objects.ts';
import { loadSigningAuthority } from '../../../../internal/certificates/signing/signing-authority.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { makeCa, makeRequest, nodeClientRequest } from '../../certificates/signing-fixture.ts';
import { eventually, settle } from '../garbage-collector-fixture.ts';
import { csrFixture } from './csr-fixture.ts';

const hourMs = 3_600_000;
const kubeletClient = 'kubernetes.io/kube-apiserver-client-kubelet';
const apiServerClient = 'kubernetes.io/kube-apiserver-client';
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];

async function options(durationMs = 8760 * hourMs): Promise<CsrSigningOptions & { caPem: string }> {
  const ca = await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' });
  const authority = await loadSigningAuthority(ca);
  return { authorities: new Map([[kubeletClient, authority], [apiServerClient, authority]]), durationMs, resyncIntervalMs: 100, caPem: ca.cert };
}

/** A request object as the store would hold it, for the pure function. */
async function csr(signerName: string, usages: readonly string[], conditions: readonly Record<string, unknown>[], requestPem?: string): Promise<KObject> {
  const pem = requestPem ?? (await nodeClientRequest('n1'));
  return { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'r' }, spec: { request: Buffer.from(pem).toString('base64'), signerName, usages }, status: { conditions } };
}
const approved = { type: 'Approved', status: 'True' };

test('an approved node client request is signed: the certificate verifies against the signer\'s CA', async (t) => {
  const signing = await options();
  const f = await csrFixture(t);
  await f.create({ name: 'node-csr', requestPem: await nodeClientRequest('n1'), signerName: kubeletClient, usages: clientUsages, expirationSeconds: 3600 });
  f.run(createCsrSigningController(f.deps, signing));
  await settle(300);
  assert.equal(issuedCertificatePem((await f.find('node-csr'))!), '', 'nothing is signed before approval');
  await f.decide('node-csr', 'Approved');
  await eventually('the certificate', async () => issuedCertificatePem((await f.find('node-csr'))!) !== '');
  const issued = new x509.X509Certificate(issuedCertificatePem((await f.find('node-csr'))!));
  assert.equal(await issued.verify({ publicKey: new x509.X509Certificate(signing.caPem).publicKey, signatureOnly: true }), true);
  assert.equal(issued.subject, 'O=system:nodes, CN=system:node:n1');
  // spec.expirationSeconds (1h) is below the signer's year; short-lived, so not backdated at the end.
  assert.ok(Math.abs(issued.notAfter.getTime() - issued.notBefore.getTime() - (hourMs + 5 * 60_000)) <= 1000);
  assert.deepEqual(f.logs, []);
});

test('a refused request gets the Failed condition kube writes, and is not signed', async (t) => {
  const signing = await options();
  const f = await csrFixture(t);
  await f.create({ name: 'bad-usage', requestPem: await makeRequest({ commonName: 'alice' }), signerName: apiServerClient, usages: ['client auth', 'server auth'] });
  await f.decide('bad-usage', 'Approved');
  f.run(createCsrSigningController(f.deps, signing));
  await eventually('the Failed condition', async () => csrConditions((await f.find('bad-usage'))!).some((c) => c.type === 'Failed'));
  const stored = (await f.find('bad-usage'))!;
  const failed = csrConditions(stored).find((c) => c.type === 'Failed');
  assert.equal(failed?.status, 'True');
  assert.equal(failed?.reason, signerValidationFailureReason);
  assert.equal(failed?.message, 'invalid usage for client certificate: server auth');
  assert.ok(typeof failed?.lastUpdateTime === 'string' && failed.lastUpdateTime !== '');
  assert.equal(issuedCertificatePem(stored), '');
});

test('pending, denied, failed or issued requests, other signers and signers without a CA are left alone', async () => {
  const signing = await options();
  assert.equal(await signedRequest(await csr(kubeletClient, clientUsages, []), signing), undefined);
  assert.equal(await signedRequest(await csr(kubeletClient, clientUsages, [approved, { type: 'Denied', status: 'True' }]), signing), undefined);
  assert.equal(await signedRequest(await csr(kubeletClient, clientUsages, [approved, { type: 'Failed', status: 'True' }]), signing), undefined);
  assert.equal(await signedRequest(await csr('example.com/signer', clientUsages, [approved]), signing), undefined);
  assert.equal(await signedRequest(await csr('kubernetes.io/kubelet-serving', ['digital signature', 'server auth'], [approved]), signing), undefined);
  assert.equal(await signedRequest(await csr('kubernetes.io/legacy-unknown', clientUsages, [approved]), signing), undefined);
  const issued = await csr(kubeletClient, clientUsages, [approved]);
  issued.status = { ...(issued.status ?? {}), certificate: Buffer.from('-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n').toString('base64') };
  assert.equal(await signedRequest(issued, signing), undefined);
  // A Failed condition with status False does not stop the signer (kube's HasTrueCondition).
  assert.notEqual(await signedRequest(await csr(kubeletClient, clientUsages, [approved, { type: 'Failed', status: 'False' }]), signing), undefined);
});

test('the signer\'s duration caps spec.expirationSeconds; legacy-unknown signs anything once given a CA', async () => {
  const signing = await options(2 * hourMs);
  const ca = (signing.authorities.get(kubeletClient))!;
  const legacy = { ...signing, authorities: new Map([['kubernetes.io/legacy-unknown', ca]]) };
  const now = new Date('2026-06-01T00:00:00Z');
  const request = await csr('kubernetes.io/legacy-unknown', ['cert sign', 'server auth'], [approved], await makeRequest({ commonName: 'anything', dnsNames: ['x.example'] }));
  (request.spec as Record<string, unknown>).expirationSeconds = 30 * 24 * 3600;
  const signed = await signedRequest(request, { ...legacy, now: () => now });
  const issued = new x509.X509Certificate(issuedCertificatePem(signed!));
  assert.equal(issued.notAfter.getTime(), now.getTime() + 2 * hourMs);
});

test('a request that cannot be read is retried, not failed', async () => {
  const signing = await options();
  const broken = await csr(kubeletClient, clientUsages, [approved], 'not a pem');
  await assert.rejects(signedRequest(broken, signing), /PEM block type must be CERTIFICATE REQUEST/);
});
