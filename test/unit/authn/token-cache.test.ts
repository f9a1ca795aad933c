// The token chain's cache: successes reused for the TTL, bounded in size, never holding a token.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticated, failed, noOpinion } from '../../../internal/authn/authenticator.ts';
import type { AuthenticationOutcome, TokenAuthenticator } from '../../../internal/authn/authenticator.ts';
import { TokenResultCache, cachedTokenAuthenticator } from '../../../internal/authn/token-cache.ts';

const jane = { username: 'jane', uid: '', groups: [], extra: {} };

function counting(answer: (token: string) => AuthenticationOutcome) {
  const calls: string[] = [];
  const inner: TokenAuthenticator = { name: 'inner', authenticateToken: (t) => (calls.push(t), Promise.resolve(answer(t))) };
  return { inner, calls };
}

describe('token cache', () => {
  it('reuses a success for the success TTL, then asks again (a revoked token lives that long)', async () => {
    let now = 0;
    let valid = true;
    const { inner, calls } = counting(() => (valid ? authenticated(jane) : failed('revoked')));
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 10_000, failureTtlMs: 0 }, () => now);
    assert.equal((await cached.authenticateToken('t')).kind, 'authenticated');
    valid = false;
    now = 9_999;
    assert.equal((await cached.authenticateToken('t')).kind, 'authenticated');
    now = 10_000;
    assert.equal((await cached.authenticateToken('t')).kind, 'failed');
    assert.equal(calls.length, 2);
  });

  it('does not cache failures with a failure TTL of 0', async () => {
    const { inner, calls } = counting(() => noOpinion);
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 10_000, failureTtlMs: 0 }, () => 0);
    await cached.authenticateToken('t');
    await cached.authenticateToken('t');
    assert.equal(calls.length, 2);
  });

  it('keeps audiences apart', async () => {
    const { inner, calls } = counting(() => authenticated(jane));
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 10_000, failureTtlMs: 0 }, () => 0);
    await cached.authenticateToken('t', ['a']);
    await cached.authenticateToken('t', ['b']);
    await cached.authenticateToken('t', ['a']);
    assert.equal(calls.length, 2);
  });

  it('is bounded: the oldest entry goes first', async () => {
    const cache = new TokenResultCache(() => 0, 3);
    for (const t of ['a', 'b', 'c', 'd']) await cache.get(t, [], () => Promise.resolve({ outcome: authenticated(jane), ttlMs: 1000 }));
    assert.equal(cache.size, 3);
    let recomputed = false;
    await cache.get('a', [], () => ((recomputed = true), Promise.resolve({ outcome: authenticated(jane), ttlMs: 1000 })));
    assert.equal(recomputed, true);
  });

  it('passes through untouched with both TTLs 0', () => {
    const { inner } = counting(() => noOpinion);
    assert.equal(cachedTokenAuthenticator(inner, { successTtlMs: 0, failureTtlMs: 0 }, () => 0), inner);
  });
});
