import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceNetwork } from '../../../internal/registry/core/service/network.ts';
import { deleteNamespaceContent } from '../../../internal/controllers/namespace-content.ts';
import { createApiServer } from '../../../internal/apiserver/index.ts';
import { TestApiClient } from '../../support/api-client.ts';
import { startTestServer, testAdmission, testToken, type TestServer } from './harness.ts';

// Services get cluster IPs and node ports as kube-apiserver 1.28 gives them (alloc.go), held by
// one storage key each so that no two Services, through any replica, get the same one.

type Port = { name?: string; port: number; protocol?: string; targetPort?: number | string; nodePort?: number };
type Spec = { type?: string; clusterIP?: string; clusterIPs?: string[]; ipFamilies?: string[]; ipFamilyPolicy?: string; ports?: Port[]; selector?: Record<string, string>; externalName?: string; [k: string]: unknown };
type Svc = { metadata: { name: string; uid: string; resourceVersion: string }; spec: Spec };
type Status = { message: string; reason: string; code: number };

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const base = '/api/v1/namespaces/default/services';
const svc = (name: string, spec: Spec = {}): unknown => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec } });

async function create(server: { client: TestApiClient }, name: string, spec: Spec = {}, path = base): Promise<{ status: number; svc: Svc; error: Status }> {
  const res = await server.client.call('POST', path, { body: svc(name, spec) });
  return { status: res.status, svc: res.json as Svc, error: res.json as Status };
}

async function held(server: TestServer, key: string): Promise<boolean> {
  return (await server.storage.get(key)) !== null;
}

function inRange(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 10 && b !== undefined && b >= 96 && b <= 111;
}

test('a ClusterIP Service gets a free address of 10.96.0.0/12 and the defaults of SetDefaults_Service', async () => {
  const { status, svc: got } = await create(s, 'plain');
  assert.equal(status, 201);
  const ip = got.spec.clusterIP ?? '';
  assert.ok(inRange(ip), ip);
  assert.deepEqual(got.spec.clusterIPs, [ip]);
  assert.deepEqual(got.spec.ipFamilies, ['IPv4']);
  assert.equal(got.spec.ipFamilyPolicy, 'SingleStack');
  assert.equal(got.spec.type, 'ClusterIP');
  assert.equal(got.spec.sessionAffinity, 'None');
  assert.equal(got.spec.internalTrafficPolicy, 'Cluster');
  assert.equal(got.spec.externalTrafficPolicy, undefined);
  assert.deepEqual(got.spec.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
  assert.ok(await held(s, `/core/serviceipallocations/${ip}`), 'the address is held by a storage key');
  const stored = await s.client.call('GET', `${base}/plain`);
  assert.equal((stored.json as Svc).spec.clusterIP, ip);
});

test('a requested address is given when free; a taken one or one out of range is a 422 with kube-apiserver\'s message', async () => {
  const first = await create(s, 'wants-ip', { clusterIP: '10.96.0.50' });
  assert.equal(first.status, 201);
  assert.deepEqual(first.svc.spec.clusterIPs, ['10.96.0.50']);
  const taken = await create(s, 'wants-same-ip', { clusterIP: '10.96.0.50' });
  assert.equal(taken.status, 422);
  assert.equal(taken.error.reason, 'Invalid');
  assert.equal(taken.error.message, 'Service "wants-same-ip" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.50"}: failed to allocate IP 10.96.0.50: provided IP is already allocated');
  const outside = await create(s, 'wants-far-ip', { clusterIP: '192.168.1.1' });
  assert.equal(outside.status, 422);
  assert.equal(outside.error.message, 'Service "wants-far-ip" is invalid: spec.clusterIPs: Invalid value: []string{"192.168.1.1"}: failed to allocate IP 192.168.1.1: the provided IP (192.168.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12');
  const broadcast = await create(s, 'wants-broadcast', { clusterIP: '10.111.255.255' });
  assert.equal(broadcast.status, 422, 'the broadcast address is not allocatable');
  const malformed = await create(s, 'wants-bad-ip', { clusterIP: '10.96.0.500' });
  assert.equal(malformed.status, 422);
  assert.match(malformed.error.message, /spec\.clusterIPs\[0\]: Invalid value: "10\.96\.0\.500": must be a valid IP address/);
  assert.equal((await s.client.call('GET', `${base}/wants-same-ip`)).status, 404, 'nothing written');
});

test('headless and ExternalName Services get no address', async () => {
  const headless = await create(s, 'headless', { clusterIP: 'None' });
  assert.equal(headless.status, 201);
  assert.deepEqual(headless.svc.spec.clusterIPs, ['None']);
  assert.deepEqual(headless.svc.spec.ipFamilies, ['IPv4']);
  const external = await create(s, 'external', { type: 'ExternalName', externalName: 'example.com', ports: [] });
  assert.equal(external.status, 201);
  assert.equal(external.svc.spec.clusterIP, undefined);
  assert.equal(external.svc.spec.clusterIPs, undefined);
  assert.equal(external.svc.spec.ipFamilies, undefined);
  assert.equal(external.svc.spec.internalTrafficPolicy, undefined);
});

test('NodePort and LoadBalancer Services get a node port per port; a requested one must be in range and free', async () => {
  const np = await create(s, 'np', { type: 'NodePort', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] });
  assert.equal(np.status, 201);
  const nodePorts = (np.svc.spec.ports ?? []).map((p) => p.nodePort ?? 0);
  assert.equal(new Set(nodePorts).size, 2);
  for (const n of nodePorts) {
    assert.ok(n >= 30000 && n <= 32767, String(n));
    assert.ok(await held(s, `/core/servicenodeportallocations/${n}`));
  }
  assert.equal(np.svc.spec.externalTrafficPolicy, 'Cluster');
  const lb = await create(s, 'lb', { type: 'LoadBalancer' });
  assert.equal(lb.status, 201);
  assert.equal(lb.svc.spec.allocateLoadBalancerNodePorts, true);
  assert.ok((lb.svc.spec.ports?.[0]?.nodePort ?? 0) >= 30000);
  const fixed = await create(s, 'np-fixed', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] });
  assert.equal(fixed.status, 201);
  assert.equal(fixed.svc.spec.ports?.[0]?.nodePort, 30080);
  const again = await create(s, 'np-fixed-again', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] });
  assert.equal(again.status, 422);
  assert.equal(again.error.message, 'Service "np-fixed-again" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
  const far = await create(s, 'np-far', { type: 'NodePort', ports: [{ port: 80, nodePort: 40000 }] });
  assert.equal(far.status, 422);
  assert.equal(far.error.message, 'Service "np-far" is invalid: spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767');
  const onClusterIp = await create(s, 'cip-with-np', { ports: [{ port: 80, nodePort: 30081 }] });
  assert.equal(onClusterIp.status, 422);
  assert.match(onClusterIp.error.message, /spec\.ports\[0\]\.nodePort: Forbidden: may not be used when `type` is 'ClusterIP'/);
});

test('a refused node port leaves no address behind: what a refused create claimed is released', async () => {
  const res = await create(s, 'half', { clusterIP: '10.96.0.60', type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] });
  assert.equal(res.status, 422, 'port 30080 is held by np-fixed');
  assert.equal(await held(s, '/core/serviceipallocations/10.96.0.60'), false);
  const dup = await create(s, 'plain', { clusterIP: '10.96.0.61' });
  assert.equal(dup.status, 409, 'the name is taken');
  assert.equal(await held(s, '/core/serviceipallocations/10.96.0.61'), false, 'released after the refused write');
});

test('delete releases the address and node ports, which another Service may then take', async () => {
  assert.equal((await create(s, 'reuse-a', { clusterIP: '10.96.0.70', type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] })).status, 201);
  assert.equal((await create(s, 'reuse-b', { clusterIP: '10.96.0.70' })).status, 422);
  assert.equal((await s.client.call('DELETE', `${base}/reuse-a`)).status, 200);
  assert.equal(await held(s, '/core/serviceipallocations/10.96.0.70'), false);
  assert.equal(await held(s, '/core/servicenodeportallocations/30090'), false);
  const b = await create(s, 'reuse-b', { clusterIP: '10.96.0.70', type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] });
  assert.equal(b.status, 201);
});

test('deletecollection and namespace deletion release what the deleted Services held', async () => {
  await s.client.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'svc-gone' } } });
  const path = '/api/v1/namespaces/svc-gone/services';
  const a = await create(s, 'a', { type: 'NodePort' }, path);
  const b = await create(s, 'b', {}, path);
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  assert.equal((await s.client.call('DELETE', path)).status, 200);
  assert.equal(await held(s, `/core/serviceipallocations/${a.svc.spec.clusterIP}`), false);
  assert.equal(await held(s, `/core/servicenodeportallocations/${a.svc.spec.ports?.[0]?.nodePort}`), false);
  assert.equal(await held(s, `/core/serviceipallocations/${b.svc.spec.clusterIP}`), false);
  const c = await create(s, 'c', { type: 'LoadBalancer' }, path);
  assert.equal(c.status, 201);
  const summary = await deleteNamespaceContent([...s.server.stores.values()].filter((st) => st.decl.namespaced), 'svc-gone', new AbortController().signal);
  assert.equal(summary.failures.size, 0);
  assert.equal(await held(s, `/core/serviceipallocations/${c.svc.spec.clusterIP}`), false);
  assert.equal(await held(s, `/core/servicenodeportallocations/${c.svc.spec.ports?.[0]?.nodePort}`), false);
});

test('a dry run shows the addresses a create would get and holds none', async () => {
  const res = await s.client.call('POST', `${base}?dryRun=All`, { body: svc('dry', { type: 'NodePort' }) });
  assert.equal(res.status, 201);
  const got = res.json as Svc;
  assert.ok(inRange(got.spec.clusterIP ?? ''));
  assert.equal(await held(s, `/core/serviceipallocations/${got.spec.clusterIP}`), false);
  assert.equal(await held(s, `/core/servicenodeportallocations/${got.spec.ports?.[0]?.nodePort}`), false);
  const taken = await s.client.call('POST', `${base}?dryRun=All`, { body: svc('dry', { clusterIP: '10.96.0.50' }) });
  assert.equal(taken.status, 422, 'a dry run still refuses a taken address');
});

test('many concurrent creates through two servers over one store never get the same address or node port; a full range is a 500', async (t) => {
  // 62 addresses and 64 node ports: random picks collide often, so the store's create decides.
  const network = serviceNetwork({ clusterIpRange: '10.0.0.0/26', nodePortRange: '30000-30063' });
  const small = await startTestServer({ serviceNetwork: network });
  // A second API server on the same store, as another replica is: nothing but the store is shared.
  const twin = await createApiServer({ storage: small.storage, tls: { cert: small.tls.cert, key: small.tls.key }, adminToken: testToken, listen: { host: '127.0.0.1', port: 0 }, log: () => undefined, admission: testAdmission, serviceNetwork: network });
  const twinClient = { client: new TestApiClient(`https://127.0.0.1:${twin.port}`, small.tls.cert, testToken) };
  t.after(async () => {
    await twinClient.client.close();
    await twin.close();
    await small.close();
  });
  const path = base;
  const results = await Promise.all(Array.from({ length: 60 }, (_, i) => create(i % 2 === 0 ? small : twinClient, `par-${i}`, { type: 'NodePort' }, path)));
  assert.deepEqual(results.map((r) => r.status), Array<number>(60).fill(201));
  const ips = results.map((r) => r.svc.spec.clusterIP);
  const ports = results.map((r) => r.svc.spec.ports?.[0]?.nodePort);
  assert.equal(new Set(ips).size, 60, 'no address given twice');
  assert.equal(new Set(ports).size, 60, 'no node port given twice');
  const rest = await Promise.all([60, 61, 62].map((i) => create(small, `par-${i}`, {}, path)));
  assert.deepEqual(rest.map((r) => r.status).sort(), [201, 201, 500]);
  const full = rest.find((r) => r.status === 500);
  assert.equal(full?.error.message, 'Internal error occurred: failed to allocate a serviceIP: range is full');
  // Many asking for the same address at once: exactly one gets it.
  await small.client.call('DELETE', `${path}/par-0`);
  const same = await Promise.all(Array.from({ length: 10 }, (_, i) => create(small, `same-${i}`, { clusterIP: ips[0] ?? '' }, path)));
  assert.deepEqual(same.map((r) => r.status).sort(), [201, ...Array<number>(9).fill(422)]);
});
