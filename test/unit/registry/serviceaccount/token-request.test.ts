// serviceaccounts/{name}/token (TokenRequest) as kube-apiserver 1.28 answers it, with tokens
// minted and checked by the real authentication floor over the same stores.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import type { SubresourceReply } from '../../../../internal/registry/generic/subresource-store.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { jwtClaims, serviceAccount, testIssuer, tokenOptions, tokenRegistry, writeKeyFiles, type TokenRegistry } from './token-fixture.ts';

async function fixture(t: TestContext, extra: Parameters<typeof tokenOptions>[1] = {}): Promise<TokenRegistry> {
  const r = await tokenRegistry(t, tokenOptions(writeKeyFiles(t), extra));
  await serviceAccount(r, 'apps', 'builder');
  return r;
}

function requestToken(r: TokenRegistry, namespace: string, name: string, spec: Record<string, unknown> = {}, metadata: KObject['metadata'] = {}): Promise<SubresourceReply> {
  const token = r.store('serviceaccounts').subresources['token'];
  assert.ok(token?.create, 'serviceaccounts/token serves create');
  const call = { namespace, name, path: '', query: new URLSearchParams(), dryRun: false, fieldManager: 'test' };
  return token.create(call, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata, spec });
}

async function statusOf(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  assert.fail('expected a StatusError');
}

function tokenOf(reply: SubresourceReply): string {
  return (reply.object as { status: { token: string } }).status.token;
}

async function pod(r: TokenRegistry, name: string, serviceAccountName = 'builder'): Promise<KObject> {
  const spec = { serviceAccountName, containers: [{ name: 'c', image: 'busybox:1' }] };
  return (await r.store('pods').create('apps', { metadata: { name }, spec }, { fieldManager: 'test' })).object;
}

test('a TokenRequest answers a token the authenticator accepts as the ServiceAccount, with the default audience and lifetime', async (t) => {
  const r = await fixture(t);
  const account = await r.store('serviceaccounts').get('apps', 'builder');
  const before = Math.floor(Date.now() / 1000);
  const reply = await requestToken(r, 'apps', 'builder');
  assert.equal(reply.code, 201);
  const object = reply.object as { kind: string; apiVersion: string; metadata: KObject['metadata']; spec: Record<string, unknown>; status: { token: string; expirationTimestamp: string } };
  assert.equal(object.kind, 'TokenRequest');
  assert.equal(object.apiVersion, 'authentication.k8s.io/v1');
  assert.equal(object.metadata.name, 'builder');
  assert.equal(object.metadata.namespace, 'apps');
  assert.match(object.metadata.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(object.spec, { audiences: [testIssuer], expirationSeconds: 3600 });
  const expires = Date.parse(object.status.expirationTimestamp) / 1000;
  assert.ok(expires >= before + 3600 && expires <= before + 3602, object.status.expirationTimestamp);
  const claims = jwtClaims(object.status.token);
  assert.equal(claims['iss'], testIssuer);
  assert.equal(claims['sub'], 'system:serviceaccount:apps:builder');
  assert.equal(claims['exp'], expires);
  assert.deepEqual(claims['kubernetes.io'], { namespace: 'apps', serviceaccount: { name: 'builder', uid: account.metadata.uid } });
  const outcome = await r.authentication.tokenAuthenticator!.authenticateToken(object.status.token, r.authentication.apiAudiences);
  assert.equal(outcome.kind, 'authenticated');
  assert.ok(outcome.kind === 'authenticated');
  assert.equal(outcome.user.username, 'system:serviceaccount:apps:builder');
  assert.equal(outcome.user.uid, account.metadata.uid);
  assert.deepEqual(outcome.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:apps', 'system:authenticated']);
});

test('a token bound to a pod carries the pod in its claims and its user, and dies with the pod', async (t) => {
  const r = await fixture(t);
  const p = await pod(r, 'web');
  const reply = await requestToken(r, 'apps', 'builder', { audiences: ['vault'], expirationSeconds: 600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: p.metadata.uid } });
  const token = tokenOf(reply);
  assert.deepEqual((reply.object as { spec: unknown }).spec, { audiences: ['vault'], expirationSeconds: 600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: p.metadata.uid } });
  const claims = jwtClaims(token);
  assert.deepEqual(claims['aud'], ['vault']);
  assert.deepEqual((claims['kubernetes.io'] as { pod: unknown }).pod, { name: 'web', uid: p.metadata.uid });
  const outcome = await r.authentication.tokenAuthenticator!.authenticateToken(token, ['vault']);
  assert.ok(outcome.kind === 'authenticated', JSON.stringify(outcome));
  assert.deepEqual(outcome.user.extra, { 'authentication.kubernetes.io/pod-name': ['web'], 'authentication.kubernetes.io/pod-uid': [p.metadata.uid ?? ''] });
  assert.deepEqual(outcome.audiences, ['vault']);
  assert.equal((await r.authentication.tokenAuthenticator!.authenticateToken(token, [testIssuer])).kind, 'failed', 'not valid for another audience');
  // Force the delete through: the pod has no node to confirm its containers stopped.
  await r.store('pods').delete('apps', 'web', { gracePeriodSeconds: 0 });
  const refused = await r.authentication.tokenAuthenticator!.authenticateToken(token, ['vault']);
  assert.equal(refused.kind, 'failed');
});

test('a token bound to a Secret names it; without a uid in the reference the live uid is used', async (t) => {
  const r = await fixture(t);
  const secret = (await r.store('secrets').create('apps', { metadata: { name: 'creds' }, data: {} }, { fieldManager: 'test' })).object;
  const token = tokenOf(await requestToken(r, 'apps', 'builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'creds' } }));
  assert.deepEqual((jwtClaims(token)['kubernetes.io'] as { secret: unknown }).secret, { name: 'creds', uid: secret.metadata.uid });
  assert.equal((await r.authentication.tokenAuthenticator!.authenticateToken(token)).kind, 'authenticated');
  await r.store('secrets').delete('apps', 'creds', {});
  assert.equal((await r.authentication.tokenAuthenticator!.authenticateToken(token)).kind, 'failed');
});

test('a token of a deleted ServiceAccount is refused, also once one of the same name is back', async (t) => {
  const r = await fixture(t);
  const token = tokenOf(await requestToken(r, 'apps', 'builder'));
  assert.equal((await r.authentication.tokenAuthenticator!.authenticateToken(token)).kind, 'authenticated');
  await r.store('serviceaccounts').delete('apps', 'builder', {});
  const gone = await r.authentication.tokenAuthenticator!.authenticateToken(token);
  assert.ok(gone.kind === 'failed');
  assert.match(gone.reason, /service account has been deleted/);
  await serviceAccount(r, 'apps', 'builder');
  const recreated = await r.authentication.tokenAuthenticator!.authenticateToken(token);
  assert.ok(recreated.kind === 'failed');
  assert.match(recreated.reason, /UID does not match/);
});

test('expirationSeconds: at least 10 minutes and at most 2^32 seconds, 422 naming spec.expirationSeconds as kube does', async (t) => {
  const r = await fixture(t);
  const short = await statusOf(requestToken(r, 'apps', 'builder', { expirationSeconds: 599 }));
  assert.equal(short.code, 422);
  assert.equal(short.message, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
  assert.deepEqual(short.details?.causes, [{ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: 'Invalid value: 599: may not specify a duration less than 10 minutes' }]);
  const long = await statusOf(requestToken(r, 'apps', 'builder', { expirationSeconds: 2 ** 32 + 1 }));
  assert.equal(long.code, 422);
  assert.match(long.message, /spec\.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2\^32 seconds/);
  assert.equal((await requestToken(r, 'apps', 'builder', { expirationSeconds: 600 })).code, 201, '10 minutes exactly is allowed');
  const year = (await requestToken(r, 'apps', 'builder', { expirationSeconds: 2 ** 32 })).object as { spec: { expirationSeconds: number } };
  assert.equal(year.spec.expirationSeconds, 2 ** 32);
});

test('--service-account-max-token-expiration shortens a longer request, with kube\'s warning', async (t) => {
  const r = await fixture(t, { maxTokenExpirationSeconds: 1200 });
  const reply = await requestToken(r, 'apps', 'builder', { expirationSeconds: 7200 });
  assert.deepEqual(reply.warnings, ['requested expiration of 7200 seconds shortened to 1200 seconds']);
  const object = reply.object as { spec: { expirationSeconds: number }; status: { token: string; expirationTimestamp: string } };
  assert.equal(object.spec.expirationSeconds, 1200);
  assert.equal(jwtClaims(object.status.token)['exp'], Date.parse(object.status.expirationTimestamp) / 1000);
  assert.deepEqual((await requestToken(r, 'apps', 'builder', { expirationSeconds: 1200 })).warnings, []);
});

test('a projected-volume token (3607 s, bound to a pod) lives a year but reports the hour asked for', async (t) => {
  const r = await fixture(t);
  const p = await pod(r, 'web');
  const reply = await requestToken(r, 'apps', 'builder', { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: p.metadata.uid } });
  const object = reply.object as { spec: { expirationSeconds: number }; status: { token: string; expirationTimestamp: string } };
  assert.equal(object.spec.expirationSeconds, 3607);
  const claims = jwtClaims(object.status.token);
  const reported = Date.parse(object.status.expirationTimestamp) / 1000;
  assert.equal((claims['kubernetes.io'] as { warnafter: number }).warnafter, reported);
  assert.equal(claims['exp'], (claims['iat'] as number) + 365 * 24 * 3600);
});

test('a lifetime capped to exactly 3607 s is extended like a projected volume\'s, and reported as the cap', async (t) => {
  const r = await fixture(t, { maxTokenExpirationSeconds: 3607 });
  const p = await pod(r, 'web');
  const reply = await requestToken(r, 'apps', 'builder', { expirationSeconds: 7200, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } });
  assert.deepEqual(reply.warnings, ['requested expiration of 7200 seconds shortened to 3607 seconds']);
  const object = reply.object as { spec: { expirationSeconds: number }; status: { token: string } };
  assert.equal(object.spec.expirationSeconds, 3607);
  const claims = jwtClaims(object.status.token);
  assert.equal(claims['exp'], (claims['iat'] as number) + 365 * 24 * 3600);
  assert.equal(((claims['kubernetes.io'] as { pod: { uid: string } }).pod).uid, p.metadata.uid);
  const unbound = jwtClaims(tokenOf(await requestToken(r, 'apps', 'builder', { expirationSeconds: 3607 })));
  assert.equal((unbound['exp'] as number) - (unbound['iat'] as number), 3607, 'a token bound to no pod is never extended');
});

test('refusals: missing ServiceAccount or bound object 404, wrong kind or pod of another account 400, stale uid 409, contradicting metadata 422', async (t) => {
  const r = await fixture(t);
  const missing = await statusOf(requestToken(r, 'apps', 'nobody'));
  assert.equal(missing.code, 404);
  assert.equal(missing.message, 'serviceaccounts "nobody" not found');
  const noPod = await statusOf(requestToken(r, 'apps', 'builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ghost' } }));
  assert.equal(noPod.code, 404);
  assert.equal(noPod.message, 'pods "ghost" not found');
  const kind = await statusOf(requestToken(r, 'apps', 'builder', { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } }));
  assert.equal(kind.code, 400);
  assert.equal(kind.message, 'cannot bind token to object of type /v1, Kind=ConfigMap');
  await pod(r, 'other', 'someone-else');
  const foreign = await statusOf(requestToken(r, 'apps', 'builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } }));
  assert.equal(foreign.code, 400);
  assert.equal(foreign.message, 'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.');
  await pod(r, 'web');
  const stale = await statusOf(requestToken(r, 'apps', 'builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: 'not-the-uid' } }));
  assert.equal(stale.code, 409);
  assert.equal(stale.message, 'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (not-the-uid) does not match the UID in record. The object might have been deleted and then recreated');
  const named = await statusOf(requestToken(r, 'apps', 'builder', {}, { name: 'other' }));
  assert.equal(named.code, 422);
  assert.equal(named.message, 'TokenRequest.authentication.k8s.io "builder" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
});

test('a server without a signing key does not serve serviceaccounts/token', async (t) => {
  const keys = writeKeyFiles(t);
  const options = tokenOptions(keys);
  const { signingKeyFile: _unused, ...withoutSigning } = options.serviceAccounts;
  const r = await tokenRegistry(t, { ...options, serviceAccounts: withoutSigning });
  await serviceAccount(r, 'apps', 'builder');
  const err = await statusOf(requestToken(r, 'apps', 'builder'));
  assert.equal(err.code, 404);
});
