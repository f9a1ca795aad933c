// DefaultTolerationSeconds, DefaultIngressClass, DefaultStorageClass, StorageObjectInUseProtection
// and TaintNodesByCondition: the mutating plugins that fill in defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultTolerationSecondsPlugin } from '../../../../internal/admission/plugins/default-toleration-seconds/plugin.ts';
import { defaultIngressClassPlugin } from '../../../../internal/admission/plugins/default-ingress-class/plugin.ts';
import { defaultStorageClassPlugin } from '../../../../internal/admission/plugins/default-storage-class/plugin.ts';
import { storageObjectInUseProtectionPlugin } from '../../../../internal/admission/plugins/storage-object-in-use-protection/plugin.ts';
import { taintNodesByConditionPlugin } from '../../../../internal/admission/plugins/taint-nodes-by-condition/plugin.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { attributesOf, depsOf, FakeObjects, gr, make, object, pod, status } from './fixtures.ts';

const spec = (o: KObject) => o.spec as Record<string, unknown>;

test('DefaultTolerationSeconds adds the not-ready and unreachable tolerations (300 s by default)', async () => {
  const p = pod('p', { tolerations: [{ key: 'x', operator: 'Exists' }] });
  await make(defaultTolerationSecondsPlugin).admit!(attributesOf({ object: p }));
  assert.deepEqual(spec(p).tolerations, [
    { key: 'x', operator: 'Exists' },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
});

test('DefaultTolerationSeconds takes its seconds from the configuration and keeps existing tolerations', async () => {
  const plugin = make(defaultTolerationSecondsPlugin, depsOf(), { notReadySeconds: 60, unreachableSeconds: 120 });
  const p = pod('p', { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] });
  await plugin.admit!(attributesOf({ object: p }));
  assert.deepEqual((spec(p).tolerations as { tolerationSeconds: number }[]).map((t) => t.tolerationSeconds), [5, 120]);
  const all = pod('q', { tolerations: [{ operator: 'Exists' }] });
  await plugin.admit!(attributesOf({ object: all }));
  assert.deepEqual(spec(all).tolerations, [{ operator: 'Exists' }]);
  assert.equal(plugin.handles('UPDATE'), true);
  const longer = make(defaultTolerationSecondsPlugin, depsOf(), { defaultNotReadyTolerationSeconds: 1 });
  const q = pod('q');
  await longer.admit!(attributesOf({ object: q }));
  assert.deepEqual((spec(q).tolerations as { tolerationSeconds: number }[]).map((t) => t.tolerationSeconds), [1, 300]);
  assert.throws(() => make(defaultTolerationSecondsPlugin, depsOf(), { notReadySeconds: 'x' }), /notReadySeconds must be an integer/);
  assert.throws(() => make(defaultTolerationSecondsPlugin, depsOf(), { other: 1 }), /unknown configuration field "other"/);
});

const ingressAttributes = (o: ReturnType<typeof object>) => attributesOf({ resource: { group: 'networking.k8s.io', resource: 'ingresses' }, kind: { kind: 'Ingress' }, object: o });
const ingressClass = (name: string, created: string, isDefault = true) =>
  object('IngressClass', name, { spec: { controller: 'c' } }, { creationTimestamp: created, annotations: isDefault ? { 'ingressclass.kubernetes.io/is-default-class': 'true' } : {} });

test('DefaultIngressClass sets the default class, the newest of several', async () => {
  const objects = new FakeObjects()
    .put(gr.ingressclasses, ingressClass('old', '2026-01-01T00:00:00Z'))
    .put(gr.ingressclasses, ingressClass('new', '2026-02-01T00:00:00Z'))
    .put(gr.ingressclasses, ingressClass('newest-not-default', '2026-03-01T00:00:00Z', false));
  const plugin = make(defaultIngressClassPlugin, depsOf(objects));
  const ing = object('Ingress', 'i', { spec: {} }, { namespace: 'ns' });
  await plugin.admit!(ingressAttributes(ing));
  assert.equal(spec(ing).ingressClassName, 'new');
  const named = object('Ingress', 'i', { spec: { ingressClassName: 'mine' } });
  await plugin.admit!(ingressAttributes(named));
  assert.equal(spec(named).ingressClassName, 'mine');
  const annotated = object('Ingress', 'i', { spec: {} }, { annotations: { 'kubernetes.io/ingress.class': 'nginx' } });
  await plugin.admit!(ingressAttributes(annotated));
  assert.equal(spec(annotated).ingressClassName, undefined);
  const none = object('Ingress', 'i', { spec: {} });
  await make(defaultIngressClassPlugin).admit!(ingressAttributes(none));
  assert.equal(spec(none).ingressClassName, undefined);
});

test('DefaultIngressClass breaks a creation-time tie by the lower name; a failed read is refused', async () => {
  const objects = new FakeObjects().put(gr.ingressclasses, ingressClass('b', '2026-01-01T00:00:00Z')).put(gr.ingressclasses, ingressClass('a', '2026-01-01T00:00:00Z'));
  const ing = object('Ingress', 'i', { spec: {} });
  await make(defaultIngressClassPlugin, depsOf(objects)).admit!(ingressAttributes(ing));
  assert.equal(spec(ing).ingressClassName, 'a');
  objects.failWith = new Error('boom');
  await assert.rejects(make(defaultIngressClassPlugin, depsOf(objects)).admit!(ingressAttributes(object('Ingress', 'j', { spec: {} }))), status(403, 'ingresses.networking.k8s.io "j" is forbidden: boom'));
});

const pvcAttributes = (o: ReturnType<typeof object>) => attributesOf({ resource: { resource: 'persistentvolumeclaims' }, kind: { kind: 'PersistentVolumeClaim' }, object: o });
const storageClass = (name: string, created: string, annotation = 'storageclass.kubernetes.io/is-default-class') =>
  object('StorageClass', name, { provisioner: 'p' }, { creationTimestamp: created, annotations: { [annotation]: 'true' } });

test('DefaultStorageClass sets the newest default class on claims that name none', async () => {
  const objects = new FakeObjects()
    .put(gr.storageclasses, storageClass('old', '2026-01-01T00:00:00Z'))
    .put(gr.storageclasses, storageClass('beta', '2026-02-01T00:00:00Z', 'storageclass.beta.kubernetes.io/is-default-class'));
  const plugin = make(defaultStorageClassPlugin, depsOf(objects));
  const claim = object('PersistentVolumeClaim', 'c', { spec: {} });
  await plugin.admit!(pvcAttributes(claim));
  assert.equal(spec(claim).storageClassName, 'beta');
  const empty = object('PersistentVolumeClaim', 'c', { spec: { storageClassName: '' } });
  await plugin.admit!(pvcAttributes(empty));
  assert.equal(spec(empty).storageClassName, '');
  const annotated = object('PersistentVolumeClaim', 'c', { spec: {} }, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'x' } });
  await plugin.admit!(pvcAttributes(annotated));
  assert.equal(spec(annotated).storageClassName, undefined);
  assert.equal(plugin.handles('UPDATE'), false);
});

test('StorageObjectInUseProtection adds the protection finalizers once', async () => {
  const plugin = make(storageObjectInUseProtectionPlugin);
  const pv = object('PersistentVolume', 'v');
  await plugin.admit!(attributesOf({ resource: { resource: 'persistentvolumes' }, kind: { kind: 'PersistentVolume' }, namespace: '', object: pv }));
  assert.deepEqual(pv.metadata.finalizers, ['kubernetes.io/pv-protection']);
  const pvc = object('PersistentVolumeClaim', 'c', {}, { finalizers: ['x/y', 'kubernetes.io/pvc-protection'] });
  await plugin.admit!(pvcAttributes(pvc));
  assert.deepEqual(pvc.metadata.finalizers, ['x/y', 'kubernetes.io/pvc-protection']);
  const fresh = object('PersistentVolumeClaim', 'd', {}, { finalizers: ['x/y'] });
  await plugin.admit!(pvcAttributes(fresh));
  assert.deepEqual(fresh.metadata.finalizers, ['x/y', 'kubernetes.io/pvc-protection']);
  const p = pod('p');
  await plugin.admit!(attributesOf({ object: p }));
  assert.equal(p.metadata.finalizers, undefined);
});

test('TaintNodesByCondition taints new nodes not-ready (NoSchedule) once', async () => {
  const plugin = make(taintNodesByConditionPlugin);
  const nodeAttributes = (o: ReturnType<typeof object>) => attributesOf({ resource: { resource: 'nodes' }, kind: { kind: 'Node' }, namespace: '', object: o });
  const node = object('Node', 'n', { spec: { taints: [{ key: 'a', effect: 'NoExecute' }] } });
  await plugin.admit!(nodeAttributes(node));
  assert.deepEqual(spec(node).taints, [{ key: 'a', effect: 'NoExecute' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  const tainted = object('Node', 'm', { spec: { taints: [{ key: 'node.kubernetes.io/not-ready', value: 'v', effect: 'NoSchedule' }] } });
  await plugin.admit!(nodeAttributes(tainted));
  assert.equal((spec(tainted).taints as unknown[]).length, 1);
  const bare = object('Node', 'b');
  await plugin.admit!(nodeAttributes(bare));
  assert.deepEqual(spec(bare).taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  assert.equal(plugin.handles('UPDATE'), false);
});
