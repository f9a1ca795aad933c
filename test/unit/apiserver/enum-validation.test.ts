// Enum fields of built-in kinds are checked where kube-apiserver v1.28 checks them, with its
// field paths, its reasons (NotSupported or Invalid, as its validation.go picks) and the supported
// values in its order; nothing is stored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Json = Record<string, unknown>;
type Status = { details?: { causes?: { field: string; message: string }[] } };

const labels = { app: 'enum' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'main', image: 'nginx' }] } };
const apps = '/apis/apps/v1/namespaces/default';
const core = '/api/v1/namespaces/default';

/** The causes of a refused create (422, nothing stored), as [field, message] pairs. */
async function causes(path: string, body: Json): Promise<[string, string][]> {
  const r = await s.client.call('POST', path, { body });
  assert.equal(r.status, 422, r.text);
  const name = (body.metadata as { name: string }).name;
  assert.equal((await s.client.call('GET', `${path}/${name}`)).status, 404, 'nothing is stored');
  return ((r.json as Status).details?.causes ?? []).map((c) => [c.field, c.message]);
}

test('a Deployment strategy type is Recreate or RollingUpdate, reported on the strategy', async () => {
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bad-strategy' }, spec: { selector: { matchLabels: labels }, template, strategy: { type: 'Canary' } } };
  assert.deepEqual(await causes(`${apps}/deployments`, body), [
    ['spec.strategy', 'Unsupported value: apps.DeploymentStrategy{Type:"Canary", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"'],
  ]);
});

test('a Recreate Deployment may not have rollingUpdate', async () => {
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'recreate-rolling' }, spec: { selector: { matchLabels: labels }, template, strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } } };
  assert.deepEqual(await causes(`${apps}/deployments`, body), [['spec.strategy.rollingUpdate', "Forbidden: may not be specified when strategy `type` is 'Recreate'"]]);
});

test('a DaemonSet update strategy type is RollingUpdate or OnDelete', async () => {
  const body = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'bad-strategy' }, spec: { selector: { matchLabels: labels }, template, updateStrategy: { type: 'Sometimes' } } };
  assert.deepEqual(await causes(`${apps}/daemonsets`, body), [
    ['spec.updateStrategy', 'Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Sometimes", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"'],
  ]);
});

test('a StatefulSet pod management policy and update strategy are Invalid when unknown', async () => {
  const body = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'bad-policies' }, spec: { serviceName: 'x', selector: { matchLabels: labels }, template, podManagementPolicy: 'Random', updateStrategy: { type: 'Never' } } };
  assert.deepEqual(await causes(`${apps}/statefulsets`, body), [
    ['spec.podManagementPolicy', `Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`],
    ['spec.updateStrategy', `Invalid value: apps.StatefulSetUpdateStrategy{Type:"Never", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'`],
  ]);
});

test('a StatefulSet PVC retention policy is Retain or Delete, and defaults to Retain', async () => {
  const spec = { serviceName: 'x', selector: { matchLabels: labels }, template };
  const bad = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'bad-retention' }, spec: { ...spec, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } } };
  assert.deepEqual(await causes(`${apps}/statefulsets`, bad), [['spec.persistentVolumeClaimRetentionPolicy.whenDeleted', 'Unsupported value: "Keep": supported values: "Retain", "Delete"']]);
  const good = await s.client.call('POST', `${apps}/statefulsets`, { body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'default-retention' }, spec } });
  assert.equal(good.status, 201, good.text);
  assert.deepEqual((good.json as { spec: Json }).spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
});

test('a PersistentVolume access mode, reclaim policy and volume mode', async () => {
  const body = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'bad-pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce', 'ReadWriteSometimes'], hostPath: { path: '/tmp' }, persistentVolumeReclaimPolicy: 'Shred', volumeMode: 'Tape' } };
  assert.deepEqual(await causes('/api/v1/persistentvolumes', body), [
    ['spec.accessModes', 'Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"'],
    ['spec.persistentVolumeReclaimPolicy', 'Unsupported value: "Shred": supported values: "Delete", "Recycle", "Retain"'],
    ['spec.volumeMode', 'Unsupported value: "Tape": supported values: "Block", "Filesystem"'],
  ]);
});

test('a PersistentVolumeClaim access mode and volume mode; ReadWriteOncePod goes alone', async () => {
  const body = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'bad-pvc' }, spec: { accessModes: ['ReadWriteOncePod', 'ReadOnlyMany', 'RWO'], volumeMode: 'block', resources: { requests: { storage: '1Gi' } } } };
  assert.deepEqual(await causes(`${core}/persistentvolumeclaims`, body), [
    ['spec.accessModes', 'Unsupported value: "RWO": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"'],
    ['spec.accessModes', 'Forbidden: may not use ReadWriteOncePod with other access modes'],
    ['spec.volumeMode', 'Unsupported value: "block": supported values: "Block", "Filesystem"'],
  ]);
});

test('each built-in Secret type needs its keys', async () => {
  const secret = (name: string, type: string, data: Json = {}): Json => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, type, data });
  const path = `${core}/secrets`;
  assert.deepEqual(await causes(path, secret('no-dockerconfigjson', 'kubernetes.io/dockerconfigjson')), [['data[.dockerconfigjson]', 'Required value']]);
  const notJson = secret('bad-dockerconfigjson', 'kubernetes.io/dockerconfigjson', { '.dockerconfigjson': Buffer.from('[1]').toString('base64') });
  assert.deepEqual(await causes(path, notJson), [['data[.dockerconfigjson]', 'Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}']]);
  assert.deepEqual(await causes(path, secret('no-dockercfg', 'kubernetes.io/dockercfg')), [['data[.dockercfg]', 'Required value']]);
  assert.deepEqual(await causes(path, secret('no-basic', 'kubernetes.io/basic-auth')), [['data[username]', 'Required value'], ['data[password]', 'Required value']]);
  assert.deepEqual(await causes(path, secret('no-ssh', 'kubernetes.io/ssh-auth', { 'ssh-privatekey': '' })), [['data[ssh-privatekey]', 'Required value']]);
  assert.deepEqual(await causes(path, secret('no-tls-key', 'kubernetes.io/tls', { 'tls.crt': 'Y2VydA==' })), [['data[tls.key]', 'Required value']]);
  assert.deepEqual(await causes(path, secret('no-sa', 'kubernetes.io/service-account-token')), [['metadata.annotations[kubernetes.io/service-account.name]', 'Required value']]);
  const basic = await s.client.call('POST', path, { body: secret('basic', 'kubernetes.io/basic-auth', { password: '' }) });
  assert.equal(basic.status, 201, basic.text);
});

test('a Secret type may not change: an Invalid naming the new type', async () => {
  const path = `${core}/secrets`;
  const created = await s.client.call('POST', path, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'typed' }, type: 'Opaque', data: { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' } } });
  assert.equal(created.status, 201, created.text);
  const update = { ...(created.json as Json), type: 'kubernetes.io/tls' };
  const r = await s.client.call('PUT', `${path}/typed`, { body: update });
  assert.equal(r.status, 422, r.text);
  assert.deepEqual((r.json as Status).details?.causes?.map((c) => [c.field, c.message]), [['type', 'Invalid value: "kubernetes.io/tls": field is immutable']]);
});

test('a namespace finalizer without a domain must be a standard one', async () => {
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bad-finalizer' }, spec: { finalizers: ['kubernetes', 'cleanup', 'example.com/cleanup'] } };
  assert.deepEqual(await causes('/api/v1/namespaces', body), [['spec.finalizers', 'Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified']]);
});

test('a ResourceQuota scope and scope selector operator', async () => {
  const body = {
    apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'bad-scopes' },
    spec: { hard: { pods: '1' }, scopes: ['Sometimes'], scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Near', values: ['high'] }, { scopeName: 'BestEffort', operator: 'In', values: ['x'] }] } },
  };
  assert.deepEqual(await causes(`${core}/resourcequotas`, body), [
    ['spec.scopes', 'Invalid value: []core.ResourceQuotaScope{"Sometimes"}: unsupported scope'],
    ['spec.scopeSelector.matchExpressions.operator', 'Invalid value: "Near": not a valid selector operator'],
    ['spec.scopeSelector.matchExpressions.operator', "Invalid value: \"In\": must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"],
  ]);
});

test('a LimitRange type without a domain must be a standard limit type', async () => {
  const body = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'bad-type' }, spec: { limits: [{ type: 'Node', max: { cpu: '1' } }, { type: 'example.com/Thing', max: { cpu: '1' } }] } };
  assert.deepEqual(await causes(`${core}/limitranges`, body), [['spec.limits[0].type', 'Invalid value: "Node": must be a standard limit type or fully qualified']]);
});

test('an events.k8s.io Event type is Normal or Warning, named in the message', async () => {
  const body = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'bad-type' }, eventTime: '2026-11-26T10:00:00.000000Z', reportingController: 'example.com/c', reportingInstance: 'c-1', action: 'Create', reason: 'Created', type: 'Info', regarding: { kind: 'Pod', namespace: 'default', name: 'x' } };
  assert.deepEqual(await causes('/apis/events.k8s.io/v1/namespaces/default/events', body), [['type', 'Invalid value: "": has invalid value: Info']]);
});

test('a Node taint effect is required and one of the three effects', async () => {
  const body = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'bad-taints' }, spec: { taints: [{ key: 'a', effect: 'Evict' }, { key: 'b' }, { key: 'c', effect: 'NoExecute' }] } };
  assert.deepEqual(await causes('/api/v1/nodes', body), [
    ['spec.taints[0].effect', 'Unsupported value: "Evict": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'],
    ['spec.taints[1].effect', 'Required value'],
  ]);
});
