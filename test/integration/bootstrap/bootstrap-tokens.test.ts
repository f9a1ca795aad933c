// Bootstrap tokens end to end against an in-process API server with --enable-bootstrap-token-auth,
// RBAC and the bootstrap controllers (as their service accounts): an admin writes a token Secret as
// kubectl would; the token is `system:bootstrap:<id>` (SelfSubjectReview) until it expires, then
// 401; the tokencleaner deletes it; anonymous clients read cluster-info in kube-public and verify
// its signature with the token.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Agent, request } from 'undici';
import { buildAuthenticator, defaultAuthenticationOptions, systemMasters } from '../../../internal/authn/index.ts';
import type { ApiServer } from '../../../internal/apiserver/index.ts';
import { parseControllerSelection } from '../../../internal/controllers/controller-selection.ts';
import { createControllers } from '../../../internal/controllers/controllers.ts';
import { storeBootstrapTokenGetter } from '../../../internal/replica/bootstrap-token-secrets.ts';
import { TestApiClient } from '../../support/api-client.ts';
import { startTestServer, testToken, type TestServer } from '../../unit/apiserver/harness.ts';
import { verifiesWith } from '../../unit/controllers/bootstrap/bootstrap-fixture.ts';
import { eventually } from '../../unit/controllers/garbage-collector-fixture.ts';

type Json = Record<string, unknown>;
let server: TestServer;
let anonymous: Agent;
const logs: string[] = [];
const abort = new AbortController();
let runs: Promise<void>[] = [];

before(async () => {
  const started: { api?: ApiServer } = {};
  const authentication = await buildAuthenticator(
    {
      ...defaultAuthenticationOptions(),
      enableBootstrapTokenAuth: true,
      staticTokens: [{ token: testToken, user: { username: 'orch-admin', uid: '', groups: [systemMasters], extra: {} } }],
      // kube's 10 s success cache would keep an expired token working that much longer; the test need not wait for it.
      tokenSuccessCacheTtlSeconds: 0,
    },
    { bootstrapTokenGetter: storeBootstrapTokenGetter(() => started.api) },
  );
  server = await startTestServer({ authentication, bootstrapNamespaces: ['default', 'kube-system', 'kube-public', 'orch-system', 'orch-public'] });
  const api = (started.api = server.server);
  anonymous = new Agent({ connect: { ca: server.tls.cert } });
  await server.server.authorizationReady;
  const controllers = createControllers(
    { registry: api.registry, stores: api.stores, authorizer: api.authorization.authorizer, log: (message, err) => logs.push(`${message} ${err instanceof Error ? err.message : ''}`) },
    { clusterInfo: { apiServerUrl: server.baseUrl, caBundle: server.tls.cert, bootstrapTokenAuth: true }, selection: parseControllerSelection('bootstrapsigner,tokencleaner') },
  ).filter((c) => ['bootstrapsigner', 'tokencleaner', 'cluster-info-publisher'].includes(c.name));
  assert.equal(controllers.length, 3);
  runs = controllers.map((c) => c.run(abort.signal));
});

after(async () => {
  abort.abort();
  await Promise.all(runs);
  await anonymous.close();
  await server.close();
});

async function whoami(token: string): Promise<{ status: number; user?: Json }> {
  const client = new TestApiClient(server.baseUrl, server.tls.cert, token);
  try {
    const answer = await client.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    return { status: answer.status, ...(answer.status === 201 ? { user: ((answer.json as Json).status as Json).userInfo as Json } : {}) };
  } finally {
    await client.close();
  }
}

async function anonymousGet(path: string): Promise<{ status: number; json: Json }> {
  const res = await request(`${server.baseUrl}${path}`, { dispatcher: anonymous });
  return { status: res.statusCode, json: (await res.body.json()) as Json };
}

/** The Secret `kubectl create secret generic --type=bootstrap.kubernetes.io/token` would send. */
function tokenSecret(namespace: string, id: string, secret: string, expiration: string): Json {
  return {
    apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.kubernetes.io/token',
    metadata: { name: `bootstrap-token-${id}`, namespace },
    stringData: {
      'token-id': id, 'token-secret': secret, expiration,
      'usage-bootstrap-authentication': 'true', 'usage-bootstrap-signing': 'true',
      'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
    },
  };
}

test('a bootstrap token authenticates until it expires, is then refused and cleaned up; cluster-info is signed with it', { timeout: 60_000 }, async () => {
  const id = 'q7x2k9';
  const token = `${id}.b3v8n1m4c6z0p2r5`;
  const expiresAtMs = Date.now() + 6_000;
  const expiration = new Date(Math.ceil(expiresAtMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const created = await server.client.call('POST', '/api/v1/namespaces/kube-system/secrets', { body: tokenSecret('kube-system', id, 'b3v8n1m4c6z0p2r5', expiration) });
  assert.equal(created.status, 201, created.text);

  const me = await whoami(token);
  assert.equal(me.status, 201);
  assert.equal(me.user?.username, `system:bootstrap:${id}`);
  assert.deepEqual(me.user?.groups, ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated']);

  let kubeconfig = '';
  await eventually('cluster-info signed for the token, read anonymously', async () => {
    const cm = await anonymousGet('/api/v1/namespaces/kube-public/configmaps/cluster-info');
    const data = (cm.json.data ?? {}) as Record<string, string>;
    kubeconfig = data.kubeconfig ?? '';
    return cm.status === 200 && data[`jws-kubeconfig-${id}`] !== undefined && (await verifiesWith(data[`jws-kubeconfig-${id}`]!, kubeconfig, token));
  });
  assert.match(kubeconfig, new RegExp(`server: ${server.baseUrl}`));
  assert.equal((await anonymousGet('/api/v1/namespaces/kube-public/configmaps/kube-root-ca.crt')).status, 403, 'only cluster-info is public');

  await eventually('refused once expired', async () => (await whoami(token)).status === 401, 20_000);
  assert.ok(Date.now() >= expiresAtMs - 1000);
  await eventually('the tokencleaner deleted it', async () => (await server.client.call('GET', `/api/v1/namespaces/kube-system/secrets/bootstrap-token-${id}`)).status === 404, 10_000);
  await eventually('its signature removed', async () => ((await anonymousGet('/api/v1/namespaces/kube-public/configmaps/cluster-info')).json.data as Json)[`jws-kubeconfig-${id}`] === undefined, 10_000);
  assert.deepEqual(logs, []);
});

test('a token in orch-system authenticates too, and signs orch-public\'s cluster-info', { timeout: 30_000 }, async () => {
  const id = 'm4n5b6';
  const token = `${id}.a1s2d3f4g5h6j7k8`;
  const created = await server.client.call('POST', '/api/v1/namespaces/orch-system/secrets', { body: tokenSecret('orch-system', id, 'a1s2d3f4g5h6j7k8', '2099-01-01T00:00:00Z') });
  assert.equal(created.status, 201, created.text);
  assert.equal((await whoami(token)).user?.username, `system:bootstrap:${id}`);
  assert.equal((await whoami(`${id}.a1s2d3f4g5h6j7k9`)).status, 401, 'a wrong secret is a 401');
  await eventually('orch-public signed', async () => {
    const data = ((await anonymousGet('/api/v1/namespaces/orch-public/configmaps/cluster-info')).json.data ?? {}) as Record<string, string>;
    return verifiesWith(data[`jws-kubeconfig-${id}`] ?? '', data.kubeconfig ?? '', token);
  });
});
