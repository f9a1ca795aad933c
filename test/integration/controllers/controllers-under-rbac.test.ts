// Every controller of the replica, each acting as its own service account through an API server's
// RBAC authorizer with only the bootstrap policy: each does its job (a refusal would stall it), and
// none is ever refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Controller } from '../../../internal/controllers/controller.ts';
import { createControllers } from '../../../internal/controllers/controllers.ts';
import { startTestServer, type TestServer } from '../../unit/apiserver/harness.ts';
import { eventually } from '../../unit/controllers/garbage-collector-fixture.ts';

const bundle = '-----BEGIN CERTIFICATE-----\nMIIBrbac\n-----END CERTIFICATE-----\n';
let server: TestServer;
const logs: string[] = [];
const abort = new AbortController();
let runs: Promise<void>[] = [];

type Json = Record<string, unknown>;

async function get(path: string): Promise<{ status: number; json: Json }> {
  const answer = await server.client.call('GET', path);
  return { status: answer.status, json: answer.json as Json };
}

async function post(path: string, body: unknown): Promise<Json> {
  const answer = await server.client.call('POST', path, { body });
  assert.ok(answer.status === 201 || answer.status === 200, `${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json as Json;
}

before(async () => {
  server = await startTestServer();
  await server.server.authorizationReady;
  const controllers: Controller[] = createControllers(
    { registry: server.server.registry, stores: server.server.stores, authorizer: server.server.authorization.authorizer, log: (message, err) => logs.push(`${message} ${err instanceof Error ? err.message : ''}`) },
    { rootCaBundle: bundle, issueLegacyToken: (account, secret) => `legacy-${account.namespace}-${account.name}-${secret}` },
  );
  runs = controllers.map((c) => c.run(abort.signal));
});

after(async () => {
  abort.abort();
  await Promise.all(runs);
  await server.close();
});

test('each controller does its work as its own service account, and none is refused', { timeout: 60_000 }, async () => {
  await post('/api/v1/namespaces', { metadata: { name: 'rbac-ctl' } });
  const ns = '/api/v1/namespaces/rbac-ctl';
  await eventually('default ServiceAccount', async () => (await get(`${ns}/serviceaccounts/default`)).status === 200);
  await eventually('kube-root-ca.crt', async () => (await get(`${ns}/configmaps/kube-root-ca.crt`)).status === 200);
  // The tokens controller fills a legacy token Secret.
  await post(`${ns}/secrets`, { metadata: { name: 'legacy', annotations: { 'kubernetes.io/service-account.name': 'default' } }, type: 'kubernetes.io/service-account-token' });
  await eventually('the legacy token', async () => typeof ((await get(`${ns}/secrets/legacy`)).json.data as Json | undefined)?.token === 'string');
  // The quota controller sets status.hard and counts.
  await post(`${ns}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard: { configmaps: '10' } } });
  await eventually('the quota counted', async () => {
    const status = (await get(`${ns}/resourcequotas/q`)).json.status as { hard?: Json; used?: Json } | undefined;
    return status?.hard?.configmaps === '10' && status.used?.configmaps === '1';
  });
  // The disruption controller computes a budget's status.
  await post('/apis/policy/v1/namespaces/rbac-ctl/poddisruptionbudgets', { metadata: { name: 'b' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } } } });
  await eventually('the budget observed', async () => ((await get('/apis/policy/v1/namespaces/rbac-ctl/poddisruptionbudgets/b')).json.status as Json | undefined)?.observedGeneration === 1);
  // The garbage collector removes a dependent of a deleted owner.
  const owner = await post(`${ns}/configmaps`, { metadata: { name: 'owner' } });
  await post(`${ns}/configmaps`, { metadata: { name: 'dependent', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: (owner.metadata as Json).uid }] } });
  assert.equal((await server.client.call('DELETE', `${ns}/configmaps/owner`)).status, 200);
  await eventually('the dependent collected', async () => (await get(`${ns}/configmaps/dependent`)).status === 404);
  // The aggregation controller fills a role aggregated from labels.
  await post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'agg-to': 'me' } }] } });
  await post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'part', labels: { 'agg-to': 'me' } }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
  await eventually('the aggregated rules', async () => Array.isArray((await get('/apis/rbac.authorization.k8s.io/v1/clusterroles/agg')).json.rules) && ((await get('/apis/rbac.authorization.k8s.io/v1/clusterroles/agg')).json.rules as unknown[]).length === 1);
  // The namespace controller empties and removes a deleted namespace.
  assert.equal((await server.client.call('DELETE', ns)).status, 200);
  await eventually('the namespace gone', async () => (await get(ns)).status === 404, 30_000);
  assert.deepEqual(logs.filter((l) => /forbidden|cannot/i.test(l)), []);
});
