// The CSR signing authority, as kube-controller-manager's authority package and signer: CAs of
// either key kind and any PEM key format, the permissive policy's certificate, its validity window.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as x509 from '@peculiar/x509';
import { parseCertificateRequest } from '../../../internal/certificates/certificate-request.ts';
import { certificateUsages } from '../../../internal/certificates/signing/key-usages.ts';
import { signingBackdateMs } from '../../../internal/certificates/signing/limits.ts';
import { signCertificateRequest, SigningError, validityWindow } from '../../../internal/certificates/signing/sign-request.ts';
import { loadSigningAuthority, SigningAuthorityError } from '../../../internal/certificates/signing/signing-authority.ts';
import { makeCa, makeRequest, nodeClientRequest } from './signing-fixture.ts';

const hourMs = 3_600_000;
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];

for (const [kind, keyFormat] of [['rsa', 'pkcs1'], ['ecdsa', 'sec1'], ['ecdsa', 'pkcs8'], ['rsa', 'pkcs8']] as const) {
  test(`a ${kind} CA with a ${keyFormat} key signs a certificate that verifies against it`, async () => {
    const ca = await makeCa({ kind, keyFormat });
    const authority = await loadSigningAuthority(ca);
    const request = parseCertificateRequest(await makeRequest({ commonName: 'alice', organizations: ['dev', 'ops'], dnsNames: ['a.example'], ipAddresses: ['10.0.0.1'] }));
    const issued = new x509.X509Certificate(await signCertificateRequest(authority, request, { usages: clientUsages, durationMs: 24 * hourMs }));
    const caCert = new x509.X509Certificate(ca.cert);
    assert.equal(await issued.verify({ publicKey: caCert.publicKey, signatureOnly: true }), true);
    assert.equal(issued.issuer, caCert.subject);
    assert.deepEqual(issued.subjectName.getField('CN'), ['alice']);
    assert.deepEqual(issued.subjectName.getField('O'), ['dev', 'ops']);
    assert.deepEqual(Buffer.from(issued.publicKey.rawData), Buffer.from(request.publicKey.rawData));
    const names = issued.getExtension(x509.SubjectAlternativeNameExtension)?.names.items.map((n) => `${n.type}:${n.value}`);
    assert.deepEqual(names, ['dns:a.example', 'ip:10.0.0.1']);
    const basic = issued.getExtension(x509.BasicConstraintsExtension);
    assert.equal(basic?.ca, false);
    assert.equal(basic?.critical, true);
    assert.equal(issued.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId, caCert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId);
  });
}

test('spec.usages become the key usage bits and the extended key usages, in Go\'s order', async () => {
  assert.deepEqual(certificateUsages(['client auth', 'server auth', 'signing', 'key encipherment', 'any']), {
    keyUsage: x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
    extendedKeyUsages: ['2.5.29.37.0', '1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2'],
  });
  assert.deepEqual(certificateUsages(['email protection', 's/mime']).extendedKeyUsages, ['1.3.6.1.5.5.7.3.4']);
  const authority = await loadSigningAuthority(await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }));
  const request = parseCertificateRequest(await nodeClientRequest('n1'));
  const issued = new x509.X509Certificate(await signCertificateRequest(authority, request, { usages: ['digital signature', 'server auth', 'client auth'], durationMs: hourMs }));
  const keyUsage = issued.getExtension(x509.KeyUsagesExtension);
  assert.equal(keyUsage?.usages, x509.KeyUsageFlags.digitalSignature);
  assert.equal(keyUsage?.critical, true);
  assert.deepEqual([...(issued.getExtension(x509.ExtendedKeyUsageExtension)?.usages ?? [])], [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]);
  await assert.rejects(signCertificateRequest(authority, request, { usages: ['client auth', 'flying'], durationMs: hourMs }), (err: unknown) => {
    assert.ok(err instanceof SigningError);
    assert.equal(err.message, 'unrecognized usage values: ["flying"]');
    return true;
  });
});

test('the request\'s own extensions are dropped: only kube\'s are written', async () => {
  const authority = await loadSigningAuthority(await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }));
  const askingForCa = [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)];
  const request = parseCertificateRequest(await makeRequest({ commonName: 'c', dnsNames: ['x.example'], extensions: askingForCa }));
  const issued = new x509.X509Certificate(await signCertificateRequest(authority, request, { usages: ['client auth'], durationMs: hourMs }));
  assert.deepEqual([...issued.extensions].map((e) => e.type), ['2.5.29.37', '2.5.29.19', '2.5.29.35', '2.5.29.17']);
  assert.equal(issued.getExtension(x509.BasicConstraintsExtension)?.ca, false);
});

test('the validity is backdated 5 minutes; a short-lived one (< 8h) still ends duration after now', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const caNotAfter = new Date(now + 1000 * 24 * hourMs);
  const long = validityWindow(now, 24 * hourMs, caNotAfter);
  assert.equal(long.notBefore.getTime(), now - signingBackdateMs);
  assert.equal(long.notAfter.getTime(), now - signingBackdateMs + 24 * hourMs);
  const short = validityWindow(now, hourMs, caNotAfter);
  assert.equal(short.notBefore.getTime(), now - signingBackdateMs);
  assert.equal(short.notAfter.getTime(), now + hourMs);
});

test('a certificate never outlives its CA, and an expired CA signs nothing', async () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const caNotAfter = new Date(now + 48 * hourMs);
  assert.equal(validityWindow(now, 8760 * hourMs, caNotAfter).notAfter.getTime(), caNotAfter.getTime());
  assert.throws(() => validityWindow(now, hourMs, new Date(now - signingBackdateMs)), /the signer has expired: NotAfter=/);
  assert.throws(() => validityWindow(now, hourMs, new Date(now - 1000)), /refusing to sign a certificate that expired in the past/);
  const ca = await makeCa({ kind: 'ecdsa', keyFormat: 'sec1', validityMs: 2 * 24 * hourMs });
  const authority = await loadSigningAuthority(ca);
  const issued = new x509.X509Certificate(await signCertificateRequest(authority, parseCertificateRequest(await nodeClientRequest('n1')), { usages: clientUsages, durationMs: 8760 * hourMs }));
  assert.equal(issued.notAfter.getTime(), new x509.X509Certificate(ca.cert).notAfter.getTime());
});

test('a request whose signature does not verify is not signed', async () => {
  const authority = await loadSigningAuthority(await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }));
  const request = parseCertificateRequest(await nodeClientRequest('n1'));
  const tampered = { ...request, signatureProblem: () => 'x509: ECDSA verification failure' };
  await assert.rejects(signCertificateRequest(authority, tampered, { usages: clientUsages, durationMs: hourMs }), /unable to verify certificate request signature/);
});

test('a CA whose key is not its certificate\'s, or unreadable, is refused with a clear message', async () => {
  const one = await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' });
  const other = await makeCa({ kind: 'rsa', keyFormat: 'pkcs1' });
  await assert.rejects(loadSigningAuthority({ cert: one.cert, key: other.key }), (err: unknown) => err instanceof SigningAuthorityError && /does not match/.test(err.message));
  await assert.rejects(loadSigningAuthority({ cert: one.cert, key: 'nonsense' }), (err: unknown) => err instanceof SigningAuthorityError && /private key cannot be read/.test(err.message));
  await assert.rejects(loadSigningAuthority({ cert: 'nonsense', key: one.key }), (err: unknown) => err instanceof SigningAuthorityError && /certificate cannot be read/.test(err.message));
});
