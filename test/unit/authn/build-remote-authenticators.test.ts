// OIDC and the token webhook configured through their flags and files, behind one HTTPS server
// that plays both the identity provider and the TokenReview webhook.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildAuthenticator, defaultAuthenticationOptions } from '../../../internal/authn/index.ts';
import type { Authentication } from '../../../internal/authn/index.ts';
import { makeCa, makeServerCertificate } from './fixtures/test-pki.ts';
import { signJwt } from './fixtures/test-jwt.ts';

const idpKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
let server: Server;
let base: string;
let dir: string;
let authentication: Authentication;
let webhookCalls = 0;

before(async () => {
  const ca = await makeCa('remote-ca');
  const serving = await makeServerCertificate(ca);
  server = createServer({ cert: serving.pem, key: serving.keyPem }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') return res.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }));
    if (req.url === '/jwks') return res.end(JSON.stringify({ keys: [{ ...idpKey.publicKey.export({ format: 'jwk' }), kid: 'a' }] }));
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      webhookCalls++;
      const review = JSON.parse(body) as { spec: { token: string } };
      const ok = review.spec.token === 'webhook-token';
      res.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', status: ok ? { authenticated: true, user: { username: 'from-webhook' } } : { authenticated: false } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(tmpdir(), 'orch-remote-'));
  writeFileSync(path.join(dir, 'ca.crt'), ca.pem);
  writeFileSync(path.join(dir, 'webhook.yaml'), `clusters: [{name: w, cluster: {server: "${base}/authenticate", certificate-authority: ca.crt}}]\nusers: [{name: u, user: {}}]\n`);
  authentication = await buildAuthenticator({
    ...defaultAuthenticationOptions(),
    oidc: { issuerUrl: base, clientId: 'orch', caFile: path.join(dir, 'ca.crt'), groupsClaim: 'groups', groupsPrefix: 'oidc:', usernamePrefix: 'oidc:', requiredClaims: ['tenant=blue'] },
    tokenWebhook: { configFile: path.join(dir, 'webhook.yaml'), version: 'v1', cacheTtlSeconds: 120 },
  });
  await authentication.start();
});

after(() => {
  authentication.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function who(token: string) {
  const outcome = await authentication.requestAuthenticator.authenticate({ headers: { authorization: `Bearer ${token}` }, peerCertificates: [] });
  return outcome.kind === 'authenticated' ? outcome.user : outcome.kind;
}

describe('remote authenticators from flags', () => {
  const idToken = (claims: Record<string, unknown>) =>
    signJwt({ alg: 'RS256', kid: 'a' }, { iss: base, aud: 'orch', sub: 'u1', exp: Math.floor(Date.now() / 1000) + 60, ...claims }, idpKey.privateKey);

  it('authenticates an ID token with the configured prefixes and required claim', async () => {
    assert.deepEqual(await who(idToken({ groups: ['dev'], tenant: 'blue' })), { username: 'oidc:u1', uid: '', groups: ['oidc:dev', 'system:authenticated'], extra: {} });
  });

  it('refuses an ID token without the required claim (401), after offering it to the webhook too (kube token union)', async () => {
    const calls = webhookCalls;
    assert.equal(await who(idToken({ tenant: 'red' })), 'failed');
    assert.equal(webhookCalls, calls + 1);
  });

  it('hands other tokens to the webhook, and an unknown one is 401', async () => {
    const calls = webhookCalls;
    assert.deepEqual(await who('webhook-token'), { username: 'from-webhook', uid: '', groups: ['system:authenticated'], extra: {} });
    assert.equal(await who('nobody-knows-me'), 'failed');
    assert.equal(webhookCalls, calls + 2);
  });
});
