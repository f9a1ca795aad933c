// serviceaccounts/{name}/token and TokenReview over HTTP, as kubectl and clients use them: discovery
// lists the sub-resource, `kubectl create token` mints a token that authenticates, TokenReview
// answers for it. The server runs the real authentication built from flag files.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { buildAuthenticator } from '../../../internal/authn/index.ts';
import { storeObjectGetter } from '../../../internal/replica/service-account-objects.ts';
import { TestApiClient } from '../../support/api-client.ts';
import { startTestServer, testToken, type TestServer } from './harness.ts';
import { kubectlSession } from './kubectl-session.ts';
import { jwtClaims, testIssuer, tokenOptions, writeKeyFiles } from '../registry/serviceaccount/token-fixture.ts';

async function server(t: TestContext): Promise<TestServer> {
  const keys = writeKeyFiles(t);
  const tokenFile = path.join(keys.dir, 'tokens.csv');
  writeFileSync(tokenFile, `${testToken},orch-admin,orch-admin,"system:masters"\n`);
  // The replica's getter reads the server's own stores, which exist once it has started.
  const holder: { server?: TestServer } = {};
  const authentication = await buildAuthenticator({ ...tokenOptions(keys), tokenAuthFile: tokenFile }, { serviceAccountGetter: storeObjectGetter(() => holder.server?.server) });
  const started = await startTestServer({ authentication });
  holder.server = started;
  t.after(() => started.close());
  return started;
}

test('discovery lists serviceaccounts/token: create of an authentication.k8s.io/v1 TokenRequest; and tokenreviews', async (t) => {
  const s = await server(t);
  const core = (await s.client.call('GET', '/api/v1')).json as { resources: { name: string; group?: string; version?: string; kind: string; verbs: string[] }[] };
  assert.deepEqual(core.resources.find((r) => r.name === 'serviceaccounts/token'), { name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
  const authn = (await s.client.call('GET', '/apis/authentication.k8s.io/v1')).json as { resources: { name: string; kind: string; verbs: string[]; namespaced: boolean }[] };
  const reviews = authn.resources.find((r) => r.name === 'tokenreviews');
  assert.equal(reviews?.kind, 'TokenReview');
  assert.deepEqual(reviews?.verbs, ['create']);
  assert.equal(reviews?.namespaced, false);
});

test('POST serviceaccounts/{name}/token answers 201 with a token that authenticates requests as the ServiceAccount', async (t) => {
  const s = await server(t);
  await s.client.call('POST', '/api/v1/namespaces/default/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } } });
  const created = await s.client.call('POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 900 } } });
  assert.equal(created.status, 201, created.text);
  const body = created.json as { kind: string; status: { token: string; expirationTimestamp: string }; spec: { audiences: string[]; expirationSeconds: number } };
  assert.equal(body.kind, 'TokenRequest');
  assert.deepEqual(body.spec, { audiences: [testIssuer], expirationSeconds: 900 });
  const whoami = await fetchAs(s, body.status.token, '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
  assert.equal((whoami as { status: { userInfo: { username: string } } }).status.userInfo.username, 'system:serviceaccount:default:robot');
  const missing = await s.client.call('POST', '/api/v1/namespaces/default/serviceaccounts/nobody/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
  assert.equal(missing.status, 404);
  const short = await s.client.call('POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 60 } } });
  assert.equal(short.status, 422);
  assert.equal((short.json as { details: { causes: { field: string }[] } }).details.causes[0]?.field, 'spec.expirationSeconds');
  const review = await s.client.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: body.status.token } } });
  assert.equal(review.status, 201, review.text);
  const status = (review.json as { status: { authenticated: boolean; user: { username: string } } }).status;
  assert.equal(status.authenticated, true);
  assert.equal(status.user.username, 'system:serviceaccount:default:robot');
  const garbage = await s.client.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'garbage' } } });
  assert.deepEqual((garbage.json as { status: unknown }).status, { user: {}, error: 'invalid bearer token' });
});

/** A request with `token` as the bearer: the JSON answer, or a rejection with the status. */
async function fetchAs(s: TestServer, token: string, urlPath: string, body: unknown): Promise<unknown> {
  const client = new TestApiClient(s.baseUrl, s.tls.cert, token);
  try {
    const res = await client.call('POST', urlPath, { body });
    assert.equal(res.status, 201, res.text);
    return res.json;
  } finally {
    await client.close();
  }
}

test('kubectl create token: --audience, --duration, --bound-object-kind Pod', async (t) => {
  const s = await server(t);
  const kubectl = kubectlSession(s, 'orch-kubectl-token-');
  t.after(() => kubectl.remove());
  await kubectl.run('create', 'serviceaccount', 'builder');
  const plain = (await kubectl.run('create', 'token', 'builder')).trim();
  assert.equal(jwtClaims(plain)['sub'], 'system:serviceaccount:default:builder');
  const custom = jwtClaims((await kubectl.run('create', 'token', 'builder', '--audience', 'vault', '--duration', '20m')).trim());
  assert.deepEqual(custom['aud'], ['vault']);
  assert.equal((custom['exp'] as number) - (custom['iat'] as number), 1200);
  await kubectl.run('run', 'web', '--image=busybox:1', '--overrides={"spec":{"serviceAccountName":"builder"}}');
  const uid = (await kubectl.run('get', 'pod', 'web', '-o', 'jsonpath={.metadata.uid}')).trim();
  const bound = jwtClaims((await kubectl.run('create', 'token', 'builder', '--bound-object-kind', 'Pod', '--bound-object-name', 'web')).trim());
  assert.deepEqual((bound['kubernetes.io'] as { pod: unknown }).pod, { name: 'web', uid });
  await assert.rejects(kubectl.run('create', 'token', 'nobody'), /serviceaccounts "nobody" not found/);
  await assert.rejects(kubectl.run('create', 'token', 'builder', '--duration', '5m'), /may not specify a duration less than 10 minutes/);
});
