import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createApiServer } from '../../../internal/apiserver/index.ts';
import { serviceNetwork } from '../../../internal/registry/core/service/network.ts';
import { startTestServer, testAdmission, testToken, type TestServer } from './harness.ts';

// Updates of Services keep, claim and release cluster IPs and node ports as kube-apiserver 1.28
// does (updateClusterIPs, txnUpdateNodePorts, patchAllocatedValues, dropTypeDependentFields).

type Port = { name?: string; port: number; protocol?: string; targetPort?: number | string; nodePort?: number };
type Spec = { type?: string; clusterIP?: string; clusterIPs?: string[]; ipFamilies?: string[]; ipFamilyPolicy?: string; ports?: Port[]; [k: string]: unknown };
type Svc = { metadata: { name: string; resourceVersion: string }; spec: Spec };
type Status = { message: string; code: number };

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const base = '/api/v1/namespaces/default/services';
const merge = { contentType: 'application/merge-patch+json' };

async function create(name: string, spec: Spec = {}): Promise<Svc> {
  const res = await s.client.call('POST', base, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec } } });
  assert.equal(res.status, 201, res.text);
  return res.json as Svc;
}

async function patch(name: string, body: unknown): Promise<{ status: number; svc: Svc; error: Status }> {
  const res = await s.client.call('PATCH', `${base}/${name}`, { body, ...merge });
  return { status: res.status, svc: res.json as Svc, error: res.json as Status };
}

async function held(key: string): Promise<boolean> {
  return (await s.storage.get(key)) !== null;
}

test('ClusterIP to NodePort claims node ports; NodePort back to ClusterIP releases them and clears the fields', async () => {
  const created = await create('flip');
  const ip = created.spec.clusterIP;
  const toNodePort = await patch('flip', { spec: { type: 'NodePort' } });
  assert.equal(toNodePort.status, 200, toNodePort.error.message);
  const nodePort = toNodePort.svc.spec.ports?.[0]?.nodePort ?? 0;
  assert.ok(nodePort >= 30000 && nodePort <= 32767);
  assert.equal(toNodePort.svc.spec.clusterIP, ip, 'the address is kept');
  assert.equal(toNodePort.svc.spec.externalTrafficPolicy, 'Cluster');
  assert.ok(await held(`/core/servicenodeportallocations/${nodePort}`));
  const back = await patch('flip', { spec: { type: 'ClusterIP' } });
  assert.equal(back.status, 200, back.error.message);
  assert.equal(back.svc.spec.ports?.[0]?.nodePort, undefined);
  assert.equal(back.svc.spec.externalTrafficPolicy, undefined);
  assert.equal(await held(`/core/servicenodeportallocations/${nodePort}`), false);
  assert.ok(await held(`/core/serviceipallocations/${ip}`));
});

test('to ExternalName releases the address; back from ExternalName claims a new one', async () => {
  const created = await create('cname');
  const ip = created.spec.clusterIP;
  const toName = await patch('cname', { spec: { type: 'ExternalName', externalName: 'example.com' } });
  assert.equal(toName.status, 200, toName.error.message);
  assert.equal(toName.svc.spec.clusterIP, undefined);
  assert.equal(toName.svc.spec.ipFamilies, undefined);
  assert.equal(await held(`/core/serviceipallocations/${ip}`), false);
  const back = await patch('cname', { spec: { type: 'ClusterIP', externalName: null } });
  assert.equal(back.status, 200, back.error.message);
  assert.ok(back.svc.spec.clusterIP);
  assert.ok(await held(`/core/serviceipallocations/${back.svc.spec.clusterIP}`));
});

test('the cluster IP may not change once set, and a PUT that leaves it out keeps it', async () => {
  const created = await create('fixed-ip', { clusterIP: '10.96.1.1' });
  const changed = await patch('fixed-ip', { spec: { clusterIP: '10.96.1.2' } });
  assert.equal(changed.status, 422);
  assert.equal(changed.error.message, 'Service "fixed-ip" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.1.2"}: may not change once set');
  assert.equal(await held('/core/serviceipallocations/10.96.1.2'), false);
  const { clusterIP: _ip, clusterIPs: _ips, ...rest } = created.spec;
  const put = await s.client.call('PUT', `${base}/fixed-ip`, { body: { ...created, spec: { ...rest, selector: { app: 'other' } } } });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual((put.json as Svc).spec.clusterIPs, ['10.96.1.1']);
});

test('node ports left out of a PUT are kept by port name; a changed one is claimed and the old one released', async () => {
  const created = await create('np-put', { type: 'NodePort', ports: [{ name: 'http', port: 80 }] });
  const old = created.spec.ports?.[0]?.nodePort ?? 0;
  const kept = await s.client.call('PUT', `${base}/np-put`, { body: { ...created, spec: { ...created.spec, ports: [{ name: 'http', port: 80 }] } } });
  assert.equal(kept.status, 200, kept.text);
  assert.equal((kept.json as Svc).spec.ports?.[0]?.nodePort, old);
  const moved = await patch('np-put', { spec: { ports: [{ name: 'http', port: 80, nodePort: 31999 }] } });
  assert.equal(moved.status, 200, moved.error.message);
  assert.ok(await held('/core/servicenodeportallocations/31999'));
  assert.equal(await held(`/core/servicenodeportallocations/${old}`), false);
});

test('a status write leaves the allocations alone', async () => {
  const created = await create('status-only', { type: 'LoadBalancer' });
  const res = await s.client.call('PUT', `${base}/status-only/status`, { body: { ...created, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual((res.json as Svc).spec, created.spec);
});

test('dual-stack ranges: PreferDualStack gets one address of each family; RequireDualStack on a single-stack cluster is refused', async (t) => {
  const dual = await startTestServer({ serviceNetwork: serviceNetwork({ clusterIpRange: '10.96.0.0/12,fd00:10:96::/112' }) });
  t.after(() => dual.close());
  const res = await dual.client.call('POST', base, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ds' }, spec: { ipFamilyPolicy: 'PreferDualStack', ports: [{ port: 80 }] } } });
  assert.equal(res.status, 201, res.text);
  const spec = (res.json as Svc).spec;
  assert.deepEqual(spec.ipFamilies, ['IPv4', 'IPv6']);
  assert.equal(spec.clusterIPs?.length, 2);
  assert.match(spec.clusterIPs?.[1] ?? '', /^fd00:10:96::/);
  assert.ok((await dual.storage.get(`/core/serviceipallocations/${spec.clusterIPs?.[1]}`)) !== null);
  const single = await s.client.call('POST', base, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ds' }, spec: { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] } } });
  assert.equal(single.status, 422);
  assert.equal((single.json as Status).message, 'Service "ds" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services');
  const v6 = await s.client.call('POST', base, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'v6' }, spec: { clusterIP: 'fd00::1', ports: [{ port: 80 }] } } });
  assert.equal(v6.status, 422);
  assert.equal((v6.json as Status).message, 'Service "v6" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::1"}: IPv6 is not configured on this cluster');
});

test('the kubernetes Service and its Endpoints are made at start: 443 to the API port on the advertise address', async (t) => {
  const server = await startTestServer({ kubernetesService: { advertiseHost: '127.0.0.1' } });
  t.after(() => server.close());
  const svcRes = await server.client.call('GET', '/api/v1/namespaces/default/services/kubernetes');
  assert.equal(svcRes.status, 200, svcRes.text);
  const got = svcRes.json as Svc & { metadata: { labels: Record<string, string> } };
  assert.equal(got.spec.clusterIP, '10.96.0.1');
  assert.deepEqual(got.spec.ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: server.server.port }]);
  assert.deepEqual(got.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
  const ep = await server.client.call('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
  assert.equal(ep.status, 200, ep.text);
  assert.deepEqual((ep.json as { subsets: unknown }).subsets, [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: server.server.port, protocol: 'TCP' }] }]);
  // Another replica on the same store lists itself beside the first and leaves the Service as it is.
  const twin = await createApiServer({ storage: server.storage, tls: { cert: server.tls.cert, key: server.tls.key }, adminToken: testToken, listen: { host: '127.0.0.1', port: 0 }, log: () => undefined, admission: testAdmission, kubernetesService: { advertiseHost: '127.0.0.1' } });
  t.after(() => twin.close());
  const both = ((await server.client.call('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json as { subsets: { ports: { port: number }[] }[] }).subsets;
  assert.deepEqual(both.map((subset) => subset.ports[0]?.port), [server.server.port, twin.port].sort((a, b) => a - b));
  assert.deepEqual(((await server.client.call('GET', '/api/v1/namespaces/default/services/kubernetes')).json as Svc).spec, got.spec);
});

const kubectlPath = '/usr/bin/kubectl';
const run = promisify(execFile);

test('kubectl create service nodeport shows its node port in kubectl get svc', { skip: !existsSync(kubectlPath) && 'kubectl not installed' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-svc-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${s.baseUrl}\n    certificate-authority-data: ${Buffer.from(s.tls.cert).toString('base64')}\nusers:\n- name: u\n  user:\n    token: ${testToken}\ncontexts:\n- name: x\n  context: {cluster: c, user: u, namespace: default}\ncurrent-context: x\n`,
  );
  const kubectl = async (...args: string[]) => (await run(kubectlPath, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], { timeout: 20_000 })).stdout;
  assert.equal(await kubectl('create', 'service', 'nodeport', 'x', '--tcp=80:8080'), 'service/x created\n');
  const stored = (await s.client.call('GET', `${base}/x`)).json as Svc;
  const nodePort = stored.spec.ports?.[0]?.nodePort ?? 0;
  assert.ok(nodePort >= 30000 && nodePort <= 32767);
  const table = await kubectl('get', 'svc', 'x');
  assert.match(table, new RegExp(`^NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE\\nx\\s+NodePort\\s+${(stored.spec.clusterIP ?? '').replaceAll('.', '\\.')}\\s+<none>\\s+80:${nodePort}/TCP\\s+\\d+s\\n$`));
  // Applying a manifest that names no address or node port again and again keeps what was given.
  const manifest = join(dir, 'svc.yaml');
  writeFileSync(manifest, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: applied\nspec:\n  type: NodePort\n  selector:\n    app: a\n  ports:\n  - name: http\n    port: 80\n');
  assert.equal(await kubectl('apply', '-f', manifest), 'service/applied created\n');
  const first = (await s.client.call('GET', `${base}/applied`)).json as Svc;
  assert.equal(await kubectl('apply', '-f', manifest), 'service/applied unchanged\n');
  assert.equal(await kubectl('apply', '--server-side', '-f', manifest), 'service/applied serverside-applied\n');
  assert.equal(await kubectl('apply', '--server-side', '-f', manifest), 'service/applied serverside-applied\n');
  const later = (await s.client.call('GET', `${base}/applied`)).json as Svc;
  assert.equal(later.spec.clusterIP, first.spec.clusterIP);
  assert.equal(later.spec.ports?.[0]?.nodePort, first.spec.ports?.[0]?.nodePort);
});
