// The whole chain as the wiring will build it from flags and files, and a real TLS server handing
// the client's certificate chain to it.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { authenticateRequest, buildAuthenticator, defaultAuthenticationOptions, peerCertificateChain } from '../../../internal/authn/index.ts';
import type { Authentication, AuthenticationOptions } from '../../../internal/authn/index.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { FakeObjectStore } from './fixtures/object-store.ts';
import { makeCa, makeCertificate, makeServerCertificate } from './fixtures/test-pki.ts';
import type { TestCertificate } from './fixtures/test-pki.ts';

const issuer = 'https://orch.example';
let dir: string;
let clientCa: TestCertificate;
let proxyCa: TestCertificate;
let proxy: TestCertificate;
let admin: TestCertificate;
let authentication: Authentication;
const store = new FakeObjectStore();
const file = (name: string) => path.join(dir, name);

function options(extra: Partial<AuthenticationOptions> = {}): AuthenticationOptions {
  return {
    ...defaultAuthenticationOptions(),
    clientCaFile: file('client-ca.crt'),
    tokenAuthFile: file('tokens.csv'),
    serviceAccounts: { keyFiles: [file('sa.pub')], issuers: [issuer], lookup: true, signingKeyFile: file('sa.key'), extendTokenExpiration: true },
    requestHeader: { usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefixes: ['X-Remote-Extra-'], clientCaFile: file('proxy-ca.crt'), allowedNames: ['front-proxy'] },
    ...extra,
  };
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'orch-authn-'));
  clientCa = await makeCa('client-ca');
  proxyCa = await makeCa('proxy-ca');
  proxy = await makeCertificate({ commonName: 'front-proxy', issuer: proxyCa });
  admin = await makeCertificate({ commonName: 'orch-admin', organizations: ['system:masters'], issuer: clientCa });
  const sa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(file('client-ca.crt'), clientCa.pem);
  writeFileSync(file('proxy-ca.crt'), proxyCa.pem);
  writeFileSync(file('tokens.csv'), 'admin-token,admin,admin-uid,"system:masters"\n');
  writeFileSync(file('sa.key'), sa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(file('sa.pub'), sa.publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(file('other.pub'), generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }));
  store.put('ServiceAccount', 'default', 'builder', { uid: 'sa-1' });
  authentication = await buildAuthenticator(options(), { serviceAccountGetter: store });
});

after(() => rmSync(dir, { recursive: true, force: true }));

async function who(headers: Record<string, string>, peerCertificates: Buffer[] = []) {
  const outcome = await authentication.requestAuthenticator.authenticate({ headers, peerCertificates, audiences: authentication.apiAudiences });
  return outcome.kind === 'authenticated' ? outcome.user : outcome.kind;
}

describe('buildAuthenticator', () => {
  it('authenticates a static token with system:authenticated added', async () => {
    assert.deepEqual(await who({ authorization: 'Bearer admin-token' }), { username: 'admin', uid: 'admin-uid', groups: ['system:masters', 'system:authenticated'], extra: {} });
  });

  it('authenticates a client certificate', async () => {
    assert.deepEqual(await who({}, [admin.der]), { username: 'orch-admin', uid: '', groups: ['system:masters', 'system:authenticated'], extra: {} });
  });

  it('authenticates a service-account token minted by its own issuer, for the default audience (the first issuer)', async () => {
    assert.deepEqual(authentication.apiAudiences, [issuer]);
    const { token } = authentication.tokenIssuer!.issueBoundToken({ namespace: 'default', serviceAccountName: 'builder', serviceAccountUid: 'sa-1' });
    const user = await who({ authorization: `Bearer ${token}` });
    assert.deepEqual(user, { username: 'system:serviceaccount:default:builder', uid: 'sa-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'], extra: {} });
  });

  it('refuses a service-account token once its service account is deleted (after the 10 s token cache)', async () => {
    let now = Date.now();
    const local = await buildAuthenticator(options(), { serviceAccountGetter: store, clock: () => now });
    store.put('ServiceAccount', 'default', 'doomed', { uid: 'sa-2' });
    const { token } = local.tokenIssuer!.issueBoundToken({ namespace: 'default', serviceAccountName: 'doomed', serviceAccountUid: 'sa-2' });
    const ask = async () => (await local.requestAuthenticator.authenticate({ headers: { authorization: `Bearer ${token}` }, peerCertificates: [] })).kind;
    assert.equal(await ask(), 'authenticated');
    store.remove('ServiceAccount', 'default', 'doomed');
    assert.equal(await ask(), 'authenticated', 'cached success');
    now += 10_001;
    assert.equal(await ask(), 'failed');
  });

  it('believes proxy headers behind the proxy certificate', async () => {
    const user = await who({ 'x-remote-user': 'jane', 'x-remote-group': 'dev' }, [proxy.der]);
    assert.deepEqual(user, { username: 'jane', uid: '', groups: ['dev', 'system:authenticated'], extra: {} });
  });

  it('ignores proxy headers from a client-CA user (the certificate decides) and names them for stripping', async () => {
    const headers = { 'x-remote-user': 'admin', 'x-remote-group': 'system:masters' };
    const user = await who(headers, [(await makeCertificate({ commonName: 'front-proxy', issuer: clientCa })).der]);
    assert.equal(typeof user === 'object' && user.username, 'front-proxy');
    assert.deepEqual(authentication.identityHeadersToStrip({ ...headers, authorization: 'x' }).sort(), ['x-remote-group', 'x-remote-user']);
  });

  it('ignores proxy headers without any certificate: anonymous', async () => {
    assert.deepEqual(await who({ 'x-remote-user': 'admin' }), { username: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} });
  });

  it('answers 401 Unauthorized for an invalid bearer token even with anonymous on', async () => {
    const logged: string[] = [];
    const request = { headers: { authorization: 'Bearer nope' }, peerCertificates: [] };
    const error = await authenticateRequest(authentication.requestAuthenticator, request, (r) => logged.push(r)).catch((e: unknown) => e);
    assert.ok(error instanceof StatusError && error.code === 401 && error.message === 'Unauthorized');
    assert.equal(logged.some((line) => line.includes('nope')), false, 'the log never holds the token');
  });

  it('answers 401 for a certificate of an unknown CA, and for proxy headers behind an unknown CA', async () => {
    const stranger = await makeCertificate({ commonName: 'x', issuer: await makeCa('unknown') });
    assert.equal(await who({}, [stranger.der]), 'failed');
    assert.equal(await who({ 'x-remote-user': 'admin' }, [stranger.der]), 'failed');
  });

  it('answers 401 for a proxy certificate whose CN is not allowed', async () => {
    const other = await makeCertificate({ commonName: 'not-the-proxy', issuer: proxyCa });
    assert.equal(await who({ 'x-remote-user': 'admin' }, [other.der]), 'failed');
  });

  it('lets a valid client certificate through beside an invalid token (x509 comes first, as kube)', async () => {
    const user = await who({ authorization: 'Bearer nope' }, [admin.der]);
    assert.equal(typeof user === 'object' && user.username, 'orch-admin');
  });

  it('with anonymous off, a request without credentials is 401', async () => {
    const strict = await buildAuthenticator(options({ anonymousAuth: false }), { serviceAccountGetter: store });
    await assert.rejects(authenticateRequest(strict.requestAuthenticator, { headers: {}, peerCertificates: [] }), (e: unknown) => e instanceof StatusError && e.code === 401);
  });

  it('gives TokenReview a token authenticator whose users carry system:authenticated', async () => {
    const outcome = await authentication.tokenAuthenticator!.authenticateToken('admin-token', [issuer]);
    assert.deepEqual(outcome.kind === 'authenticated' && outcome.user.groups, ['system:masters', 'system:authenticated']);
    assert.deepEqual(outcome.kind === 'authenticated' && outcome.audiences, [issuer]);
  });

  it('builds an anonymous-only chain from the defaults, in which a bearer token is still a 401', async () => {
    const bare = await buildAuthenticator(defaultAuthenticationOptions());
    assert.equal(bare.tokenAuthenticator, undefined);
    assert.equal((await bare.requestAuthenticator.authenticate({ headers: {}, peerCertificates: [] })).kind, 'authenticated');
    // kube-apiserver always has a token authenticator (service accounts); a token nobody can check is never anonymous.
    assert.equal((await bare.requestAuthenticator.authenticate({ headers: { authorization: 'Bearer x' }, peerCertificates: [] })).kind, 'failed');
  });
});

describe('buildAuthenticator refuses flags that do not fit', () => {
  const sa = () => options().serviceAccounts;
  const cases: [string, Partial<AuthenticationOptions>, RegExp][] = [
    ['a missing file, naming the flag', { clientCaFile: file('missing.crt') }, /--client-ca-file=.*missing\.crt/],
    ['a CA file without certificates', { clientCaFile: file('tokens.csv') }, /no PEM certificate/],
    ['a token file with a short record', { tokenAuthFile: file('client-ca.crt') }, /at least 3 columns/],
    ['issuers without key files', { serviceAccounts: { ...sa(), keyFiles: [], signingKeyFile: undefined } }, /--service-account-key-file is required/],
    ['a signing key without an issuer', { serviceAccounts: { ...sa(), issuers: [] } }, /--service-account-issuer is required/],
    ['a signing key not among the verification keys', { serviceAccounts: { ...sa(), keyFiles: [file('other.pub')] } }, /its public key is not in any --service-account-key-file/],
    ['bootstrap tokens without a Secret getter', { enableBootstrapTokenAuth: true }, /needs a bootstrap token Secret getter/],
    ['an http OIDC issuer', { oidc: { issuerUrl: 'http://idp', clientId: 'x' } }, /require 'https'/],
  ];
  for (const [what, extra, error] of cases) {
    it(what, async () => {
      await assert.rejects(buildAuthenticator(options(extra), { serviceAccountGetter: store }), error);
    });
  }

  it('warns when the proxy CA is the client CA and any CN may act as the proxy', async () => {
    const warnings: string[] = [];
    const proxyFromClientCa = { ...options().requestHeader!, clientCaFile: file('client-ca.crt'), allowedNames: [] };
    await buildAuthenticator(options({ requestHeader: proxyFromClientCa }), { serviceAccountGetter: store, warn: (w) => warnings.push(w) });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /any client certificate may act as the proxy/);
  });

  it('bound service-account tokens without an object getter', async () => {
    await assert.rejects(buildAuthenticator(options()), /object getter/);
  });
});

describe('client certificates through a real TLS server', () => {
  it('hands the presented chain (leaf and intermediate) to the authenticator', async () => {
    const intermediate = await makeCa('intermediate', { issuer: clientCa });
    const leaf = await makeCertificate({ commonName: 'deep', organizations: ['team'], issuer: intermediate });
    const serving = await makeServerCertificate(clientCa);
    // Like the API server: ask for a certificate, do not let TLS decide; the authenticators verify.
    assert.equal(authentication.clientCertificateAuthorities.length, 2, 'the proxy CA and the client CA');
    const tlsOptions = { cert: serving.pem, key: serving.keyPem, ca: [...authentication.clientCertificateAuthorities], requestCert: true, rejectUnauthorized: false };
    const server = createServer(tlsOptions, (req, res) => {
      const peerCertificates = peerCertificateChain(req.socket as TLSSocket);
      void authentication.requestAuthenticator.authenticate({ headers: req.headersDistinct, peerCertificates }).then((outcome) => {
        res.end(JSON.stringify({ count: peerCertificates.length, outcome }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const get = (cert?: string, key?: string) =>
        new Promise<{ count: number; outcome: { kind: string; user?: { username: string; groups: string[] } } }>((resolve, reject) => {
          const req = httpsRequest({ host: '127.0.0.1', port, path: '/', ca: clientCa.pem, agent: false, ...(cert === undefined ? {} : { cert, key }) }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve(JSON.parse(body) as never));
          });
          req.on('error', reject);
          req.end();
        });
      const withChain = await get(`${leaf.pem}\n${intermediate.pem}`, leaf.keyPem);
      // With `ca` set, node hands over the chain OpenSSL built: leaf, intermediate and our root.
      assert.equal(withChain.count, 3);
      assert.deepEqual(withChain.outcome.user, { username: 'deep', uid: '', groups: ['team', 'system:authenticated'], extra: {} });
      const stranger = await makeCertificate({ commonName: 'mallory', organizations: ['system:masters'], issuer: await makeCa('client-ca') });
      const refused = await get(stranger.pem, stranger.keyPem);
      assert.equal(refused.outcome.kind, 'failed', 'a look-alike CA is refused even though TLS let the handshake through');
      const without = await get();
      assert.equal(without.count, 0);
      assert.equal(without.outcome.user?.username, 'system:anonymous');
    } finally {
      server.close();
    }
  });
});
