// Service-account tokens: minted by TokenIssuer, verified by the legacy and bound authenticators;
// every forgery and every revoked object is a failure.
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { TokenAuthenticator } from '../../../internal/authn/authenticator.ts';
import { keyIdFromPublicKey } from '../../../internal/authn/jwt/pem-keys.ts';
import { boundValidator } from '../../../internal/authn/serviceaccount/bound-validator.ts';
import { legacyValidator } from '../../../internal/authn/serviceaccount/legacy-validator.ts';
import { legacyIssuer } from '../../../internal/authn/serviceaccount/names.ts';
import { serviceAccountTokenAuthenticator } from '../../../internal/authn/serviceaccount/token-authenticator.ts';
import { TokenIssuer } from '../../../internal/authn/serviceaccount/token-issuer.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { FakeObjectStore } from './fixtures/object-store.ts';
import { hmacJwt, signJwt, unsignedJwt } from './fixtures/test-jwt.ts';

const issuer = 'https://orch.example';
const audiences = [issuer];
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const t0 = Date.UTC(2026, 0, 1);

let now = t0;
let store: FakeObjectStore;
const clock = () => now;

function issuerWith(signingKey: KeyObject, extra: Partial<ConstructorParameters<typeof TokenIssuer>[0]> = {}) {
  return new TokenIssuer({ signingKey, issuer, apiAudiences: audiences, extendExpiration: true, clock, ...extra });
}

function boundAuthenticator(keys: KeyObject[] = [rsa.publicKey, ec.publicKey]): TokenAuthenticator {
  return serviceAccountTokenAuthenticator({ issuers: [issuer, 'https://old.example'], keys, implicitAudiences: audiences, validator: boundValidator({ getter: store, clock }) });
}

function legacyAuthenticator(lookup: boolean): TokenAuthenticator {
  return serviceAccountTokenAuthenticator({ issuers: [legacyIssuer], keys: [rsa.publicKey], implicitAudiences: audiences, validator: legacyValidator({ lookup, getter: store, clock }) });
}

const account = { namespace: 'ns', serviceAccountName: 'robot', serviceAccountUid: 'sa-uid' };

beforeEach(() => {
  now = t0;
  store = new FakeObjectStore();
  store.put('ServiceAccount', 'ns', 'robot', { uid: 'sa-uid' });
  store.put('Pod', 'ns', 'web-0', { uid: 'pod-uid' });
  store.put('Secret', 'ns', 'bound-secret', { uid: 'secret-uid' });
});

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
}

async function reasonFor(auth: TokenAuthenticator, token: string, wanted?: string[]): Promise<string> {
  const outcome = await auth.authenticateToken(token, wanted);
  return outcome.kind === 'failed' ? outcome.reason : outcome.kind;
}

describe('bound service-account tokens', () => {
  it('authenticate as system:serviceaccount:<ns>:<name> with the service-account groups and uid', async () => {
    const { token } = issuerWith(rsa.privateKey).issueBoundToken(account);
    const outcome = await boundAuthenticator().authenticateToken(token);
    assert.deepEqual(outcome, {
      kind: 'authenticated',
      user: { username: 'system:serviceaccount:ns:robot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'], extra: {} },
      audiences: [issuer],
    });
  });

  it('bound to a pod carry pod-name and pod-uid in extra', async () => {
    const { token } = issuerWith(rsa.privateKey).issueBoundToken({ ...account, boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } });
    const outcome = await boundAuthenticator().authenticateToken(token);
    assert.deepEqual(outcome.kind === 'authenticated' && outcome.user.extra, {
      'authentication.kubernetes.io/pod-name': ['web-0'],
      'authentication.kubernetes.io/pod-uid': ['pod-uid'],
    });
  });

  it('signed with an ECDSA key verify too (ES256)', async () => {
    const { token } = issuerWith(ec.privateKey).issueBoundToken(account);
    assert.equal(headerOf(token)['alg'], 'ES256');
    assert.equal((await boundAuthenticator().authenticateToken(token)).kind, 'authenticated');
  });

  it('carry kube-shaped claims and a kid derived from the public key', () => {
    const { token, expirationTimestamp } = issuerWith(rsa.privateKey).issueBoundToken({ ...account, boundObject: { kind: 'Secret', name: 'bound-secret', uid: 'secret-uid' } });
    assert.deepEqual(headerOf(token), { alg: 'RS256', kid: keyIdFromPublicKey(rsa.publicKey) });
    const claims = claimsOf(token);
    const nowSeconds = t0 / 1000;
    assert.deepEqual({ ...claims, jti: undefined }, {
      aud: [issuer],
      exp: nowSeconds + 3600,
      iat: nowSeconds,
      iss: issuer,
      jti: undefined,
      'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'robot', uid: 'sa-uid' }, secret: { name: 'bound-secret', uid: 'secret-uid' } },
      nbf: nowSeconds,
      sub: 'system:serviceaccount:ns:robot',
    });
    assert.equal(expirationTimestamp.getTime(), t0 + 3600_000);
  });

  it('are accepted from any configured issuer', async () => {
    const token = signJwt({ alg: 'RS256' }, { ...claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token), iss: 'https://old.example' }, rsa.privateKey);
    assert.equal((await boundAuthenticator().authenticateToken(token)).kind, 'authenticated');
  });

  it('are accepted within a minute of clock skew either side', async () => {
    const { token } = issuerWith(rsa.privateKey).issueBoundToken({ ...account, expirationSeconds: 600 });
    now = t0 - 59_000;
    assert.equal((await boundAuthenticator().authenticateToken(token)).kind, 'authenticated');
    now = t0 + 659_000;
    assert.equal((await boundAuthenticator().authenticateToken(token)).kind, 'authenticated');
  });

  describe('refused', () => {
    it('expired', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken({ ...account, expirationSeconds: 600 });
      now = t0 + 661_000;
      assert.equal(await reasonFor(boundAuthenticator(), token), 'service account token has expired');
    });

    it('not yet valid', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken(account);
      now = t0 - 61_000;
      assert.equal(await reasonFor(boundAuthenticator(), token), 'service account token is not valid yet');
    });

    it('issued in the future', async () => {
      const claims = { ...claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token), nbf: undefined, iat: t0 / 1000 + 120 };
      assert.equal(await reasonFor(boundAuthenticator(), signJwt({ alg: 'RS256' }, claims, rsa.privateKey)), 'service account token is issued in the future');
    });

    it('without exp', async () => {
      const claims = { ...claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token), exp: undefined };
      assert.equal(await reasonFor(boundAuthenticator(), signJwt({ alg: 'RS256' }, claims, rsa.privateKey)), 'service account token has no valid expiry');
    });

    it('signed by a key we do not trust, whatever kid it names', async () => {
      const claims = claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token);
      for (const kid of [undefined, keyIdFromPublicKey(rsa.publicKey), 'unknown-kid']) {
        assert.equal(await reasonFor(boundAuthenticator(), signJwt({ alg: 'RS256', kid }, claims, stranger.privateKey)), 'invalid signature');
      }
    });

    it('with a tampered payload', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken(account);
      const [h, , s] = token.split('.');
      const forged = Buffer.from(JSON.stringify({ ...claimsOf(token), sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url');
      assert.equal(await reasonFor(boundAuthenticator(), `${h}.${forged}.${s}`), 'invalid signature');
    });

    it('with alg none', async () => {
      assert.equal(await reasonFor(boundAuthenticator(), unsignedJwt(claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token))), 'invalid signature');
    });

    it('HS256 keyed with the public key as the secret', async () => {
      const claims = claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token);
      for (const secret of [rsa.publicKey.export({ type: 'spki', format: 'pem' }), rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }), rsa.publicKey.export({ type: 'spki', format: 'der' })]) {
        assert.equal(await reasonFor(boundAuthenticator(), hmacJwt(claims, secret)), 'invalid signature');
      }
    });

    it('RS256 header over an ECDSA signature (algorithm and key type must agree)', async () => {
      const claims = claimsOf(issuerWith(ec.privateKey).issueBoundToken(account).token);
      const token = signJwt({ alg: 'ES256' }, claims, ec.privateKey);
      const [, p, s] = token.split('.');
      const header = Buffer.from(JSON.stringify({ alg: 'RS256' })).toString('base64url');
      assert.equal(await reasonFor(boundAuthenticator(), `${header}.${p}.${s}`), 'invalid signature');
    });

    it('with a crit header', async () => {
      const claims = claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token);
      assert.equal(await reasonFor(boundAuthenticator(), signJwt({ alg: 'RS256', crit: ['exp'], exp: 1 }, claims, rsa.privateKey)), 'invalid signature');
    });

    it('for another audience', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken({ ...account, audiences: ['vault'] });
      assert.equal(await reasonFor(boundAuthenticator(), token), 'token audiences are invalid for the target audiences');
      assert.equal(await reasonFor(boundAuthenticator(), token, ['vault']), 'authenticated');
    });

    it('whose service account is gone', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken(account);
      store.remove('ServiceAccount', 'ns', 'robot');
      assert.equal(await reasonFor(boundAuthenticator(), token), 'service account has been deleted');
    });

    it('whose service account was recreated under the same name (uid differs)', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken(account);
      store.put('ServiceAccount', 'ns', 'robot', { uid: 'new-uid' });
      assert.equal(await reasonFor(boundAuthenticator(), token), 'service account UID does not match claim');
    });

    it('whose service account has been deleting for over a minute (and not before)', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken(account);
      store.put('ServiceAccount', 'ns', 'robot', { uid: 'sa-uid', deletionTimestamp: new Date(t0 - 30_000).toISOString() });
      assert.equal(await reasonFor(boundAuthenticator(), token), 'authenticated');
      store.put('ServiceAccount', 'ns', 'robot', { uid: 'sa-uid', deletionTimestamp: new Date(t0 - 61_000).toISOString() });
      assert.equal(await reasonFor(boundAuthenticator(), token), 'service account has been deleted');
    });

    it('whose bound pod is gone or was replaced', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken({ ...account, boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } });
      store.put('Pod', 'ns', 'web-0', { uid: 'other' });
      assert.equal(await reasonFor(boundAuthenticator(), token), 'pod UID does not match claim');
      store.remove('Pod', 'ns', 'web-0');
      assert.equal(await reasonFor(boundAuthenticator(), token), 'pod has been deleted');
    });

    it('whose bound secret is gone', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken({ ...account, boundObject: { kind: 'Secret', name: 'bound-secret', uid: 'secret-uid' } });
      store.remove('Secret', 'ns', 'bound-secret');
      assert.equal(await reasonFor(boundAuthenticator(), token), 'secret has been deleted');
    });

    it('when the store cannot answer', async () => {
      const { token } = issuerWith(rsa.privateKey).issueBoundToken(account);
      store.failing = true;
      assert.equal(await reasonFor(boundAuthenticator(), token), 'service account lookup failed');
    });

    it('whose sub does not match the kubernetes.io claim', async () => {
      const claims = { ...claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token), sub: 'system:serviceaccount:kube-system:admin' };
      assert.equal(await reasonFor(boundAuthenticator(), signJwt({ alg: 'RS256' }, claims, rsa.privateKey)), 'sub claim is invalid');
    });

    it('without the kubernetes.io claim', async () => {
      const claims = { ...claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token), 'kubernetes.io': undefined };
      assert.match(await reasonFor(boundAuthenticator(), signJwt({ alg: 'RS256' }, claims, rsa.privateKey)), /kubernetes.io claim is missing/);
    });
  });

  it('from another issuer, or not JWTs at all, are not ours (no opinion)', async () => {
    const claims = { ...claimsOf(issuerWith(rsa.privateKey).issueBoundToken(account).token), iss: 'https://idp.example' };
    assert.equal(await reasonFor(boundAuthenticator(), signJwt({ alg: 'RS256' }, claims, rsa.privateKey)), 'no-opinion');
    for (const token of ['abc', 'a.b.c', 'e30.e30.', '....']) assert.equal(await reasonFor(boundAuthenticator(), token), 'no-opinion', token);
  });
});

describe('legacy (secret-based) service-account tokens', () => {
  const robot = { namespace: 'ns', name: 'robot', uid: 'sa-uid' };

  it('authenticate, and with lookup only while the Secret holds this very token', async () => {
    const token = issuerWith(rsa.privateKey).issueLegacyToken(robot, 'robot-token');
    store.put('Secret', 'ns', 'robot-token', { uid: 's', token });
    const outcome = await legacyAuthenticator(true).authenticateToken(token);
    assert.deepEqual(outcome.kind === 'authenticated' && outcome.user, { username: 'system:serviceaccount:ns:robot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'], extra: {} });
    store.put('Secret', 'ns', 'robot-token', { uid: 's', token: 'another-token' });
    assert.equal(await reasonFor(legacyAuthenticator(true), token), 'token has been invalidated');
    store.remove('Secret', 'ns', 'robot-token');
    assert.equal(await reasonFor(legacyAuthenticator(true), token), 'token has been invalidated');
  });

  it('with lookup, are refused once the service account is gone or replaced', async () => {
    const token = issuerWith(rsa.privateKey).issueLegacyToken(robot, 'robot-token');
    store.put('Secret', 'ns', 'robot-token', { uid: 's', token });
    store.put('ServiceAccount', 'ns', 'robot', { uid: 'other' });
    assert.equal(await reasonFor(legacyAuthenticator(true), token), 'service account UID does not match claim');
    store.remove('ServiceAccount', 'ns', 'robot');
    assert.equal(await reasonFor(legacyAuthenticator(true), token), 'service account has been deleted');
  });

  it('report each accepted use so the wiring can label the Secret, and only accepted ones', async () => {
    const used: string[] = [];
    const auth = serviceAccountTokenAuthenticator({
      issuers: [legacyIssuer],
      keys: [rsa.publicKey],
      implicitAudiences: audiences,
      validator: legacyValidator({ lookup: true, getter: store, clock, onLegacyTokenUsed: (ns, name) => used.push(`${ns}/${name}`) }),
    });
    const token = issuerWith(rsa.privateKey).issueLegacyToken(robot, 'robot-token');
    store.put('Secret', 'ns', 'robot-token', { uid: 's', token });
    await auth.authenticateToken(token);
    store.remove('Secret', 'ns', 'robot-token');
    await auth.authenticateToken(token);
    assert.deepEqual(used, ['ns/robot-token']);
  });

  it('without lookup, stay valid after their objects are gone (--service-account-lookup=false)', async () => {
    const token = issuerWith(rsa.privateKey).issueLegacyToken(robot, 'robot-token');
    assert.equal(await reasonFor(legacyAuthenticator(false), token), 'authenticated');
  });

  it('are refused when a claim is missing or sub disagrees', async () => {
    const claims = claimsOf(issuerWith(rsa.privateKey).issueLegacyToken(robot, 'robot-token'));
    const without = (name: string) => signJwt({ alg: 'RS256' }, { ...claims, [name]: undefined }, rsa.privateKey);
    assert.equal(await reasonFor(legacyAuthenticator(false), without('kubernetes.io/serviceaccount/namespace')), 'namespace claim is missing');
    assert.equal(await reasonFor(legacyAuthenticator(false), without('kubernetes.io/serviceaccount/service-account.uid')), 'serviceAccountUID claim is missing');
    assert.equal(await reasonFor(legacyAuthenticator(false), signJwt({ alg: 'RS256' }, { ...claims, sub: 'system:serviceaccount:ns:other' }, rsa.privateKey)), 'sub claim is invalid');
  });

  it('signed by an untrusted key are refused', async () => {
    const claims = claimsOf(issuerWith(rsa.privateKey).issueLegacyToken(robot, 'robot-token'));
    assert.equal(await reasonFor(legacyAuthenticator(false), signJwt({ alg: 'RS256' }, claims, stranger.privateKey)), 'invalid signature');
  });
});

describe('TokenIssuer lifetimes and audiences (TokenRequest)', () => {
  const lifetime = (token: string) => (claimsOf(token)['exp'] as number) - (claimsOf(token)['iat'] as number);

  it('defaults to one hour and the API audiences', () => {
    const issued = issuerWith(rsa.privateKey).issueBoundToken(account);
    assert.equal(lifetime(issued.token), 3600);
    assert.deepEqual(issued.audiences, audiences);
    assert.equal(issued.expirationSeconds, 3600);
  });

  it('refuses less than 10 minutes and more than 2^32 seconds with a 422 naming the field', () => {
    for (const seconds of [599, 0, -1, 2 ** 32 + 1, 1.5]) {
      assert.throws(
        () => issuerWith(rsa.privateKey).issueBoundToken({ ...account, expirationSeconds: seconds }),
        (e: unknown) => e instanceof StatusError && e.code === 422 && e.details?.causes?.[0]?.field === 'spec.expirationSeconds',
        String(seconds),
      );
    }
    assert.equal(lifetime(issuerWith(rsa.privateKey).issueBoundToken({ ...account, expirationSeconds: 600 }).token), 600);
  });

  it('caps the lifetime at --service-account-max-token-expiration', () => {
    const issued = issuerWith(rsa.privateKey, { maxExpirationSeconds: 7200 }).issueBoundToken({ ...account, expirationSeconds: 86_400 });
    assert.equal(lifetime(issued.token), 7200);
    assert.equal(issued.expirationSeconds, 7200);
  });

  it('extends the admission plugin lifetime (3607 s) to a year with warnafter, unless disabled', () => {
    const pod = { kind: 'Pod' as const, name: 'web', uid: 'pod-1' };
    const extended = issuerWith(rsa.privateKey).issueBoundToken({ ...account, expirationSeconds: 3607, boundObject: pod });
    assert.equal(lifetime(extended.token), 365 * 86_400);
    assert.equal((claimsOf(extended.token)['kubernetes.io'] as { warnafter: number }).warnafter, t0 / 1000 + 3607);
    const plain = issuerWith(rsa.privateKey, { extendExpiration: false }).issueBoundToken({ ...account, expirationSeconds: 3607, boundObject: pod });
    assert.equal(lifetime(plain.token), 3607);
  });

  it('extends only a pod-bound token for the API audiences, after the cap (kube\'s TokenREST)', () => {
    const pod = { kind: 'Pod' as const, name: 'web', uid: 'pod-1' };
    assert.equal(lifetime(issuerWith(rsa.privateKey).issueBoundToken({ ...account, expirationSeconds: 3607 }).token), 3607, 'not bound to a pod');
    assert.equal(lifetime(issuerWith(rsa.privateKey).issueBoundToken({ ...account, expirationSeconds: 3607, boundObject: pod, audiences: ['vault'] }).token), 3607, 'another audience');
    assert.equal(lifetime(issuerWith(rsa.privateKey, { maxExpirationSeconds: 1200 }).issueBoundToken({ ...account, expirationSeconds: 3607, boundObject: pod }).token), 1200, 'the cap comes first');
  });

  it('keeps requested audiences', () => {
    assert.deepEqual(claimsOf(issuerWith(rsa.privateKey).issueBoundToken({ ...account, audiences: ['a', 'b'] }).token)['aud'], ['a', 'b']);
  });

  it('derives kid as base64url(SHA-256(PKIX DER)) of the public key, from either half', () => {
    const kid = keyIdFromPublicKey(rsa.privateKey);
    assert.equal(kid, keyIdFromPublicKey(createPublicKey(rsa.privateKey)));
    assert.match(kid, /^[A-Za-z0-9_-]{43}$/);
  });
});
