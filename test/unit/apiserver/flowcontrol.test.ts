// API Priority and Fairness objects as kube-apiserver 1.28 serves them: the mandatory and
// suggested configuration made at start (idempotent, safe for replicas starting at once, a user's
// change kept when autoupdate-spec is false), v1beta3 and v1beta2 over one store, validation with
// kube's field paths.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureFlowControlConfiguration, type FlowControlStores } from '../../../internal/registry/flowcontrol/ensure-configuration.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import { FakeStorage } from './fake-storage.ts';
import { startTestServer, type TestServer } from './harness.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const v1beta3 = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
const v1beta2 = '/apis/flowcontrol.apiserver.k8s.io/v1beta2';

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json; text: string; warning: unknown }> {
  const res = await s.client.call(method, path, body === undefined ? {} : { body });
  return { status: res.status, json: res.json as Json, text: res.text, warning: res.headers.warning };
}

function storesOf(server: TestServer['server']): FlowControlStores {
  const find = (plural: string) => {
    const served = server.registry.find('flowcontrol.apiserver.k8s.io', 'v1beta3', plural);
    assert.ok(served);
    const store = server.stores.get(served);
    assert.ok(store);
    return store;
  };
  return { flowSchemas: find('flowschemas'), priorityLevels: find('prioritylevelconfigurations') };
}

const names = async (path: string): Promise<string[]> => ((await call('GET', path)).json.items as Json[]).map((i) => i.metadata.name).sort();

test('the mandatory and suggested configuration exists after start, marked for auto-update', async () => {
  assert.deepEqual(await names(`${v1beta3}/prioritylevelconfigurations`), ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  assert.deepEqual(await names(`${v1beta3}/flowschemas`), [
    'catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts',
    'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election',
  ]);
  const catchAll = (await call('GET', `${v1beta3}/flowschemas/catch-all`)).json;
  assert.equal(catchAll.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');
  assert.deepEqual(catchAll.spec.distinguisherMethod, { type: 'ByUser' });
  assert.equal(catchAll.spec.matchingPrecedence, 10000);
  const exempt = (await call('GET', `${v1beta3}/prioritylevelconfigurations/exempt`)).json;
  assert.deepEqual(exempt.spec, { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });
});

test('running the bootstrap again writes nothing', async () => {
  const before = (await call('GET', `${v1beta3}/flowschemas`)).json.items.map((i: Json) => i.metadata.resourceVersion);
  await ensureFlowControlConfiguration(storesOf(s.server));
  const after = (await call('GET', `${v1beta3}/flowschemas`)).json.items.map((i: Json) => i.metadata.resourceVersion);
  assert.deepEqual(after, before);
});

test('three replicas bootstrapping one store at once make each object once', async () => {
  const storage = new FakeStorage();
  const registry = new ResourceRegistry('k8s.io');
  const stores = (): FlowControlStores => ({
    flowSchemas: storeFor(storage, registry.find('flowcontrol.apiserver.k8s.io', 'v1beta3', 'flowschemas')!),
    priorityLevels: storeFor(storage, registry.find('flowcontrol.apiserver.k8s.io', 'v1beta3', 'prioritylevelconfigurations')!),
  });
  await Promise.all([ensureFlowControlConfiguration(stores()), ensureFlowControlConfiguration(stores()), ensureFlowControlConfiguration(stores())]);
  const list = await stores().flowSchemas.list(undefined, {});
  assert.equal(list.items.length, 13);
  await storage.close();
});

test('a suggested object changed with autoupdate-spec "false" is kept; with "true" it is put back', async () => {
  const path = `${v1beta3}/prioritylevelconfigurations/workload-low`;
  const current = (await call('GET', path)).json;
  current.metadata.annotations['apf.kubernetes.io/autoupdate-spec'] = 'false';
  current.spec.limited.nominalConcurrencyShares = 7;
  assert.equal((await call('PUT', path, current)).status, 200);
  await ensureFlowControlConfiguration(storesOf(s.server));
  const kept = (await call('GET', path)).json;
  assert.equal(kept.spec.limited.nominalConcurrencyShares, 7);
  kept.metadata.annotations['apf.kubernetes.io/autoupdate-spec'] = 'true';
  assert.equal((await call('PUT', path, kept)).status, 200);
  await ensureFlowControlConfiguration(storesOf(s.server));
  assert.equal((await call('GET', path)).json.spec.limited.nominalConcurrencyShares, 100);
});

test('a deleted suggested object comes back, and a mandatory spec cannot be changed', async () => {
  assert.equal((await call('DELETE', `${v1beta3}/flowschemas/probes`)).status, 200);
  await ensureFlowControlConfiguration(storesOf(s.server));
  assert.equal((await call('GET', `${v1beta3}/flowschemas/probes`)).status, 200);
  const catchAll = (await call('GET', `${v1beta3}/flowschemas/catch-all`)).json;
  catchAll.spec.matchingPrecedence = 9999;
  const res = await call('PUT', `${v1beta3}/flowschemas/catch-all`, catchAll);
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.details.causes[0].field, 'spec');
  assert.match(res.json.details.causes[0].message, /spec of 'catch-all' must equal the fixed value$/);
});

test('the exempt level\'s spec.exempt is the operator\'s to change and is kept', async () => {
  const path = `${v1beta3}/prioritylevelconfigurations/exempt`;
  const exempt = (await call('GET', path)).json;
  exempt.spec.exempt.lendablePercent = 10;
  const res = await call('PUT', path, exempt);
  assert.equal(res.status, 200, res.text);
  await ensureFlowControlConfiguration(storesOf(s.server));
  assert.equal((await call('GET', path)).json.spec.exempt.lendablePercent, 10);
});

test('invalid FlowSchemas and priority levels are 422s naming kube-apiserver field paths', async () => {
  const fs = await call('POST', `${v1beta3}/flowschemas`, {
    metadata: { name: 'bad' },
    spec: { priorityLevelConfiguration: { name: '' }, matchingPrecedence: 1, distinguisherMethod: { type: 'ByGroup' }, rules: [{ subjects: [{ kind: 'User' }], resourceRules: [{ verbs: ['get', '*'], apiGroups: [], resources: ['pods'] }] }] },
  });
  assert.equal(fs.status, 422, fs.text);
  assert.deepEqual((fs.json.details.causes as Json[]).map((c) => `${c.field}: ${c.message}`), [
    'spec.matchingPrecedence: Invalid value: 1: only the schema named \'exempt\' may have matchingPrecedence 1',
    'spec.distinguisherMethod.type: Unsupported value: "ByGroup": supported values: "ByNamespace", "ByUser"',
    'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
    'spec.rules[0].subjects[0].user: Required value: user is required when subject kind is \'User\'',
    'spec.rules[0].resourceRules[0].verbs: Invalid value: ["get","*"]: if \'*\' is present, must not specify other verbs',
    'spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
  ]);
  const pl = await call('POST', `${v1beta2}/prioritylevelconfigurations`, { metadata: { name: 'bad' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: -1, limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 8 } } } } });
  assert.equal(pl.status, 422, pl.text);
  assert.deepEqual((pl.json.details.causes as Json[]).map((c) => c.field), ['spec.limited.assuredConcurrencyShares', 'spec.limited.limitResponse.queuing.handSize'], 'v1beta2 names the shares as it spells them');
  assert.equal((await call('GET', `${v1beta3}/prioritylevelconfigurations/bad`)).status, 404);
});

test('a v1beta2 priority level is defaulted, stored once and read through v1beta3 with its shares renamed', async () => {
  const created = await call('POST', `${v1beta2}/prioritylevelconfigurations`, { metadata: { name: 'mine' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.warning, '299 - "flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration"');
  // kube's gauge of requested deprecated APIs, with the release that removes the version.
  const metrics = (await s.client.call('GET', '/metrics')).text;
  assert.match(metrics, /apiserver_requested_deprecated_apis\{group="flowcontrol\.apiserver\.k8s\.io",version="v1beta2",resource="prioritylevelconfigurations",subresource="",removed_release="1\.29"\} 1/);
  assert.doesNotMatch(metrics, /apiserver_requested_deprecated_apis\{[^}]*version="v1beta3"/);
  assert.deepEqual(created.json.spec.limited, { assuredConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } });
  const v3 = (await call('GET', `${v1beta3}/prioritylevelconfigurations/mine`)).json;
  assert.equal(v3.apiVersion, 'flowcontrol.apiserver.k8s.io/v1beta3');
  assert.equal(v3.spec.limited.nominalConcurrencyShares, 30);
  assert.equal(v3.spec.limited.assuredConcurrencyShares, undefined);
  assert.deepEqual(v3.status, {});
});

test('kubectl\'s tables show kube-apiserver\'s flowcontrol columns', async () => {
  const table = (await s.client.call('GET', `${v1beta3}/flowschemas/exempt`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).json as Json;
  assert.deepEqual((table.columnDefinitions as Json[]).map((c) => c.name), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
  assert.deepEqual([...table.rows[0].cells.slice(0, 4), table.rows[0].cells[5]], ['exempt', 'exempt', 1, '<none>', '?']);
  const pl = (await s.client.call('GET', `${v1beta3}/prioritylevelconfigurations/catch-all`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).json as Json;
  assert.deepEqual((pl.columnDefinitions as Json[]).map((c) => c.name), ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
  assert.deepEqual(pl.rows[0].cells.slice(0, 6), ['catch-all', 'Limited', 5, '<none>', '<none>', '<none>']);
});
