import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

// pods/log, exec, attach, portforward, proxy, services/proxy and nodes/proxy: routed, checked as
// kube-apiserver checks them, then a 503 that says no node agent serves them (never a 404).

type Status = { message: string; reason: string; code: number };
type Resources = { resources: { name: string; kind: string; verbs: string[]; group?: string; version?: string }[] };

let s: TestServer;
before(async () => {
  s = await startTestServer();
  const pod = (name: string, containers: string[], nodeName?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { ...(nodeName ? { nodeName } : {}), containers: containers.map((c) => ({ name: c, image: 'busybox:1' })) } });
  for (const body of [pod('placed', ['app'], 'node-1'), pod('unplaced', ['app']), pod('two', ['a', 'b'], 'node-1')]) {
    const res = await s.client.call('POST', pods, { body });
    assert.equal(res.status, 201, res.text);
  }
  assert.equal((await s.client.call('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } } })).status, 201);
  assert.equal((await s.client.call('POST', '/api/v1/namespaces/default/services', { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } } })).status, 201);
});
after(() => s.close());

const pods = '/api/v1/namespaces/default/pods';

async function status(method: string, path: string): Promise<[number, string, string]> {
  const res = await s.client.call(method, path);
  const body = res.json as Status;
  return [res.status, body.reason, body.message];
}

test('each connecting sub-resource of a placed pod answers 503 naming why, for every verb it serves', async () => {
  for (const [method, sub] of [['GET', 'log'], ['POST', 'exec?command=ls'], ['GET', 'attach'], ['POST', 'portforward'], ['GET', 'exec?command=ls']] as const) {
    const name = sub.split('?')[0] ?? '';
    assert.deepEqual(await status(method, `${pods}/placed/${sub}`), [503, 'ServiceUnavailable', `no node agent serves pods/${name} for pod "placed": orch runs no kubelet, so node "node-1" cannot be reached`]);
  }
  assert.equal((await status('PUT', `${pods}/placed/log`))[0], 405);
});

test('a pod without a node answers 400 "does not have a host assigned"; a missing pod 404', async () => {
  assert.deepEqual(await status('GET', `${pods}/unplaced/log`), [400, 'BadRequest', 'pod unplaced does not have a host assigned']);
  assert.deepEqual(await status('POST', `${pods}/unplaced/portforward`), [400, 'BadRequest', 'pod unplaced does not have a host assigned']);
  assert.deepEqual(await status('GET', `${pods}/ghost/log`), [404, 'NotFound', 'pods "ghost" not found']);
});

test('pods/log and exec check the container as kube-apiserver does', async () => {
  assert.deepEqual(await status('GET', `${pods}/two/log`), [400, 'BadRequest', 'a container name must be specified for pod two, choose one of: [a b]']);
  assert.deepEqual(await status('GET', `${pods}/two/log?container=c`), [400, 'BadRequest', 'container c is not valid for pod two']);
  assert.equal((await status('GET', `${pods}/two/log?container=b`))[0], 503);
});

test('proxies: a pod without an IP is a 400, services and nodes answer 503, sub-paths included', async () => {
  assert.deepEqual(await status('GET', `${pods}/placed/proxy/some/path`), [400, 'BadRequest', 'address not allowed']);
  assert.equal((await status('GET', '/api/v1/namespaces/default/services/web/proxy/')).at(0), 503);
  assert.equal((await status('DELETE', '/api/v1/namespaces/default/services/web/proxy/a/b')).at(0), 503);
  assert.equal((await status('GET', '/api/v1/nodes/node-1/proxy/metrics')).at(0), 503);
  assert.equal((await status('GET', '/api/v1/nodes/ghost/proxy')).at(0), 404);
  assert.equal((await status('GET', `${pods}/placed/log/extra`)).at(0), 404);
  assert.equal((await status('GET', `${pods}/placed/status/extra`)).at(0), 404);
});

test('discovery lists the pod sub-resources with their kinds and verbs, eviction as policy/v1', async () => {
  const res = await s.client.call('GET', '/api/v1');
  const byName = new Map((res.json as Resources).resources.map((r) => [r.name, r]));
  const entry = (name: string) => {
    const r = byName.get(name);
    return r && { kind: r.kind, verbs: r.verbs, ...(r.group ? { group: r.group, version: r.version } : {}) };
  };
  assert.deepEqual(entry('pods/eviction'), { kind: 'Eviction', verbs: ['create'], group: 'policy', version: 'v1' });
  assert.deepEqual(entry('pods/binding'), { kind: 'Binding', verbs: ['create'] });
  assert.deepEqual(entry('pods/ephemeralcontainers'), { kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  assert.deepEqual(entry('pods/log'), { kind: 'Pod', verbs: ['get'] });
  assert.deepEqual(entry('pods/exec'), { kind: 'PodExecOptions', verbs: ['create', 'get'] });
  assert.deepEqual(entry('pods/proxy'), { kind: 'PodProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] });
  assert.deepEqual(entry('services/proxy'), { kind: 'ServiceProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] });
  assert.deepEqual(entry('nodes/proxy'), { kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] });
  assert.deepEqual(entry('bindings'), { kind: 'Binding', verbs: ['create'] });
  const names = [...byName.keys()].filter((n) => n.startsWith('pods/'));
  assert.deepEqual(names, ['pods/attach', 'pods/binding', 'pods/ephemeralcontainers', 'pods/eviction', 'pods/exec', 'pods/log', 'pods/portforward', 'pods/proxy', 'pods/status']);
  const aggregated = await s.client.call('GET', '/api', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' } });
  const core = (aggregated.json as { items: { versions: { resources: { resource: string; subresources?: { subresource: string; responseKind: { group: string; version: string; kind: string } }[] }[] }[] }[] }).items[0];
  const podsEntry = core?.versions[0]?.resources.find((r) => r.resource === 'pods');
  const evictionEntry = podsEntry?.subresources?.find((x) => x.subresource === 'eviction');
  assert.deepEqual(evictionEntry?.responseKind, { group: 'policy', version: 'v1', kind: 'Eviction' });
});
