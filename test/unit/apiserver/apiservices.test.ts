// APIServices as kube-apiserver 1.28's autoregister controller keeps them: one per local group
// version, named `<version>.<group>` with apiVersionPriorities' priorities and Available=True
// (Local); user APIServices naming a service are validated and stored (not proxied to).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureLocalApiServices } from '../../../internal/registry/apiregistration/ensure-local-apiservices.ts';
import { startTestServer, type TestServer } from './harness.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const path = '/apis/apiregistration.k8s.io/v1/apiservices';

async function call(method: string, at: string, body?: unknown): Promise<{ status: number; json: Json; text: string }> {
  const res = await s.client.call(method, at, body === undefined ? {} : { body });
  return { status: res.status, json: res.json as Json, text: res.text };
}

test('every served group version has its local APIService, named and prioritized as kube-apiserver does', async () => {
  const items = (await call('GET', path)).json.items as Json[];
  const names = items.map((i) => i.metadata.name);
  for (const name of ['v1.', 'v1.apps', 'v1.autoscaling', 'v2.autoscaling', 'v1.events.k8s.io', 'v1beta3.flowcontrol.apiserver.k8s.io', 'v1beta2.flowcontrol.apiserver.k8s.io', 'v1.rbac.authorization.k8s.io']) {
    assert.ok(names.includes(name), `${name} in ${names.join(' ')}`);
  }
  assert.ok(!names.includes('v1.apiregistration.k8s.io'), 'upstream has no priority for the aggregator\'s own group and skips it');
  const core = items.find((i) => i.metadata.name === 'v1.') as Json;
  assert.deepEqual(core.spec, { version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
  assert.deepEqual(core.metadata.labels, { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
  const condition = core.status.conditions[0];
  assert.deepEqual([condition.type, condition.status, condition.reason, condition.message], ['Available', 'True', 'Local', 'Local APIServices are always available']);
  const v2 = items.find((i) => i.metadata.name === 'v2.autoscaling') as Json;
  assert.deepEqual(v2.spec, { group: 'autoscaling', version: 'v2', groupPriorityMinimum: 17500, versionPriority: 30 });
});

test('running the autoregistration again writes nothing, and a changed spec is put back', async () => {
  const store = s.server.stores.get(s.server.registry.find('apiregistration.k8s.io', 'v1', 'apiservices')!)!;
  const before = (await call('GET', path)).json.metadata.resourceVersion;
  await ensureLocalApiServices(store, [{ group: 'apps', version: 'v1' }]);
  assert.equal((await call('GET', path)).json.metadata.resourceVersion, before);
  const apps = (await call('GET', `${path}/v1.apps`)).json;
  apps.spec.versionPriority = 3;
  assert.equal((await call('PUT', `${path}/v1.apps`, apps)).status, 200);
  await ensureLocalApiServices(store, [{ group: 'apps', version: 'v1' }]);
  assert.equal((await call('GET', `${path}/v1.apps`)).json.spec.versionPriority, 15);
});

test('a user APIService naming a service is stored with its port defaulted, and shown as not yet known available', async () => {
  const created = await call('POST', path, { metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true, service: { namespace: 'kube-system', name: 'metrics-server' } } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json.spec.service.port, 443);
  const table = (await s.client.call('GET', `${path}/v1beta1.metrics.k8s.io`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).json as Json;
  assert.deepEqual((table.columnDefinitions as Json[]).map((c) => c.name), ['Name', 'Service', 'Available', 'Age']);
  assert.deepEqual(table.rows[0].cells.slice(0, 3), ['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'Unknown']);
});

test('invalid APIServices are 422s with kube-aggregator\'s field paths', async () => {
  const res = await call('POST', path, { metadata: { name: 'v1.wrong.example.com' }, spec: { group: 'example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1001, service: { namespace: 'default', name: '', port: 70000 } } });
  assert.equal(res.status, 422, res.text);
  assert.deepEqual((res.json.details.causes as Json[]).map((c) => `${c.field}: ${c.message}`), [
    'metadata.name: Invalid value: "v1.wrong.example.com": must be `spec.version+"."+spec.group`: "v1.example.com"',
    'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
    'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    'spec.service.name: Required value',
    'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
  ]);
  const local = await call('POST', path, { metadata: { name: 'v2.' }, spec: { version: 'v2', groupPriorityMinimum: 1, versionPriority: 1 } });
  assert.equal(local.status, 422);
  assert.equal(local.json.details.causes[0].field, 'spec.group');
});
