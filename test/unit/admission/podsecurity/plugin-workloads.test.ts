// The plugin on workloads with pod templates: their templates are warned about and audited, never
// enforced (the pods they create are), as pod-security-admission's ValidatePodController.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { MemoryObjects, attributes, namespace, oneContainer, plugin, validate } from './harness.ts';

const template = { metadata: { labels: { app: 'a' } }, spec: oneContainer('c', { privileged: true }) };
const workloads: readonly { group: string; resource: string; kind: string; object: KObject }[] = [
  { group: 'apps', resource: 'deployments', kind: 'Deployment', object: { metadata: { name: 'w' }, spec: { template } } },
  { group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', object: { metadata: { name: 'w' }, spec: { template } } },
  { group: 'apps', resource: 'statefulsets', kind: 'StatefulSet', object: { metadata: { name: 'w' }, spec: { template } } },
  { group: 'apps', resource: 'daemonsets', kind: 'DaemonSet', object: { metadata: { name: 'w' }, spec: { template } } },
  { group: 'batch', resource: 'jobs', kind: 'Job', object: { metadata: { name: 'w' }, spec: { template } } },
  { group: 'batch', resource: 'cronjobs', kind: 'CronJob', object: { metadata: { name: 'w' }, spec: { jobTemplate: { spec: { template } } } } },
  { group: '', resource: 'replicationcontrollers', kind: 'ReplicationController', object: { metadata: { name: 'w' }, spec: { template } } },
  { group: '', resource: 'podtemplates', kind: 'PodTemplate', object: { metadata: { name: 'w' }, template } },
];

function strictNamespace(): MemoryObjects {
  const objects = new MemoryObjects();
  objects.namespaces.set('ns', namespace('ns', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/audit': 'baseline' }));
  return objects;
}

test('every workload kind is warned about and audited but never refused', async () => {
  const p = plugin(strictNamespace());
  for (const w of workloads) {
    const attrs = attributes({ group: w.group, resource: w.resource, kind: w.kind, object: w.object });
    assert.equal(await validate(p, attrs), undefined, w.kind);
    const expected = 'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)';
    assert.deepEqual(attrs.warnings, [expected], w.kind);
    assert.equal(attrs.annotations.get('pod-security.kubernetes.io/audit-violations'), expected, w.kind);
    assert.equal(attrs.annotations.has('pod-security.kubernetes.io/enforce-policy'), false, `${w.kind}: enforce is not evaluated`);
  }
});

test('a workload is not checked when warn and audit are privileged, even if enforce is not', async () => {
  const objects = new MemoryObjects();
  objects.namespaces.set('ns', namespace('ns', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
  const w = workloads[0];
  assert.ok(w);
  const attrs = attributes({ group: w.group, resource: w.resource, kind: w.kind, object: w.object });
  assert.equal(await validate(plugin(objects), attrs), undefined);
  assert.deepEqual(attrs.warnings, []);
  assert.equal(attrs.annotations.size, 0);
});

test('a ReplicationController without a template and workload sub-resources are skipped', async () => {
  const p = plugin(strictNamespace());
  const rc = attributes({ resource: 'replicationcontrollers', kind: 'ReplicationController', object: { metadata: { name: 'rc' }, spec: {} } });
  assert.equal(await validate(p, rc), undefined);
  assert.deepEqual(rc.warnings, []);
  const w = workloads[0];
  assert.ok(w);
  const scale = attributes({ group: w.group, resource: w.resource, kind: 'Scale', subresource: 'scale', object: { metadata: { name: 'w' }, spec: { replicas: 2 } } });
  assert.equal(await validate(p, scale), undefined);
  assert.deepEqual(scale.warnings, []);
});

test('a workload whose namespace cannot be read is allowed, the audit event noting why', async () => {
  const w = workloads[0];
  assert.ok(w);
  const attrs = attributes({ group: w.group, resource: w.resource, kind: w.kind, object: w.object, namespace: 'gone' });
  assert.equal(await validate(plugin(new MemoryObjects()), attrs), undefined);
  assert.equal(attrs.annotations.get('pod-security.kubernetes.io/error'), 'failed to lookup namespace "gone": namespaces "gone" not found');
});

test('exempt users and namespaces skip workloads too', async () => {
  const configuration = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { usernames: ['ci'] } };
  const w = workloads[0];
  assert.ok(w);
  const attrs = attributes({ group: w.group, resource: w.resource, kind: w.kind, object: w.object, username: 'ci' });
  assert.equal(await validate(plugin(strictNamespace(), configuration), attrs), undefined);
  assert.deepEqual(attrs.warnings, []);
  assert.equal(attrs.annotations.get('pod-security.kubernetes.io/exempt'), 'user');
});
