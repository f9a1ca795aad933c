// Regression: a PUT that creates (create-on-update kinds) and a server-side apply that creates are
// creates, and kube-apiserver authorizes them as such (handlers/rest.go withAuthorization): a user
// allowed only update and patch must not create objects through them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../unit/apiserver/harness.ts';

const rbac = '/apis/rbac.authorization.k8s.io/v1';
let server: TestServer;

before(async () => {
  server = await startTestServer();
  const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'update', 'patch'] }, { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['get', 'update', 'patch'] }];
  await admin('POST', `${rbac}/namespaces/default/roles`, { metadata: { name: 'updater' }, rules });
  await admin('POST', `${rbac}/namespaces/default/rolebindings`, { metadata: { name: 'updater' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'updater' }, subjects: [{ kind: 'User', name: 'updater' }] });
  await admin('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'existing' } });
  // The RBAC index follows the store's watch: wait until the binding is seen.
  for (let i = 0; i < 100; i++) {
    if ((await as('updater', 'GET', '/api/v1/namespaces/default/configmaps/existing')).status === 200) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail('the updater binding was never seen');
});

after(async () => {
  await server.close();
});

async function admin(method: string, path: string, body: unknown): Promise<void> {
  const res = await server.client.call(method, path, { body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
}

function as(user: string, method: string, path: string, options: { body?: unknown; contentType?: string } = {}) {
  return server.client.call(method, path, { headers: { 'impersonate-user': user }, ...options });
}

function applyBody(kind: string, apiVersion: string, name: string): string {
  return JSON.stringify({ apiVersion, kind, metadata: { name } });
}

test('an apply that would create needs the create right', async () => {
  const res = await as('updater', 'PATCH', '/api/v1/namespaces/default/configmaps/applied?fieldManager=t', { body: applyBody('ConfigMap', 'v1', 'applied'), contentType: 'application/apply-patch+yaml' });
  assert.equal(res.status, 403, res.text);
  assert.equal((res.json as { message?: string }).message, 'configmaps "applied" is forbidden: ');
  assert.equal((await server.client.call('GET', '/api/v1/namespaces/default/configmaps/applied')).status, 404);
  const dryRun = await as('updater', 'PATCH', '/api/v1/namespaces/default/configmaps/applied?fieldManager=t&dryRun=All', { body: applyBody('ConfigMap', 'v1', 'applied'), contentType: 'application/apply-patch+yaml' });
  assert.equal(dryRun.status, 403, dryRun.text);
});

test('an apply to an existing object needs only patch', async () => {
  const res = await as('updater', 'PATCH', '/api/v1/namespaces/default/configmaps/existing?fieldManager=t', { body: applyBody('ConfigMap', 'v1', 'existing'), contentType: 'application/apply-patch+yaml' });
  assert.equal(res.status, 200, res.text);
});

test('a PUT that would create (create-on-update) needs the create right', async () => {
  const res = await as('updater', 'PUT', `${rbac}/namespaces/default/roles/put-made`, { body: { metadata: { name: 'put-made' }, rules: [] } });
  assert.equal(res.status, 403, res.text);
  assert.equal((res.json as { message?: string }).message, 'roles.rbac.authorization.k8s.io "put-made" is forbidden: ');
  assert.equal((await server.client.call('GET', `${rbac}/namespaces/default/roles/put-made`)).status, 404);
  const update = await as('updater', 'PUT', `${rbac}/namespaces/default/roles/updater`, { body: { metadata: { name: 'updater' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'update', 'patch'] }] } });
  assert.equal(update.status, 200, update.text);
});

test('the admin still creates through PUT and apply', async () => {
  assert.equal((await server.client.call('PUT', `${rbac}/namespaces/default/roles/by-admin`, { body: { metadata: { name: 'by-admin' }, rules: [] } })).status, 201);
  assert.equal((await server.client.call('PATCH', '/api/v1/namespaces/default/configmaps/admin-applied?fieldManager=t', { body: applyBody('ConfigMap', 'v1', 'admin-applied'), contentType: 'application/apply-patch+yaml' })).status, 201);
});
