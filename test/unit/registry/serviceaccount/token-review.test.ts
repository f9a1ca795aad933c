// TokenReview (authentication.k8s.io/v1) as kube-apiserver 1.28 answers it: create-only, nothing
// stored, the token put through the server's bearer-token chain.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { reviewError } from '../../../../internal/registry/authentication/tokenreviews.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { serviceAccount, testIssuer, tokenOptions, tokenRegistry, writeKeyFiles, type TokenRegistry } from './token-fixture.ts';

const hourMs = 3_600_000;

async function mint(r: TokenRegistry, spec: Record<string, unknown> = {}): Promise<string> {
  const call = { namespace: 'apps', name: 'builder', path: '', query: new URLSearchParams(), dryRun: false, fieldManager: 'test' };
  const reply = await r.store('serviceaccounts').subresources['token']!.create!(call, { metadata: {}, spec });
  return (reply.object as { status: { token: string } }).status.token;
}

async function review(r: TokenRegistry, spec: Record<string, unknown>): Promise<{ metadata: KObject['metadata']; spec: unknown; status: Record<string, unknown> }> {
  const input = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec };
  const result = await r.store('authentication.k8s.io/tokenreviews').create(undefined, input, { fieldManager: 'test' });
  assert.equal(result.created, true);
  return result.object as never;
}

async function fixture(t: TestContext): Promise<{ r: TokenRegistry; past: TokenRegistry }> {
  const keys = writeKeyFiles(t);
  const r = await tokenRegistry(t, tokenOptions(keys));
  await serviceAccount(r, 'apps', 'builder');
  // The same keys two hours ago: its tokens of one hour are expired now.
  const past = await tokenRegistry(t, tokenOptions(keys), () => Date.now() - 2 * hourMs);
  await serviceAccount(past, 'apps', 'builder');
  return { r, past };
}

test('TokenReview of a good token: authenticated, the user with system:authenticated, the audiences', async (t) => {
  const { r } = await fixture(t);
  const token = await mint(r);
  const revision = await r.storage.currentRevision();
  const answer = await review(r, { token });
  assert.equal(await r.storage.currentRevision(), revision, 'nothing stored');
  const account = await r.store('serviceaccounts').get('apps', 'builder');
  assert.deepEqual(answer.metadata, {});
  assert.deepEqual(answer.status, {
    authenticated: true,
    user: { username: 'system:serviceaccount:apps:builder', uid: account.metadata.uid, groups: ['system:serviceaccounts', 'system:serviceaccounts:apps', 'system:authenticated'] },
    audiences: [testIssuer],
  });
  assert.deepEqual((await review(r, { token: await mint(r, { audiences: ['vault', 'db'] }), audiences: ['db'] })).status.audiences, ['db']);
});

test('TokenReview of an expired, a garbage and a wrong-audience token: not authenticated, kube\'s errors', async (t) => {
  const { r, past } = await fixture(t);
  // The past registry's ServiceAccount has another uid: make the token name this registry's one.
  const expired = await mint(past);
  const answer = await review(r, { token: expired });
  assert.equal(answer.status['authenticated'], undefined);
  assert.deepEqual(answer.status['user'], {});
  assert.match(String(answer.status['error']), /^\[invalid bearer token, .*service account token has expired/);
  assert.deepEqual((await review(r, { token: 'not-a-token-at-all' })).status, { user: {}, error: 'invalid bearer token' });
  const other = await review(r, { token: await mint(r, { audiences: ['vault'] }) });
  assert.equal(other.status['authenticated'], undefined);
  assert.match(String(other.status['error']), /token audiences are invalid/);
});

test('TokenReview without a token is kube\'s 400', async (t) => {
  const { r } = await fixture(t);
  await assert.rejects(review(r, {}), (err: unknown) => err instanceof StatusError && err.code === 400 && err.message === 'token is required for TokenReview in authentication');
});

test('status.error de-duplicates and drops authenticator names, as kube\'s aggregate error', () => {
  assert.equal(reviewError({ kind: 'no-opinion' }), 'invalid bearer token');
  assert.equal(reviewError({ kind: 'failed', reason: 'serviceaccount: service account token has expired' }), '[invalid bearer token, service account token has expired]');
  assert.equal(reviewError({ kind: 'failed', reason: 'token-file: invalid bearer token; webhook: denied' }), '[invalid bearer token, denied]');
});
