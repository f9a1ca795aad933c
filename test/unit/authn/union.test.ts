// The chain's semantics: kube's union (first success wins, failures do not stop the others but
// fail the request when nobody succeeds), system:authenticated, anonymous, the bearer header.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anonymousAuthenticator, anonymousUser } from '../../../internal/authn/anonymous.ts';
import { authenticateRequest } from '../../../internal/authn/authenticate-request.ts';
import { authenticatedGroupAdder } from '../../../internal/authn/authenticated-group.ts';
import { authenticated, failed, noOpinion } from '../../../internal/authn/authenticator.ts';
import type { AuthenticationOutcome, RequestAuthenticator, TokenAuthenticator } from '../../../internal/authn/authenticator.ts';
import { bearerTokenAuthenticator, parseBearerToken } from '../../../internal/authn/bearertoken/bearer-token.ts';
import { bearerTokenBytesMax } from '../../../internal/authn/limits.ts';
import { requestAuthenticatorUnion, tokenAuthenticatorUnion, withFallback } from '../../../internal/authn/union.ts';
import type { UserInfo } from '../../../internal/authn/user-info.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';

const alice: UserInfo = { username: 'alice', uid: '1', groups: ['dev'], extra: {} };
const bob: UserInfo = { username: 'bob', uid: '2', groups: [], extra: {} };

function fixed(name: string, outcome: AuthenticationOutcome, calls: string[] = []): RequestAuthenticator {
  return { name, authenticate: () => (calls.push(name), Promise.resolve(outcome)) };
}

const tokens = (map: Record<string, UserInfo>): TokenAuthenticator => ({
  name: 'map',
  authenticateToken: (t) => Promise.resolve(map[t] === undefined ? noOpinion : authenticated(map[t]!)),
});

const request = (headers: Record<string, string> = {}) => ({ headers, peerCertificates: [] });

/** The chain as buildAuthenticator assembles it, over `members`. */
function chain(members: RequestAuthenticator[], anonymous: boolean): RequestAuthenticator {
  const inner = authenticatedGroupAdder(requestAuthenticatorUnion(members));
  return anonymous ? withFallback(inner, anonymousAuthenticator()) : inner;
}

describe('authenticator union', () => {
  it('answers with the first member that authenticates and asks no further', async () => {
    const calls: string[] = [];
    const union = requestAuthenticatorUnion([fixed('a', noOpinion, calls), fixed('b', authenticated(alice), calls), fixed('c', authenticated(bob), calls)]);
    const outcome = await union.authenticate(request());
    assert.deepEqual(outcome, authenticated(alice));
    assert.deepEqual(calls, ['a', 'b']);
  });

  it('keeps trying after a failure, as kube does (a bad proxy certificate does not hide a good token)', async () => {
    const union = requestAuthenticatorUnion([fixed('a', failed('bad cert')), fixed('b', authenticated(bob))]);
    assert.deepEqual(await union.authenticate(request()), authenticated(bob));
  });

  it('fails when nobody authenticated and somebody failed, naming each failure for the log', async () => {
    const union = requestAuthenticatorUnion([fixed('a', failed('one')), fixed('b', noOpinion), fixed('c', failed('two'))]);
    assert.deepEqual(await union.authenticate(request()), failed('a: one; c: two'));
  });

  it('has no opinion when no member has one', async () => {
    assert.deepEqual(await requestAuthenticatorUnion([fixed('a', noOpinion)]).authenticate(request()), noOpinion);
  });

  it('token unions follow the same rules', async () => {
    const failing: TokenAuthenticator = { name: 'f', authenticateToken: () => Promise.resolve(failed('x')) };
    assert.deepEqual(await tokenAuthenticatorUnion([failing, tokens({ t: alice })]).authenticateToken('t'), authenticated(alice));
    assert.deepEqual(await tokenAuthenticatorUnion([failing, tokens({})]).authenticateToken('t'), failed('f: x'));
  });
});

describe('system:authenticated and anonymous', () => {
  it('adds system:authenticated to every authenticated user', async () => {
    const outcome = await chain([fixed('a', authenticated(alice))], true).authenticate(request());
    assert.equal(outcome.kind, 'authenticated');
    assert.deepEqual(outcome.kind === 'authenticated' && outcome.user.groups, ['dev', 'system:authenticated']);
  });

  it('does not add it twice, nor to a user already in system:unauthenticated, nor to system:anonymous', async () => {
    for (const user of [
      { ...alice, groups: ['system:authenticated'] },
      { ...alice, groups: ['system:unauthenticated'] },
      { ...alice, username: 'system:anonymous', groups: [] },
    ]) {
      const outcome = await chain([fixed('a', authenticated(user))], false).authenticate(request());
      assert.deepEqual(outcome.kind === 'authenticated' && outcome.user.groups, user.groups);
    }
  });

  it('gives a request without credentials the anonymous user, without system:authenticated', async () => {
    const outcome = await chain([fixed('a', noOpinion)], true).authenticate(request());
    assert.deepEqual(outcome, authenticated(anonymousUser));
    assert.deepEqual(anonymousUser.groups, ['system:unauthenticated']);
    assert.equal(anonymousUser.username, 'system:anonymous');
  });

  it('never lets a failed credential through as anonymous', async () => {
    assert.deepEqual(await chain([fixed('a', failed('bad'))], true).authenticate(request()), failed('a: bad'));
  });

  it('without anonymous, a request without credentials has no opinion and authenticateRequest answers 401', async () => {
    const authenticator = chain([fixed('a', noOpinion)], false);
    assert.deepEqual(await authenticator.authenticate(request()), noOpinion);
    await assert.rejects(authenticateRequest(authenticator, request()), (e: unknown) => e instanceof StatusError && e.code === 401);
  });

  it('authenticateRequest answers a bare 401 Unauthorized and logs the reason', async () => {
    const logged: string[] = [];
    const error = await authenticateRequest(chain([fixed('x509', failed('x509: certificate has expired or is not yet valid'))], true), request(), (r) => logged.push(r)).catch((e: unknown) => e);
    assert.ok(error instanceof StatusError);
    assert.deepEqual(error.toStatus(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    assert.deepEqual(logged, ['x509: x509: certificate has expired or is not yet valid']);
  });
});

describe('bearer token header', () => {
  it('reads `Bearer <token>` with any case of the scheme and surrounding space', () => {
    assert.deepEqual(parseBearerToken('Bearer abc'), { kind: 'token', token: 'abc' });
    assert.deepEqual(parseBearerToken('  bEaReR abc  '), { kind: 'token', token: 'abc' });
  });

  it('ignores other schemes, a missing token and an empty one', () => {
    for (const value of ['', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer  abc', 'Bearerabc', 'Token abc']) {
      assert.deepEqual(parseBearerToken(value), { kind: 'none' }, value);
    }
  });

  it('takes the second word only, as kube splits at single spaces', () => {
    assert.deepEqual(parseBearerToken('Bearer abc def'), { kind: 'token', token: 'abc' });
  });

  it('refuses a token longer than the limit', () => {
    assert.deepEqual(parseBearerToken(`Bearer ${'a'.repeat(bearerTokenBytesMax + 1)}`), { kind: 'too-long' });
  });

  it('a known token authenticates', async () => {
    const outcome = await bearerTokenAuthenticator(tokens({ good: alice })).authenticate(request({ authorization: 'Bearer good' }));
    assert.deepEqual(outcome, authenticated(alice));
  });

  it('an unknown token is a failure, so it is 401 even with anonymous on', async () => {
    const authenticator = chain([bearerTokenAuthenticator(tokens({ good: alice }))], true);
    assert.equal((await authenticator.authenticate(request({ authorization: 'Bearer wrong' }))).kind, 'failed');
  });

  it('a malformed Authorization header is no credential: anonymous when allowed', async () => {
    const authenticator = chain([bearerTokenAuthenticator(tokens({ good: alice }))], true);
    for (const authorization of ['Basic Zm9vOmJhcg==', 'Bearer', 'good']) {
      assert.deepEqual(await authenticator.authenticate(request({ authorization })), authenticated(anonymousUser), authorization);
    }
  });

  it('an over-long token is a failure without calling the token authenticators', async () => {
    let called = false;
    const spy: TokenAuthenticator = { name: 'spy', authenticateToken: () => ((called = true), Promise.resolve(noOpinion)) };
    const outcome = await bearerTokenAuthenticator(spy).authenticate(request({ authorization: `Bearer ${'a'.repeat(bearerTokenBytesMax + 1)}` }));
    assert.equal(outcome.kind, 'failed');
    assert.equal(called, false);
  });

  it('reads the first value when the header came as a list (headersDistinct)', async () => {
    const outcome = await bearerTokenAuthenticator(tokens({ good: alice })).authenticate({ headers: { authorization: ['Bearer good', 'Bearer other'] }, peerCertificates: [] });
    assert.deepEqual(outcome, authenticated(alice));
  });
});
