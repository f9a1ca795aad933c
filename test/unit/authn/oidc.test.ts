// OIDC against an identity provider this test serves over real HTTPS with its own CA: discovery,
// JWKS, key rotation, every claim rule and every forgery.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sendOutboundRequest } from '../../../internal/authn/https-client.ts';
import { OidcAuthenticator } from '../../../internal/authn/oidc/oidc-authenticator.ts';
import { defaultUsernamePrefix, oidcConfiguration, parseRequiredClaims } from '../../../internal/authn/oidc/options.ts';
import type { OidcFlags } from '../../../internal/authn/oidc/options.ts';
import { makeCa, makeServerCertificate } from './fixtures/test-pki.ts';
import type { TestCertificate } from './fixtures/test-pki.ts';
import { hmacJwt, signJwt, unsignedJwt } from './fixtures/test-jwt.ts';

const key1 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key2 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });

interface Provider {
  server: Server;
  issuer: string;
  keys: { kid: string; key: KeyObject }[];
  jwksFetches: number;
  discoveryIssuer?: string;
}

let ca: TestCertificate;
let provider: Provider;
let now: number;
const authenticators: OidcAuthenticator[] = [];

function jwk(kid: string, key: KeyObject) {
  return { ...key.export({ format: 'jwk' }), kid, use: 'sig' };
}

before(async () => {
  ca = await makeCa('idp-ca');
  const serving = await makeServerCertificate(ca);
  provider = { server: createServer({ cert: serving.pem, key: serving.keyPem }), issuer: '', keys: [], jwksFetches: 0 };
  provider.server.on('request', (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer: provider.discoveryIssuer ?? provider.issuer, jwks_uri: `${provider.issuer}/keys`, id_token_signing_alg_values_supported: ['RS256'] }));
    } else if (req.url === '/keys') {
      provider.jwksFetches++;
      res.end(JSON.stringify({ keys: [...provider.keys.map((k) => jwk(k.kid, k.key)), { kty: 'RSA', kid: 'enc', use: 'enc', n: 'AQAB', e: 'AQAB' }] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => provider.server.listen(0, '127.0.0.1', resolve));
  provider.issuer = `https://127.0.0.1:${(provider.server.address() as AddressInfo).port}`;
});

after(() => {
  for (const a of authenticators) a.close();
  provider.server.close();
});

beforeEach(() => {
  now = Date.now();
  provider.keys = [{ kid: 'k1', key: key1.publicKey }, { kid: 'ec', key: ecKey.publicKey }];
  provider.jwksFetches = 0;
  delete provider.discoveryIssuer;
});

async function started(flags: Partial<OidcFlags> = {}): Promise<OidcAuthenticator> {
  const config = oidcConfiguration({ issuerUrl: provider.issuer, clientId: 'orch', caPem: ca.pem, ...flags });
  const authenticator = new OidcAuthenticator(config, { clock: () => now, send: sendOutboundRequest });
  authenticators.push(authenticator);
  assert.equal(await authenticator.start(), true);
  return authenticator;
}

function claims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const seconds = Math.floor(now / 1000);
  return { iss: provider.issuer, aud: 'orch', sub: 'user-1', exp: seconds + 300, iat: seconds, ...extra };
}

const token = (extra: Record<string, unknown> = {}, kid = 'k1', key = key1.privateKey, alg = 'RS256') => signJwt({ alg, kid }, claims(extra), key);

async function answer(authenticator: OidcAuthenticator, jwt: string) {
  const outcome = await authenticator.authenticateToken(jwt);
  return outcome.kind === 'authenticated' ? outcome.user : outcome.kind === 'failed' ? outcome.reason : outcome.kind;
}

describe('OIDC: who the token says', () => {
  it('uses sub with the `<issuer>#` prefix by default', async () => {
    assert.deepEqual(await answer(await started(), token()), { username: `${provider.issuer}#user-1`, uid: '', groups: [], extra: {} });
  });

  it('uses email without a prefix; email_verified absent or true is fine', async () => {
    const a = await started({ usernameClaim: 'email' });
    assert.equal(((await answer(a, token({ email: 'jane@example.com' }))) as { username: string }).username, 'jane@example.com');
    assert.equal(((await answer(a, token({ email: 'jane@example.com', email_verified: true }))) as { username: string }).username, 'jane@example.com');
  });

  it('refuses an email whose email_verified is false or not a boolean', async () => {
    const a = await started({ usernameClaim: 'email' });
    assert.equal(await answer(a, token({ email: 'jane@example.com', email_verified: false })), 'oidc: email not verified');
    assert.equal(await answer(a, token({ email: 'jane@example.com', email_verified: 'true' })), "oidc: parse 'email_verified' claim");
  });

  it('honours a username prefix, and `-` for none', async () => {
    assert.equal(((await answer(await started({ usernamePrefix: 'oidc:' }), token())) as { username: string }).username, 'oidc:user-1');
    assert.equal(((await answer(await started({ usernamePrefix: '-' }), token())) as { username: string }).username, 'user-1');
    assert.equal(((await answer(await started({ usernameClaim: 'name' }), token({ name: 'Jane' }))) as { username: string }).username, `${provider.issuer}#Jane`);
  });

  it('refuses a token whose username claim is missing or not a string', async () => {
    const a = await started({ usernameClaim: 'email' });
    assert.equal(await answer(a, token()), 'oidc: parse username claims "email"');
    assert.equal(await answer(a, token({ email: 42 })), 'oidc: parse username claims "email"');
  });

  it('reads groups from an array or a single string, with the prefix', async () => {
    const a = await started({ groupsClaim: 'groups', groupsPrefix: 'oidc:' });
    assert.deepEqual(((await answer(a, token({ groups: ['dev', 'ops'] }))) as unknown as { groups: string[] }).groups, ['oidc:dev', 'oidc:ops']);
    assert.deepEqual(((await answer(a, token({ groups: 'admins' }))) as unknown as { groups: string[] }).groups, ['oidc:admins']);
    assert.deepEqual(((await answer(a, token())) as unknown as { groups: string[] }).groups, []);
    assert.equal(await answer(a, token({ groups: [1, 2] })), 'oidc: parse groups claim "groups"');
  });

  it('requires every required claim with its exact string value', async () => {
    const a = await started({ requiredClaims: { hd: 'example.com', tier: 'gold' } });
    assert.equal(typeof (await answer(a, token({ hd: 'example.com', tier: 'gold' }))), 'object');
    assert.equal(await answer(a, token({ hd: 'example.com' })), 'oidc: required claim tier not present in ID token');
    assert.equal(await answer(a, token({ hd: 'evil.com', tier: 'gold' })), 'oidc: required claim hd value does not match');
    assert.equal(await answer(a, token({ hd: ['example.com'], tier: 'gold' })), 'oidc: parse claim hd');
  });
});

describe('OIDC: refusals', () => {
  it('expired, with no leeway', async () => {
    const seconds = Math.floor(now / 1000);
    assert.equal(await answer(await started(), token({ exp: seconds - 1 })), 'oidc: token is expired');
  });

  it('without exp', async () => {
    assert.equal(await answer(await started(), token({ exp: undefined })), 'oidc: token is expired');
  });

  it('not valid yet past a minute of leeway (and valid within it)', async () => {
    const a = await started();
    const seconds = Math.floor(now / 1000);
    assert.equal(await answer(a, token({ nbf: seconds + 120 })), 'oidc: current time before the nbf (not before) time');
    assert.equal(typeof (await answer(a, token({ nbf: seconds + 30 }))), 'object');
  });

  it('for another client', async () => {
    const a = await started();
    assert.equal(await answer(a, token({ aud: 'someone-else' })), 'oidc: expected audience not in token audiences');
    assert.equal(typeof (await answer(a, token({ aud: ['someone-else', 'orch'] }))), 'object');
  });

  it('from another issuer: not ours', async () => {
    assert.equal(await answer(await started(), token({ iss: 'https://evil.example' })), 'no-opinion');
    assert.equal(await answer(await started(), token({ iss: `${provider.issuer}/` })), 'no-opinion');
  });

  it('signed by a key the provider does not publish', async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    assert.equal(await answer(await started(), token({}, 'k1', stranger.privateKey)), 'oidc: failed to verify signature');
  });

  it('with alg none, or HS256 keyed with the published public key', async () => {
    const a = await started();
    assert.equal(await answer(a, unsignedJwt(claims(), { kid: 'k1' })), 'oidc: failed to verify signature');
    const publicPem = key1.publicKey.export({ type: 'spki', format: 'pem' });
    assert.equal(await answer(a, hmacJwt(claims(), publicPem, { kid: 'k1' })), 'oidc: failed to verify signature');
    assert.equal(await answer(a, hmacJwt(claims(), JSON.stringify(jwk('k1', key1.publicKey)), { kid: 'k1' })), 'oidc: failed to verify signature');
  });

  it('signed with an algorithm not in --oidc-signing-algs (default RS256 only)', async () => {
    assert.equal(await answer(await started(), token({}, 'k1', key1.privateKey, 'RS384')), 'oidc: failed to verify signature');
    assert.equal(await answer(await started(), token({}, 'ec', ecKey.privateKey, 'ES256')), 'oidc: failed to verify signature');
    assert.equal(typeof (await answer(await started({ signingAlgorithms: ['RS256', 'ES256'] }), token({}, 'ec', ecKey.privateKey, 'ES256'))), 'object');
  });

  it('naming the kid of one key but signed by another published key', async () => {
    const a = await started({ signingAlgorithms: ['RS256', 'ES256'] });
    assert.equal(await answer(a, token({}, 'ec', key1.privateKey)), 'oidc: failed to verify signature');
  });

  it('before discovery succeeded', async () => {
    const config = oidcConfiguration({ issuerUrl: provider.issuer, clientId: 'orch' }); // no --oidc-ca-file: the host's roots do not know our CA
    const errors: unknown[] = [];
    const a = new OidcAuthenticator(config, { clock: () => now, send: sendOutboundRequest, onDiscoveryError: (e) => errors.push(e) });
    authenticators.push(a);
    assert.equal(await a.start(), false);
    assert.equal(errors.length, 1);
    assert.equal(await answer(a, token()), 'oidc: authenticator not initialized');
    a.close();
  });

  it('starts discovery on the first token when nobody called start()', async () => {
    const a = new OidcAuthenticator(oidcConfiguration({ issuerUrl: provider.issuer, clientId: 'orch', caPem: ca.pem }), { clock: () => now, send: sendOutboundRequest });
    authenticators.push(a);
    assert.equal(await answer(a, token()), 'oidc: authenticator not initialized');
    assert.equal(await a.start(), true, 'the discovery the token started');
    assert.equal(typeof (await answer(a, token())), 'object');
  });

  it('when discovery names another issuer', async () => {
    provider.discoveryIssuer = 'https://elsewhere.example';
    const a = new OidcAuthenticator(oidcConfiguration({ issuerUrl: provider.issuer, clientId: 'orch', caPem: ca.pem }), { clock: () => now, send: sendOutboundRequest });
    authenticators.push(a);
    assert.equal(await a.start(), false);
    a.close();
  });
});

describe('OIDC: keys', () => {
  it('fetches the JWKS again for an unknown kid, so rotated keys work', async () => {
    const a = await started();
    assert.equal(provider.jwksFetches, 1);
    provider.keys = [{ kid: 'k2', key: key2.publicKey }];
    now += 11_000;
    assert.equal(typeof (await answer(a, token({}, 'k2', key2.privateKey))), 'object');
    assert.equal(provider.jwksFetches, 2);
    assert.equal(await answer(a, token({}, 'k1')), 'oidc: failed to verify signature', 'the retired key is gone');
  });

  it('fetches at most once per interval however many unknown kids arrive', async () => {
    const a = await started();
    now += 11_000;
    await Promise.all(Array.from({ length: 5 }, (_, i) => a.authenticateToken(token({}, `made-up-${i}`))));
    assert.equal(provider.jwksFetches, 2);
    for (let i = 0; i < 5; i++) await a.authenticateToken(token({}, `again-${i}`));
    assert.equal(provider.jwksFetches, 2);
    now += 11_000;
    await a.authenticateToken(token({}, 'later'));
    assert.equal(provider.jwksFetches, 3);
  });

  it('does not fetch for a known kid', async () => {
    const a = await started();
    now += 11_000;
    for (let i = 0; i < 3; i++) await a.authenticateToken(token());
    assert.equal(provider.jwksFetches, 1);
  });
});

describe('OIDC flags', () => {
  it('refuses a non-https issuer, an empty client id, an empty username claim and unknown algorithms', () => {
    assert.throws(() => oidcConfiguration({ issuerUrl: 'http://idp.example', clientId: 'x' }), /invalid scheme \("http"\), require 'https'/);
    assert.throws(() => oidcConfiguration({ issuerUrl: 'https://idp.example', clientId: '' }), /client-id/);
    assert.throws(() => oidcConfiguration({ issuerUrl: 'https://idp.example', clientId: 'x', usernameClaim: '' }), /username-claim/);
    for (const alg of ['HS256', 'none', 'rs256']) assert.throws(() => oidcConfiguration({ issuerUrl: 'https://idp.example', clientId: 'x', signingAlgorithms: [alg] }), /unsupported signing alg/);
  });

  it('defaults the username prefix as kube does', () => {
    assert.equal(defaultUsernamePrefix('https://i', 'sub', ''), 'https://i#');
    assert.equal(defaultUsernamePrefix('https://i', 'email', ''), '');
    assert.equal(defaultUsernamePrefix('https://i', 'email', 'p:'), 'p:');
    assert.equal(defaultUsernamePrefix('https://i', 'sub', '-'), '');
    assert.deepEqual(oidcConfiguration({ issuerUrl: 'https://i', clientId: 'x' }).signingAlgorithms, ['RS256']);
  });

  it('parses required claims as key=value (the value may hold =)', () => {
    assert.deepEqual(parseRequiredClaims(['a=b', 'c=d=e', 'f=']), { a: 'b', c: 'd=e', f: '' });
    assert.throws(() => parseRequiredClaims(['novalue']), /key=value/);
  });
});
