// --requestheader-*: the proxy's headers count only behind its verified, allowed certificate.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { authenticated, noOpinion } from '../../../internal/authn/authenticator.ts';
import { isRequestHeaderIdentityHeader, requestHeaderAuthenticator, requestHeaderIdentityHeadersIn } from '../../../internal/authn/requestheader/request-header.ts';
import { makeCa, makeCertificate } from './fixtures/test-pki.ts';
import type { TestCertificate } from './fixtures/test-pki.ts';

const names = { usernameHeaders: ['X-Remote-User', 'X-Other-User'], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'] };
let proxyCa: TestCertificate;
let clientCa: TestCertificate;
let proxy: TestCertificate;

before(async () => {
  proxyCa = await makeCa('front-proxy-ca');
  clientCa = await makeCa('client-ca');
  proxy = await makeCertificate({ commonName: 'front-proxy-client', issuer: proxyCa });
});

function authenticator(allowedNames: string[] = []) {
  return requestHeaderAuthenticator({ ...names, roots: [new X509Certificate(proxyCa.der)], allowedNames, clock: Date.now });
}

const headers = {
  'x-remote-user': ['alice'],
  'x-remote-group': ['dev', 'ops'],
  'x-remote-extra-scopes': ['read', 'write'],
  'x-remote-extra-acme.com%2fproject': ['p1'],
};

describe('authenticating proxy', () => {
  it('takes user, groups and extra from the headers behind the proxy certificate', async () => {
    const outcome = await authenticator().authenticate({ headers, peerCertificates: [proxy.der] });
    assert.deepEqual(outcome, authenticated({ username: 'alice', uid: '', groups: ['dev', 'ops'], extra: { scopes: ['read', 'write'], 'acme.com/project': ['p1'] } }));
  });

  it('uses the first username header that has a value', async () => {
    const outcome = await authenticator().authenticate({ headers: { 'x-remote-user': [''], 'x-other-user': ['bob'] }, peerCertificates: [proxy.der] });
    assert.equal(outcome.kind === 'authenticated' && outcome.user.username, 'bob');
  });

  it('lowercases extra keys and keeps a malformed escape as it came', async () => {
    const outcome = await authenticator().authenticate({ headers: { 'x-remote-user': 'a', 'X-Remote-Extra-Bad%ZZ': 'v' }, peerCertificates: [proxy.der] });
    assert.deepEqual(outcome.kind === 'authenticated' && outcome.user.extra, { 'bad%zz': ['v'] });
  });

  it('accepts an allowed CN', async () => {
    const outcome = await authenticator(['front-proxy-client']).authenticate({ headers, peerCertificates: [proxy.der] });
    assert.equal(outcome.kind, 'authenticated');
  });

  it('ignores the headers without a client certificate', async () => {
    assert.deepEqual(await authenticator().authenticate({ headers, peerCertificates: [] }), noOpinion);
  });

  it('fails the headers behind a certificate of another CA (a client-CA user cannot pose as the proxy)', async () => {
    const user = await makeCertificate({ commonName: 'front-proxy-client', issuer: clientCa });
    const outcome = await authenticator().authenticate({ headers, peerCertificates: [user.der] });
    assert.deepEqual(outcome, { kind: 'failed', reason: 'x509: certificate signed by unknown authority' });
  });

  it('fails the headers behind a proxy-CA certificate whose CN is not allowed', async () => {
    const other = await makeCertificate({ commonName: 'someone-else', issuer: proxyCa });
    const outcome = await authenticator(['front-proxy-client']).authenticate({ headers, peerCertificates: [other.der] });
    assert.deepEqual(outcome, { kind: 'failed', reason: 'x509: subject is not in the allowed list' });
  });

  it('has no opinion on the proxy certificate without a username header', async () => {
    assert.deepEqual(await authenticator().authenticate({ headers: { 'x-remote-group': 'dev' }, peerCertificates: [proxy.der] }), noOpinion);
  });

  it('names the identity headers to strip, whatever their case', () => {
    assert.deepEqual(requestHeaderIdentityHeadersIn({ ...headers, authorization: 'x', 'x-other-user': 'y', accept: '*/*' }, names).sort(), [
      'x-other-user',
      'x-remote-extra-acme.com%2fproject',
      'x-remote-extra-scopes',
      'x-remote-group',
      'x-remote-user',
    ]);
    assert.equal(isRequestHeaderIdentityHeader('X-REMOTE-USER', names), true);
    assert.equal(isRequestHeaderIdentityHeader('Impersonate-User', names), false);
  });
});
