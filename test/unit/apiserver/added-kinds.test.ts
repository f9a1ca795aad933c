// The kinds of batch/v1, rbac, networking, policy, storage, scheduling, node and discovery, and
// core's podtemplates, replicationcontrollers and componentstatuses: kube-apiserver 1.28's
// defaults, the validation users meet (field paths and messages as upstream gives them),
// immutable fields, sub-resources and read-only componentstatuses.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

type Json = Record<string, unknown>;
interface Cause {
  reason: string;
  message: string;
  field: string;
}

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const container = { name: 'main', image: 'busybox' };

async function create(path: string, body: Json): Promise<Json> {
  const r = await s.client.call('POST', path, { body });
  assert.equal(r.status, 201, r.text);
  return r.json as Json;
}

/** The causes of a 422 Invalid answer to a write. */
async function invalid(method: string, path: string, body: Json): Promise<Cause[]> {
  const r = await s.client.call(method, path, { body });
  assert.equal(r.status, 422, r.text);
  return ((r.json as { details: { causes: Cause[] } }).details.causes ?? []).map(({ reason, message, field }) => ({ reason, message, field }));
}

/** Reads an object, changes it, and PUTs it back, answering the causes of the refusal. */
async function invalidUpdate(path: string, change: (o: Json) => void): Promise<Cause[]> {
  const current = (await s.client.call('GET', path)).json as Json;
  change(current);
  return invalid('PUT', path, current);
}

describe('batch/v1 Job', () => {
  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  const job = (name: string, spec: Json = {}): Json => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: { containers: [container], restartPolicy: 'Never' } }, ...spec } });

  test('a template left to restart Always is refused as upstream: Required with the valid values', async () => {
    const body = job('always');
    delete ((body.spec as Json).template as { spec: Json }).spec.restartPolicy;
    assert.deepEqual(await invalid('POST', jobs, body), [{ reason: 'FieldValueRequired', message: 'Required value: valid values: "OnFailure", "Never"', field: 'spec.template.spec.restartPolicy' }]);
  });

  test('a manual selector must match the template labels; without one it is required', async () => {
    const causes = await invalid('POST', jobs, job('manual', { manualSelector: true, selector: { matchLabels: { app: 'a' } } }));
    assert.deepEqual(causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: null: `selector` does not match template `labels`', field: 'spec.template.metadata.labels' }]);
    assert.deepEqual(await invalid('POST', jobs, job('manual', { manualSelector: true })), [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' }]);
  });

  test('the selector and the template of a running job are immutable; parallelism is not', async () => {
    await create(jobs, job('immutable', { parallelism: 2 }));
    const selector = await invalidUpdate(`${jobs}/immutable`, (o) => {
      ((o.spec as Json).selector as { matchLabels: Json }).matchLabels.extra = 'x';
    });
    assert.ok(selector.some((c) => c.field === 'spec.selector' && c.message.endsWith(': field is immutable')), JSON.stringify(selector));
    const template = await invalidUpdate(`${jobs}/immutable`, (o) => {
      ((o.spec as { template: { spec: { containers: Json[] } } }).template.spec.containers[0] as Json).image = 'busybox:2';
    });
    assert.deepEqual(template.map((c) => c.field), ['spec.template']);
    const current = (await s.client.call('GET', `${jobs}/immutable`)).json as { spec: Json };
    current.spec.parallelism = 3;
    assert.equal((await s.client.call('PUT', `${jobs}/immutable`, { body: current })).status, 200);
  });

  test('status.successful is a field selector; status writes go through jobs/status', async () => {
    await create(jobs, job('selected'));
    const list = (await s.client.call('GET', `${jobs}?fieldSelector=status.successful=0`)).json as { items: { metadata: { name: string } }[] };
    assert.ok(list.items.some((i) => i.metadata.name === 'selected'));
    const current = (await s.client.call('GET', `${jobs}/selected`)).json as Json;
    current.status = { succeeded: 1 };
    const r = await s.client.call('PUT', `${jobs}/selected/status`, { body: current });
    assert.equal(r.status, 200, r.text);
    assert.equal(((await s.client.call('GET', `${jobs}?fieldSelector=status.successful=1`)).json as { items: unknown[] }).items.length, 1);
  });
});

describe('batch/v1 CronJob', () => {
  const cronjobs = '/apis/batch/v1/namespaces/default/cronjobs';
  const cronjob = (name: string, spec: Json = {}): Json => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: { schedule: '@hourly', jobTemplate: { spec: { template: { spec: { containers: [container], restartPolicy: 'OnFailure' } } } }, ...spec },
  });
  const scheduleError = async (schedule: string): Promise<string> => (await invalid('POST', cronjobs, cronjob('bad', { schedule }))).map((c) => `${c.field}: ${c.message}`).join('; ');

  test('schedules are checked as robfig/cron ParseStandard checks them', async () => {
    assert.equal(await scheduleError('* * *'), 'spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]');
    assert.equal(await scheduleError('61 * * * *'), 'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61');
    assert.equal(await scheduleError('* * * foo *'), 'spec.schedule: Invalid value: "* * * foo *": failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax');
    assert.equal(await scheduleError('@sometimes'), 'spec.schedule: Invalid value: "@sometimes": unrecognized descriptor: @sometimes');
    assert.equal(await scheduleError('TZ=UTC * * * * *'), 'spec.schedule: Invalid value: "TZ=UTC * * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
    for (const [i, schedule] of ['*/5 0-23/2 1,15 jan-jun mon-fri', '@every 1h30m', '@daily'].entries()) await create(cronjobs, cronjob(`ok-${i}`, { schedule }));
  });

  test('time zones must be IANA names; names fit in 52 characters; the policy is an enum', async () => {
    assert.deepEqual(await invalid('POST', cronjobs, cronjob('tz', { timeZone: 'Mars/Olympus' })), [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus', field: 'spec.timeZone' }]);
    assert.deepEqual(await invalid('POST', cronjobs, cronjob('x'.repeat(53))), [{ reason: 'FieldValueInvalid', message: `Invalid value: "${'x'.repeat(53)}": must be no more than 52 characters`, field: 'metadata.name' }]);
    const policy = await invalid('POST', cronjobs, cronjob('policy', { concurrencyPolicy: 'Sometimes' }));
    assert.deepEqual(policy, [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"', field: 'spec.concurrencyPolicy' }]);
    const selector = await invalid('POST', cronjobs, cronjob('selector', { jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [container], restartPolicy: 'Never' } } } } }));
    assert.deepEqual(selector.map((c) => c.field), ['spec.jobTemplate.spec.selector']);
  });
});

describe('rbac.authorization.k8s.io/v1', () => {
  const group = '/apis/rbac.authorization.k8s.io/v1';
  const binding = (name: string, roleRef: Json, subjects: Json[]): Json => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name }, roleRef, subjects });

  test('rules need verbs, groups and resources; namespaced rules may not name URLs', async () => {
    const causes = await invalid('POST', `${group}/namespaces/default/roles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [{ verbs: [] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }] });
    assert.deepEqual(causes.map((c) => `${c.field}: ${c.message}`), [
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
      'rules[1].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    ]);
  });

  test('a binding defaults its API groups, refuses unknown kinds and never changes its roleRef', async () => {
    const created = await create(`${group}/namespaces/default/rolebindings`, binding('b', { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, [{ kind: 'User', name: 'jane' }]));
    assert.deepEqual(created.subjects, [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }]);
    const changed = await invalidUpdate(`${group}/namespaces/default/rolebindings/b`, (o) => {
      (o.roleRef as Json).name = 'other';
    });
    assert.deepEqual(changed.map((c) => [c.field, c.message.endsWith(': cannot change roleRef')]), [['roleRef', true]]);
    const kind = await invalid('POST', `${group}/namespaces/default/rolebindings`, binding('k', { apiGroup: 'rbac.authorization.k8s.io', kind: 'Secret', name: 'r' }, []));
    assert.deepEqual(kind, [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Secret": supported values: "Role", "ClusterRole"', field: 'roleRef.kind' }]);
    const crb = await invalid('POST', `${group}/clusterrolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'c' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] });
    assert.deepEqual(crb, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'subjects[0].namespace' }]);
  });
});

describe('networking.k8s.io/v1, policy/v1', () => {
  test('an ingress path needs a pathType and a backend with a port', async () => {
    const causes = await invalid('POST', '/apis/networking.k8s.io/v1/namespaces/default/ingresses', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'i' },
      spec: { rules: [{ host: '10.0.0.1', http: { paths: [{ path: 'rel', pathType: 'Exact', backend: { service: { name: 'svc' } } }] } }] },
    });
    assert.deepEqual(causes.map((c) => `${c.field}: ${c.message}`), [
      'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      'spec.rules[0].http.paths[0].path: Invalid value: "rel": must be an absolute path',
      'spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
    ]);
  });

  test('a network policy defaults its policy types and port protocols', async () => {
    const created = await create('/apis/networking.k8s.io/v1/namespaces/default/networkpolicies', { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'n' }, spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] } });
    assert.deepEqual(created.spec, { podSelector: {}, egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }], policyTypes: ['Ingress', 'Egress'] });
  });

  test('minAvailable and maxUnavailable exclude each other; percentages stop at 100%', async () => {
    const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const both = await invalid('POST', pdbs, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec: { minAvailable: 1, maxUnavailable: '120%' } });
    assert.deepEqual(both.map((c) => [c.field, c.message.replace(/^Invalid value: \{.*\}: /, 'Invalid value: {...}: ')]), [
      ['spec', 'Invalid value: {...}: minAvailable and maxUnavailable cannot be both set'],
      ['spec.maxUnavailable', 'Invalid value: 120%: must not be greater than 100%'],
    ]);
    const created = await create(pdbs, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec: { maxUnavailable: '50%' } });
    assert.deepEqual(created.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });
});

describe('storage, scheduling, node and discovery', () => {
  test('a storage class defaults its policies and keeps its parameters', async () => {
    const created = await create('/apis/storage.k8s.io/v1/storageclasses', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'example.com/p', parameters: { a: 'b' } });
    assert.deepEqual([created.reclaimPolicy, created.volumeBindingMode], ['Delete', 'Immediate']);
    const causes = await invalidUpdate('/apis/storage.k8s.io/v1/storageclasses/sc', (o) => {
      o.parameters = { a: 'c' };
    });
    assert.deepEqual(causes, [{ reason: 'FieldValueForbidden', message: 'Forbidden: updates to parameters are forbidden.', field: 'parameters' }]);
  });

  test('a CSI driver gets upstream defaults', async () => {
    const created = await create('/apis/storage.k8s.io/v1/csidrivers', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'd.example.com' }, spec: {} });
    assert.deepEqual(created.spec, { attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false });
  });

  test('priority classes: system- names are reserved, the value is fixed, the policy defaulted', async () => {
    const pcs = '/apis/scheduling.k8s.io/v1/priorityclasses';
    const reserved = await invalid('POST', pcs, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-mine' }, value: 5 });
    assert.deepEqual(reserved, [{ reason: 'FieldValueForbidden', message: "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class", field: 'metadata.name' }]);
    const high = await invalid('POST', pcs, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000000001 });
    assert.deepEqual(high.map((c) => c.message), ['Forbidden: maximum allowed value of a user defined priority is 1000000000']);
    await create(pcs, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'pc' }, value: 5 });
    const changed = await invalidUpdate(`${pcs}/pc`, (o) => {
      o.value = 6;
    });
    assert.deepEqual(changed, [{ reason: 'FieldValueForbidden', message: 'Forbidden: may not be changed in an update.', field: 'value' }]);
  });

  test('a runtime class handler is a DNS label and immutable', async () => {
    const rcs = '/apis/node.k8s.io/v1/runtimeclasses';
    assert.deepEqual((await invalid('POST', rcs, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'bad' }, handler: 'Bad_Handler' })).map((c) => c.field), ['handler']);
    await create(rcs, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'rc' }, handler: 'runc' });
    const changed = await invalidUpdate(`${rcs}/rc`, (o) => {
      o.handler = 'crun';
    });
    assert.deepEqual(changed, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "crun": field is immutable', field: 'handler' }]);
  });

  test('an endpoint slice: addressType an enum and immutable, ports defaulted', async () => {
    const slices = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
    const slice = (name: string, addressType: string): Json => ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name }, addressType, endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ port: 80 }] });
    assert.deepEqual(await invalid('POST', slices, slice('bad', 'IPv5')), [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"', field: 'addressType' }]);
    const created = await create(slices, slice('es', 'IPv4'));
    assert.deepEqual(created.ports, [{ port: 80, name: '', protocol: 'TCP' }]);
    const changed = await invalidUpdate(`${slices}/es`, (o) => {
      o.addressType = 'FQDN';
      o.endpoints = [{ addresses: ['a.example.com'] }];
    });
    assert.deepEqual(changed, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "FQDN": field is immutable', field: 'addressType' }]);
  });
});

describe('core/v1 replicationcontrollers, podtemplates, componentstatuses', () => {
  test('a replication controller takes its selector from the template and scales', async () => {
    const rcs = '/api/v1/namespaces/default/replicationcontrollers';
    const created = await create(rcs, { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } } } });
    assert.deepEqual([(created.spec as Json).selector, (created.spec as Json).replicas, created.metadata && (created.metadata as Json).labels, created.status], [{ app: 'web' }, 1, { app: 'web' }, { replicas: 0 }]);
    const scale = (await s.client.call('GET', `${rcs}/rc/scale`)).json as { spec: Json; status: Json };
    assert.deepEqual([scale.spec, scale.status], [{ replicas: 1 }, { replicas: 0, selector: 'app=web' }]);
    scale.spec.replicas = 4;
    assert.equal((await s.client.call('PUT', `${rcs}/rc/scale`, { body: scale })).status, 200);
    assert.equal(((await s.client.call('GET', `${rcs}/rc`)).json as { spec: Json }).spec.replicas, 4);
    const restart = await invalid('POST', rcs, { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'never' }, spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [container], restartPolicy: 'Never' } } } });
    assert.deepEqual(restart, [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Never": supported values: "Always"', field: 'spec.template.spec.restartPolicy' }]);
  });

  test('a pod template counts template changes in its generation', async () => {
    const templates = '/api/v1/namespaces/default/podtemplates';
    const created = await create(templates, { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt' }, template: { spec: { containers: [container] } } });
    assert.equal((created.metadata as Json).generation, 1);
    ((created.template as { spec: { containers: Json[] } }).spec.containers[0] as Json).image = 'busybox:2';
    const r = await s.client.call('PUT', `${templates}/pt`, { body: created });
    assert.equal(((r.json as { metadata: Json }).metadata).generation, 2, r.text);
  });

  test('componentstatuses are read-only, served with a deprecation warning', async () => {
    const get = await s.client.call('GET', '/api/v1/componentstatuses/etcd-0');
    assert.equal(get.status, 200);
    assert.deepEqual((get.json as Json).conditions, [{ type: 'Healthy', status: 'True', message: 'ok' }]);
    assert.equal(get.headers.warning, '299 - "v1 ComponentStatus is deprecated in v1.19+"');
    assert.equal((await s.client.call('GET', '/api/v1/componentstatuses/scheduler')).status, 404);
    assert.equal((await s.client.call('POST', '/api/v1/componentstatuses', { body: { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'x' } } })).status, 405);
    const watch = await s.client.call('GET', '/api/v1/componentstatuses?watch=true');
    assert.equal(watch.status, 405);
    assert.equal((watch.json as { message: string }).message, 'watch is not supported on resources of kind "componentstatuses"');
    const discovery = (await s.client.call('GET', '/api/v1')).json as { resources: { name: string; verbs: string[] }[] };
    assert.deepEqual(discovery.resources.find((r) => r.name === 'componentstatuses')?.verbs, ['get', 'list']);
  });
});
