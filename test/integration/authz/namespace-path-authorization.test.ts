// Regression: /api/v1/namespaces/{a}/namespaces[/{b}] was served as /api/v1/namespaces[/{b}] after
// being authorized in namespace `a`, so a right over namespaces granted by a Role in `a` (meant
// for namespace `a` itself) reached every namespace. kube-apiserver has no such route: 404.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../unit/apiserver/harness.ts';

const rbac = '/apis/rbac.authorization.k8s.io/v1';
let server: TestServer;

before(async () => {
  server = await startTestServer();
  await admin('POST', '/api/v1/namespaces', { metadata: { name: 'other' } });
  const rules = [{ apiGroups: [''], resources: ['namespaces'], verbs: ['*'] }];
  await admin('POST', `${rbac}/namespaces/default/roles`, { metadata: { name: 'own-namespace' }, rules });
  await admin('POST', `${rbac}/namespaces/default/rolebindings`, { metadata: { name: 'own-namespace' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'own-namespace' }, subjects: [{ kind: 'User', name: 'tenant' }] });
  // The RBAC index follows the store's watch: wait until the binding is seen.
  for (let i = 0; i < 100; i++) {
    if ((await as('GET', '/api/v1/namespaces/default')).status === 200) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail('the tenant binding was never seen');
});

after(async () => {
  await server.close();
});

async function admin(method: string, path: string, body: unknown): Promise<void> {
  const res = await server.client.call(method, path, { body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
}

function as(method: string, path: string, body?: unknown) {
  return server.client.call(method, path, { headers: { 'impersonate-user': 'tenant' }, ...(body === undefined ? {} : { body }) });
}

test('a Role over namespaces in its namespace reaches that namespace only', async () => {
  assert.equal((await as('GET', '/api/v1/namespaces/other')).status, 403);
  for (const [method, path, body] of [
    ['GET', '/api/v1/namespaces/default/namespaces/other'],
    ['PUT', '/api/v1/namespaces/default/namespaces/other', { metadata: { name: 'other', labels: { owned: 'yes' } } }],
    ['DELETE', '/api/v1/namespaces/default/namespaces/other'],
    ['GET', '/api/v1/namespaces/default/namespaces'],
    ['GET', '/api/v1/namespaces/default/namespaces?watch=1&timeoutSeconds=1'],
    ['POST', '/api/v1/namespaces/default/namespaces', { metadata: { name: 'made-by-tenant' } }],
    ['DELETE', '/api/v1/namespaces/default/namespaces'],
  ] as const) {
    const res = await as(method, path, body);
    assert.equal(res.status, 404, `${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
  }
  const other = await server.client.call('GET', '/api/v1/namespaces/other');
  assert.equal(other.status, 200);
  assert.equal((other.json as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp, undefined);
  assert.equal((await server.client.call('GET', '/api/v1/namespaces/made-by-tenant')).status, 404);
});

test('the namespace\'s own paths still work', async () => {
  assert.equal((await as('GET', '/api/v1/namespaces/default')).status, 200);
  assert.equal((await server.client.call('GET', '/api/v1/namespaces/default/status')).status, 200);
  assert.equal((await server.client.call('GET', '/api/v1/watch/namespaces/default?timeoutSeconds=1')).status, 200);
  assert.equal((await server.client.call('GET', '/api/v1/namespaces')).status, 200);
});
