import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

// Regressions found in review of the proxy sub-resources (pods/proxy, services/proxy,
// nodes/proxy): kube-apiserver names their target as `name`, `name:port` or `scheme:name:port`
// (utilnet.SplitSchemeNamePort) and serves OPTIONS on them as any other method.

let s: TestServer;
before(async () => {
  s = await startTestServer();
  const created = [
    await s.client.call('POST', '/api/v1/namespaces/default/services', { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } } }),
    await s.client.call('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } }),
    await s.client.call('POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } } }),
  ];
  for (const res of created) assert.equal(res.status, 201, res.text);
  const status = await s.client.call('PATCH', '/api/v1/namespaces/default/pods/p/status', { body: { status: { podIP: '10.1.2.3' } }, contentType: 'application/merge-patch+json' });
  assert.equal(status.status, 200, status.text);
});
after(() => s.close());

test('proxy paths naming scheme:name:port reach the object named, and a malformed one is a 400', async () => {
  for (const path of ['/api/v1/namespaces/default/services/svc:80/proxy/', '/api/v1/namespaces/default/services/https:svc:80/proxy/x', '/api/v1/namespaces/default/services/http:svc:/proxy', '/api/v1/nodes/n1:10250/proxy/', '/api/v1/nodes/https:n1:10250/proxy/metrics', '/api/v1/namespaces/default/pods/p:8080/proxy/', '/api/v1/namespaces/default/pods/https:p:443/proxy']) {
    const res = await s.client.call('GET', path);
    assert.equal(res.status, 503, `${path}: ${res.text}`);
  }
  for (const [path, message] of [
    ['/api/v1/namespaces/default/services/ftp:svc:80/proxy', 'invalid service request "ftp:svc:80"'],
    ['/api/v1/nodes/a:b:c:d/proxy', 'invalid node request "a:b:c:d"'],
    ['/api/v1/namespaces/default/pods/:8080/proxy', 'invalid pod request ":8080"'],
  ] as const) {
    const res = await s.client.call('GET', path);
    assert.equal(res.status, 400, `${path}: ${res.text}`);
    assert.equal((res.json as { message: string }).message, message);
  }
  const missing = await s.client.call('GET', '/api/v1/namespaces/default/services/https:nope:80/proxy');
  assert.equal(missing.status, 404, missing.text);
  assert.equal((missing.json as { message: string }).message, 'services "nope" not found');
});

test('a services/proxy port number the Service does not have is a 503 naming it', async () => {
  const res = await s.client.call('GET', '/api/v1/namespaces/default/services/svc:81/proxy/');
  assert.equal(res.status, 503, res.text);
  assert.equal((res.json as { message: string }).message, 'no service port 81 found for service "svc"');
});

test('OPTIONS is served by the proxy sub-resources and is still a 405 elsewhere', async () => {
  for (const path of ['/api/v1/namespaces/default/services/svc/proxy', '/api/v1/nodes/n1/proxy/a', '/api/v1/namespaces/default/pods/p/proxy/']) {
    const res = await s.client.call('OPTIONS', path);
    assert.equal(res.status, 503, `${path}: ${res.text}`);
  }
  assert.equal((await s.client.call('OPTIONS', '/api/v1/namespaces/default/pods/p/log')).status, 405);
  assert.equal((await s.client.call('OPTIONS', '/api/v1/namespaces/default/pods/p')).status, 405);
});
