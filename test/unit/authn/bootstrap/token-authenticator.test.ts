// kube's bootstrap token authenticator (plugin/pkg/auth/authenticator/token/bootstrap): a token is
// its Secret's user only when every condition holds; any unfit Secret is "not mine".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthenticationOutcome } from '../../../../internal/authn/authenticator.ts';
import { bootstrapTokenGroups, parseBootstrapToken, tokenExpiration, type BootstrapTokenSecret } from '../../../../internal/authn/bootstrap/bootstrap-token.ts';
import { bootstrapTokenAuthenticator, type BootstrapTokenSecretGetter } from '../../../../internal/authn/bootstrap/token-authenticator.ts';

const t0 = Date.UTC(2026, 10, 27, 12, 0, 0);
const token = 'abcdef.0123456789abcdef';

function tokenSecret(overrides: Partial<BootstrapTokenSecret> = {}, data: Record<string, string | undefined> = {}): BootstrapTokenSecret {
  const base: Record<string, string | undefined> = {
    'token-id': 'abcdef',
    'token-secret': '0123456789abcdef',
    'usage-bootstrap-authentication': 'true',
    expiration: '2026-11-27T13:00:00Z',
    ...data,
  };
  const clean = Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
  return { namespace: 'kube-system', name: 'bootstrap-token-abcdef', uid: 'u1', type: 'bootstrap.kubernetes.io/token', data: clean, ...overrides };
}

function getterOf(secrets: readonly BootstrapTokenSecret[], reads: string[] = []): BootstrapTokenSecretGetter {
  return {
    getSecret(namespace, name) {
      reads.push(`${namespace}/${name}`);
      return Promise.resolve(secrets.find((s) => s.namespace === namespace && s.name === name));
    },
  };
}

async function authenticate(secrets: readonly BootstrapTokenSecret[], presented = token, nowMs = t0): Promise<AuthenticationOutcome> {
  return bootstrapTokenAuthenticator({ getter: getterOf(secrets), clock: () => nowMs }).authenticateToken(presented);
}

describe('bootstrap token authenticator', () => {
  it('a valid token is system:bootstrap:<id> in system:bootstrappers and its extra groups, sorted', async () => {
    const outcome = await authenticate([tokenSecret({}, { 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token,system:bootstrappers:a' })]);
    assert.deepEqual(outcome, {
      kind: 'authenticated',
      user: { username: 'system:bootstrap:abcdef', uid: '', groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:kubeadm:default-node-token'], extra: {} },
    });
  });

  it('a token in orch-system works too; kube-system is read first and wins', async () => {
    const reads: string[] = [];
    const inOrch = tokenSecret({ namespace: 'orch-system' });
    const outcome = await bootstrapTokenAuthenticator({ getter: getterOf([inOrch], reads), clock: () => t0 }).authenticateToken(token);
    assert.equal(outcome.kind, 'authenticated');
    assert.deepEqual(reads, ['kube-system/bootstrap-token-abcdef', 'orch-system/bootstrap-token-abcdef']);
    const unfitInKubeSystem = tokenSecret({}, { 'usage-bootstrap-authentication': 'false' });
    assert.equal((await authenticate([unfitInKubeSystem, inOrch])).kind, 'no-opinion', 'the kube-system Secret decides');
  });

  const refused: [string, BootstrapTokenSecret][] = [
    ['a wrong secret', tokenSecret({}, { 'token-secret': 'fedcba9876543210' })],
    ['an expired token', tokenSecret({}, { expiration: '2026-11-27T11:59:59Z' })],
    ['an unparseable expiration (counts as expired)', tokenSecret({}, { expiration: 'tomorrow' })],
    ['a date that does not exist (Go cannot parse it: expired)', tokenSecret({}, { expiration: '2099-02-31T00:00:00Z' })],
    ['hour 24 (Go cannot parse it: expired)', tokenSecret({}, { expiration: '2099-01-01T24:00:00Z' })],
    ['a Secret being deleted', tokenSecret({ deletionTimestamp: '2026-11-27T11:00:00Z' })],
    ['usage-bootstrap-authentication not "true"', tokenSecret({}, { 'usage-bootstrap-authentication': 'yes' })],
    ['usage-bootstrap-authentication missing', tokenSecret({}, { 'usage-bootstrap-authentication': undefined })],
    ['an extra group outside system:bootstrappers:', tokenSecret({}, { 'auth-extra-groups': 'system:bootstrappers:ok,system:masters' })],
    ['an extra group ending in a colon', tokenSecret({}, { 'auth-extra-groups': 'system:bootstrappers:x:' })],
    ['a token-id that is not the name\'s id', tokenSecret({}, { 'token-id': 'zzzzzz' })],
    ['a Secret of another type', tokenSecret({ type: 'Opaque' })],
  ];
  for (const [what, secret] of refused) {
    it(`refuses ${what} (no opinion: the bearer filter answers 401)`, async () => {
      assert.equal((await authenticate([secret])).kind, 'no-opinion');
    });
  }

  it('has no opinion on tokens of another format, without reading anything', async () => {
    const reads: string[] = [];
    const authenticator = bootstrapTokenAuthenticator({ getter: getterOf([tokenSecret()], reads), clock: () => t0 });
    for (const other of ['ABCDEF.0123456789abcdef', 'abcdef.0123456789abcde', 'abcdef:0123456789abcdef', `${token}\n`, 'a.b.c']) {
      assert.equal((await authenticator.authenticateToken(other)).kind, 'no-opinion', other);
    }
    assert.deepEqual(reads, []);
  });

  it('has no opinion when no Secret backs the token, and fails when the store cannot answer', async () => {
    assert.equal((await authenticate([tokenSecret({ name: 'bootstrap-token-zzzzzz' })])).kind, 'no-opinion');
    const broken: BootstrapTokenSecretGetter = { getSecret: () => Promise.reject(new Error('store unavailable')) };
    const outcome = await bootstrapTokenAuthenticator({ getter: broken, clock: () => t0 }).authenticateToken(token);
    assert.equal(outcome.kind, 'failed');
    assert.ok(outcome.kind === 'failed' && !outcome.reason.includes('0123456789abcdef'), 'the reason never carries the secret');
  });

  it('is refused from the moment of expiry', async () => {
    const secret = tokenSecret({}, { expiration: '2026-11-27T13:00:00Z' });
    const expiry = Date.parse('2026-11-27T13:00:00Z');
    assert.equal((await authenticate([secret], token, expiry - 1)).kind, 'authenticated');
    assert.equal((await authenticate([secret], token, expiry)).kind, 'no-opinion');
  });
});

describe('bootstrap token format', () => {
  it('parses <6>.<16> lowercase alphanumerics only', () => {
    assert.deepEqual(parseBootstrapToken(token), { id: 'abcdef', secret: '0123456789abcdef' });
    assert.equal(parseBootstrapToken('abcdef.0123456789ABCDEF'), undefined);
  });

  it('expiration: RFC 3339 with offsets; none never expires', () => {
    assert.deepEqual(tokenExpiration(tokenSecret({}, { expiration: '2026-11-27T14:00:00+01:00' }), t0), { expired: false, remainingMs: 3_600_000 });
    assert.deepEqual(tokenExpiration(tokenSecret({}, { expiration: undefined }), t0), { expired: false });
    assert.deepEqual(tokenExpiration(tokenSecret({}, { expiration: '2026-11-27 14:00:00' }), t0), { expired: true });
  });

  it('groups: duplicates folded, a 257-character name refused', () => {
    assert.deepEqual(bootstrapTokenGroups(tokenSecret({}, { 'auth-extra-groups': 'system:bootstrappers:a,system:bootstrappers:a' })), ['system:bootstrappers', 'system:bootstrappers:a']);
    assert.equal(bootstrapTokenGroups(tokenSecret({}, { 'auth-extra-groups': `system:bootstrappers:${'a'.repeat(257)}` })), undefined);
  });
});
