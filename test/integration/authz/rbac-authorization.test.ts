// Authorization end to end on an in-process server: RBAC with the bootstrap policy, impersonation,
// escalation prevention, the review APIs (kubectl auth can-i / whoami) and ClusterRole aggregation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { createClusterRoleAggregationController } from '../../../internal/controllers/clusterrole-aggregation.ts';
import { startTestServer, type TestServer } from '../../unit/apiserver/harness.ts';
import { kubectlSession, type KubectlSession } from '../../unit/apiserver/kubectl-session.ts';

const rbac = '/apis/rbac.authorization.k8s.io/v1';
let server: TestServer;
let kubectl: KubectlSession;
let anonymous: Agent;
const aggregation = new AbortController();
let aggregationDone: Promise<void>;

before(async () => {
  server = await startTestServer();
  kubectl = kubectlSession(server, 'orch-authz-');
  anonymous = new Agent({ connect: { ca: server.tls.cert } });
  const controller = createClusterRoleAggregationController({ registry: server.server.registry, stores: server.server.stores, log: () => undefined }, { resyncIntervalMs: 500 });
  aggregationDone = controller.run(aggregation.signal);
});

after(async () => {
  aggregation.abort();
  await aggregationDone;
  await anonymous.close();
  kubectl.remove();
  await server.close();
});

/** A call as `user` through the admin's right to impersonate anyone. */
function as(user: string, method: string, path: string, body?: unknown) {
  return server.client.call(method, path, { headers: { 'impersonate-user': user }, ...(body === undefined ? {} : { body }) });
}

async function anonymousGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const res = await request(`${server.baseUrl}${path}`, { dispatcher: anonymous, headers });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.statusCode, json };
}

function messageOf(json: unknown): string {
  return String((json as { message?: unknown }).message);
}

async function admin(method: string, path: string, body: unknown): Promise<void> {
  const res = await server.client.call(method, path, { body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
}

test('the admin (system:masters) may do anything', async () => {
  assert.equal((await server.client.call('GET', '/api/v1/namespaces/default/secrets')).status, 200);
  assert.equal((await server.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'admins' } } })).status, 201);
});

test('an impersonated user without rights gets kube-apiserver\'s 403 on create configmap and list secrets', async () => {
  const create = await as('nobody', 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } });
  assert.equal(create.status, 403);
  assert.equal(messageOf(create.json), 'configmaps is forbidden: User "nobody" cannot create resource "configmaps" in API group "" in the namespace "default"');
  assert.deepEqual((create.json as { details?: unknown }).details, { kind: 'configmaps' });
  const list = await as('nobody', 'GET', '/api/v1/namespaces/default/secrets');
  assert.equal(list.status, 403);
  assert.equal(messageOf(list.json), 'secrets is forbidden: User "nobody" cannot list resource "secrets" in API group "" in the namespace "default"');
  const out = await kubectl.full('auth', 'can-i', 'list', 'secrets', '--as=nobody').catch((e: { stdout: string }) => e);
  assert.equal(out.stdout.trim(), 'no');
});

test('a Role and a RoleBinding granting the user its rights let it through', async () => {
  await admin('POST', `${rbac}/namespaces/default/roles`, { metadata: { name: 'secret-reader' }, rules: [{ apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: ['get', 'list', 'create'] }] });
  await admin('POST', `${rbac}/namespaces/default/rolebindings`, { metadata: { name: 'reader-granted' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'secret-reader' }, subjects: [{ kind: 'User', name: 'reader' }] });
  // The index follows the store's watch: give it a moment.
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    status = (await as('reader', 'GET', '/api/v1/namespaces/default/secrets')).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(status, 200);
  assert.equal((await as('reader', 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'by-reader' } })).status, 201);
  assert.equal((await as('reader', 'GET', '/api/v1/namespaces/kube-system/secrets')).status, 403, 'a RoleBinding grants in its namespace only');
  assert.equal((await kubectl.run('auth', 'can-i', 'list', 'secrets', '--as=reader')).trim(), 'yes');
  const listed = await kubectl.run('auth', 'can-i', '--list', '--as=reader');
  assert.match(listed, /secrets\s+\[\]\s+\[\]\s+\[get list create\]/);
  assert.match(listed, /selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/, 'system:basic-user from the bootstrap policy');
});

test('impersonation is refused to a caller without the impersonate right', async () => {
  const res = await anonymousGet('/api/v1/namespaces/default/configmaps', { 'impersonate-user': 'someone' });
  assert.equal(res.status, 403);
  assert.equal(messageOf(res.json), 'users "someone" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope');
});

test('escalation is refused: a user may create only roles whose rules it holds, unless it may escalate', async () => {
  await admin('POST', `${rbac}/namespaces/default/roles`, { metadata: { name: 'role-writer' }, rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create', 'get', 'list'] }] });
  await admin('POST', `${rbac}/namespaces/default/rolebindings`, { metadata: { name: 'role-writer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'role-writer' }, subjects: [{ kind: 'User', name: 'writer' }] });
  const pod = { metadata: { name: 'pod-deleter' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] };
  let res = await as('writer', 'POST', `${rbac}/namespaces/default/roles`, pod);
  for (let i = 0; i < 50 && res.status !== 403; i++) {
    await new Promise((r) => setTimeout(r, 20));
    res = await as('writer', 'POST', `${rbac}/namespaces/default/roles`, pod);
  }
  assert.equal(res.status, 403);
  assert.match(messageOf(res.json), /^roles\.rbac\.authorization\.k8s\.io "pod-deleter" is forbidden: user "writer" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["delete"\]\}/);
  await admin('POST', `${rbac}/namespaces/default/roles`, { metadata: { name: 'role-escalator' }, rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }] });
  await admin('POST', `${rbac}/namespaces/default/rolebindings`, { metadata: { name: 'role-escalator' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'role-escalator' }, subjects: [{ kind: 'User', name: 'writer' }] });
  for (let i = 0; i < 50 && res.status !== 201; i++) {
    await new Promise((r) => setTimeout(r, 20));
    res = await as('writer', 'POST', `${rbac}/namespaces/default/roles`, pod);
  }
  assert.equal(res.status, 201, res.text);
});

test('anonymous reads health and version (system:public-info-viewer) but not discovery', async () => {
  assert.equal((await anonymousGet('/healthz')).status, 200);
  assert.equal((await anonymousGet('/readyz')).status, 200);
  assert.equal((await anonymousGet('/version')).status, 200);
  const api = await anonymousGet('/api');
  assert.equal(api.status, 403);
  assert.equal(messageOf(api.json), 'forbidden: User "system:anonymous" cannot get path "/api"');
  // An authenticated user holds system:discovery through system:authenticated.
  assert.equal((await as('nobody', 'GET', '/apis')).status, 200);
});

test('the review APIs answer from the authorizer and are listed with the create verb', async () => {
  const sar = await server.client.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'reader', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'secrets' } } } });
  assert.equal(sar.status, 201, sar.text);
  assert.deepEqual((sar.json as { status: unknown }).status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "reader-granted/default" of Role "secret-reader" to User "reader"' });
  const denied = await server.client.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { body: { spec: { user: 'nobody', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'secrets' } } } });
  assert.deepEqual((denied.json as { status: unknown }).status, { allowed: false });
  const invalid = await server.client.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { body: { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } } });
  assert.equal(invalid.status, 422);
  assert.match(messageOf(invalid.json), /spec\.user: Invalid value: "": at least one of user or group must be specified/);
  const local = await server.client.call('POST', '/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews', { body: { spec: { user: 'reader', resourceAttributes: { namespace: 'other', verb: 'list', resource: 'secrets' } } } });
  assert.equal(local.status, 422);
  assert.match(messageOf(local.json), /spec\.resourceAttributes\.namespace: Invalid value: "other": must match metadata\.namespace/);
  const localOk = await server.client.call('POST', '/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews', { body: { spec: { user: 'reader', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'secrets' } } } });
  assert.equal((localOk.json as { status: { allowed: boolean } }).status.allowed, true);
  // NamespaceLifecycle exempts access reviews: nothing is stored in the namespace.
  const nowhere = await server.client.call('POST', '/apis/authorization.k8s.io/v1/namespaces/not-there/localsubjectaccessreviews', { body: { spec: { user: 'reader', resourceAttributes: { namespace: 'not-there', verb: 'list', resource: 'secrets' } } } });
  assert.equal(nowhere.status, 201, nowhere.text);
  assert.deepEqual((nowhere.json as { status: unknown }).status, { allowed: false });
  const rules = await as('reader', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'default' } });
  assert.equal(rules.status, 201, rules.text);
  assert.equal((rules.json as { status: { incomplete: boolean } }).status.incomplete, false);
  assert.equal((await kubectl.run('auth', 'can-i', 'create', 'pods')).trim(), 'yes');
  const whoami = await kubectl.run('auth', 'whoami', '-o', 'json');
  assert.deepEqual((JSON.parse(whoami) as { status: unknown }).status, { userInfo: { username: 'orch-admin', groups: ['system:masters', 'system:authenticated'] } });
  // Impersonate-Group repeated (kubectl speaks HTTP/2 here): one group per header, never the joined list.
  const asWho = JSON.parse(await kubectl.run('auth', 'whoami', '-o', 'json', '--as=nobody', '--as-group=team', '--as-group=ops')) as { status: unknown };
  assert.deepEqual(asWho.status, { userInfo: { username: 'nobody', groups: ['team', 'ops', 'system:authenticated'] } });
  for (const [path, plural] of [['/apis/authorization.k8s.io/v1', 'subjectaccessreviews'], ['/apis/authentication.k8s.io/v1', 'selfsubjectreviews']] as const) {
    const list = (await server.client.call('GET', path)).json as { resources: { name: string; verbs: string[] }[] };
    assert.deepEqual(list.resources.find((r) => r.name === plural)?.verbs, ['create'], `${path} ${plural}`);
  }
});

test('the aggregated admin role picks up a ClusterRole labelled aggregate-to-admin', async () => {
  await admin('POST', `${rbac}/clusterroles`, { metadata: { name: 'widgets-admin', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['*'] }] });
  let rules: unknown[] = [];
  for (let i = 0; i < 100; i++) {
    rules = ((await server.client.call('GET', `${rbac}/clusterroles/admin`)).json as { rules?: unknown[] }).rules ?? [];
    if (rules.some((r) => JSON.stringify(r).includes('widgets'))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(rules.some((r) => JSON.stringify(r) === JSON.stringify({ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['*'] })), JSON.stringify(rules).slice(0, 500));
  assert.ok(rules.length > 10, 'the bootstrap aggregate-to-admin roles are aggregated too');
});
