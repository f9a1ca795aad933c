// --client-ca-file: CN is the user, O the groups; every way a certificate can be wrong is a failure.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { authenticated, noOpinion } from '../../../internal/authn/authenticator.ts';
import { parseCertificateBundle } from '../../../internal/authn/x509/certificate-bundle.ts';
import { verifyClientCertificateChain } from '../../../internal/authn/x509/chain-verification.ts';
import { clientCertificateAuthenticator } from '../../../internal/authn/x509/client-certificate.ts';
import { day, makeCa, makeCertificate } from './fixtures/test-pki.ts';
import type { TestCertificate } from './fixtures/test-pki.ts';

const now = Date.now();
let ca: TestCertificate;
let otherCa: TestCertificate;
let intermediate: TestCertificate;

before(async () => {
  ca = await makeCa('client-ca');
  otherCa = await makeCa('other-ca');
  intermediate = await makeCa('intermediate', { issuer: ca });
});

function authenticator(clock = () => now) {
  return clientCertificateAuthenticator({ roots: [new X509Certificate(ca.der)], clock });
}

async function outcomeFor(chain: TestCertificate[], clock?: () => number) {
  return authenticator(clock).authenticate({ headers: {}, peerCertificates: chain.map((c) => c.der) });
}

describe('client certificate authentication', () => {
  it('authenticates CN as the user and every O as a group', async () => {
    const leaf = await makeCertificate({ commonName: 'jane', organizations: ['system:masters', 'dev'], issuer: ca });
    assert.deepEqual(await outcomeFor([leaf]), authenticated({ username: 'jane', uid: '', groups: ['system:masters', 'dev'], extra: {} }));
  });

  it('takes the last of several CNs as the user, as Go\'s pkix.Name does', async () => {
    const leaf = await makeCertificate({ commonName: 'system:admin, CN=jane', issuer: ca });
    assert.deepEqual(await outcomeFor([leaf]), authenticated({ username: 'jane', uid: '', groups: [], extra: {} }));
  });

  it('accepts a chain through an intermediate the client sends', async () => {
    const leaf = await makeCertificate({ commonName: 'via-intermediate', issuer: intermediate });
    assert.equal((await outcomeFor([leaf, intermediate])).kind, 'authenticated');
  });

  it('accepts a leaf without the extended-key-usage extension (any usage, as Go)', async () => {
    const leaf = await makeCertificate({ commonName: 'any-usage', issuer: ca, usages: 'none' });
    assert.equal((await outcomeFor([leaf])).kind, 'authenticated');
  });

  it('has no opinion without a certificate', async () => {
    assert.deepEqual(await outcomeFor([]), noOpinion);
  });

  it('has no opinion on a verified certificate without CN, as kube', async () => {
    const leaf = await makeCertificate({ commonName: '', organizations: ['x'], issuer: ca });
    assert.deepEqual(await outcomeFor([leaf]), noOpinion);
  });

  it('fails a certificate from an unknown CA', async () => {
    const leaf = await makeCertificate({ commonName: 'mallory', issuer: otherCa });
    assert.deepEqual(await outcomeFor([leaf]), { kind: 'failed', reason: 'x509: certificate signed by unknown authority' });
  });

  it('fails a self-signed certificate that copies the CA name', async () => {
    const forged = await makeCertificate({ commonName: 'client-ca', isCa: true });
    const leaf = await makeCertificate({ commonName: 'mallory', issuer: forged });
    assert.equal((await outcomeFor([leaf, forged])).kind, 'failed');
  });

  it('fails an intermediate-signed leaf when the intermediate is not sent', async () => {
    const leaf = await makeCertificate({ commonName: 'orphan', issuer: intermediate });
    assert.equal((await outcomeFor([leaf])).kind, 'failed');
  });

  it('fails a leaf signed by a non-CA certificate of the trusted CA', async () => {
    const notCa = await makeCertificate({ commonName: 'not-a-ca', issuer: ca });
    const leaf = await makeCertificate({ commonName: 'mallory', issuer: notCa });
    assert.equal((await outcomeFor([leaf, notCa])).kind, 'failed');
  });

  it('fails an expired certificate', async () => {
    const leaf = await makeCertificate({ commonName: 'old', issuer: ca, notBefore: new Date(now - 10 * day), notAfter: new Date(now - day) });
    assert.deepEqual(await outcomeFor([leaf]), { kind: 'failed', reason: 'x509: certificate has expired or is not yet valid' });
  });

  it('fails a certificate not valid yet', async () => {
    const leaf = await makeCertificate({ commonName: 'early', issuer: ca, notBefore: new Date(now + day), notAfter: new Date(now + 10 * day) });
    assert.equal((await outcomeFor([leaf])).kind, 'failed');
  });

  it('checks validity at the injected time', async () => {
    const leaf = await makeCertificate({ commonName: 'jane', issuer: ca });
    assert.equal((await outcomeFor([leaf], () => now + 400 * day)).kind, 'failed');
  });

  it('remembers a verified chain only within the validity of its whole path', async () => {
    let clock = now;
    const shortIntermediate = await makeCa('short', { issuer: ca, notBefore: new Date(now - day), notAfter: new Date(now + day) });
    const leaf = await makeCertificate({ commonName: 'jane', issuer: shortIntermediate, notAfter: new Date(now + 10 * day) });
    const cached = clientCertificateAuthenticator({ roots: [new X509Certificate(ca.der)], clock: () => clock });
    const ask = async () => (await cached.authenticate({ headers: {}, peerCertificates: [leaf.der, shortIntermediate.der] })).kind;
    assert.equal(await ask(), 'authenticated');
    assert.equal(await ask(), 'authenticated');
    clock = now + 2 * day; // the leaf is still valid, the intermediate is not
    assert.equal(await ask(), 'failed');
    clock = now - 2 * day;
    assert.equal(await ask(), 'failed');
  });

  it('does not let a remembered chain vouch for another chain with the same leaf', async () => {
    const leaf = await makeCertificate({ commonName: 'jane', issuer: intermediate });
    const cached = authenticator();
    assert.equal((await cached.authenticate({ headers: {}, peerCertificates: [leaf.der, intermediate.der] })).kind, 'authenticated');
    assert.equal((await cached.authenticate({ headers: {}, peerCertificates: [leaf.der] })).kind, 'failed');
  });

  it('fails a chain through an expired intermediate', async () => {
    const oldIntermediate = await makeCa('old-intermediate', { issuer: ca, notBefore: new Date(now - 10 * day), notAfter: new Date(now - day) });
    const leaf = await makeCertificate({ commonName: 'jane', issuer: oldIntermediate });
    assert.equal((await outcomeFor([leaf, oldIntermediate])).kind, 'failed');
  });

  it('fails a server-only certificate (no clientAuth usage)', async () => {
    const leaf = await makeCertificate({ commonName: 'server', issuer: ca, usages: ['server'] });
    assert.deepEqual(await outcomeFor([leaf]), { kind: 'failed', reason: 'x509: certificate specifies an incompatible key usage' });
  });

  it('fails a chain whose intermediate restricts usage to serverAuth', async () => {
    const serverIntermediate = await makeCa('server-only', { issuer: ca, usages: ['server'] });
    const leaf = await makeCertificate({ commonName: 'jane', issuer: serverIntermediate });
    assert.equal((await outcomeFor([leaf, serverIntermediate])).kind, 'failed');
  });

  it('fails garbage presented as a certificate', async () => {
    const outcome = await authenticator().authenticate({ headers: {}, peerCertificates: [Buffer.from('not a certificate')] });
    assert.deepEqual(outcome, { kind: 'failed', reason: 'x509: malformed certificate' });
  });

  it('fails an over-long chain', async () => {
    const leaf = await makeCertificate({ commonName: 'jane', issuer: ca });
    const result = verifyClientCertificateChain(Array.from({ length: 20 }, () => leaf.der), [new X509Certificate(ca.der)], now);
    assert.deepEqual(result, { ok: false, reason: 'x509: certificate chain too long' });
  });
});

describe('CA bundles', () => {
  it('reads every certificate of a bundle', () => {
    assert.equal(parseCertificateBundle(`${ca.pem}\n${otherCa.pem}`, 'test').length, 2);
  });

  it('refuses a file without certificates', () => {
    assert.throws(() => parseCertificateBundle('nothing here', '--client-ca-file'), /--client-ca-file: no PEM certificate found/);
  });
});
