import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitRangerPlugin } from '../../../../internal/admission/plugins/limitranger/plugin.ts';
import type { AdmissionAttributes } from '../../../../internal/admission/attributes.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { attributes, FakeObjects, fakeDeps, pod, type RequestSpec } from '../resourcequota/fake-objects.ts';

// LimitRanger defaults and bounds pods and claims as kube-apiserver 1.28's plugin does, with its messages.

const limitranges = { group: '', resource: 'limitranges' };

function withRanges(...limits: Record<string, unknown>[][]): FakeObjects {
  const objects = new FakeObjects();
  limits.forEach((items, i) => objects.put(limitranges, { metadata: { name: `lr${i}`, namespace: 'ns' }, spec: { limits: items } }));
  return objects;
}

/** Runs the mutating then the validating phase, as the chain does; returns the attributes. */
async function admit(objects: FakeObjects, spec: RequestSpec): Promise<AdmissionAttributes> {
  const plugin = limitRangerPlugin(fakeDeps(objects), undefined);
  const a = attributes(spec);
  await plugin.admit?.(a);
  await plugin.validate?.(a);
  return a;
}

async function refusal(objects: FakeObjects, spec: RequestSpec): Promise<string> {
  try {
    await admit(objects, spec);
  } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 403);
    assert.equal(err.reason, 'Forbidden');
    return err.message;
  }
  assert.fail('expected a refusal');
}

function podSpec(p: KObject, operation: 'CREATE' | 'UPDATE' = 'CREATE'): RequestSpec {
  return { resource: 'pods', kind: 'Pod', object: p, operation };
}

function resources(p: KObject, list: 'containers' | 'initContainers' = 'containers', i = 0): unknown {
  return ((p.spec as Record<string, Record<string, unknown>[]>)[list]?.[i] ?? {}).resources;
}

test('container defaults are applied and the pod is annotated as kube words it', async () => {
  const objects = withRanges([{ type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '100m', memory: '256Mi' } }]);
  const p = pod('p', [{ name: 'app', image: 'x' }], { initContainers: [{ name: 'init', image: 'x', resources: { requests: { cpu: '50m' } } }] });
  await admit(objects, podSpec(p));
  assert.deepEqual(resources(p), { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
  assert.deepEqual(resources(p, 'initContainers'), { requests: { cpu: '50m', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } });
  assert.equal(
    p.metadata.annotations?.['kubernetes.io/limit-ranger'],
    'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; memory request for init container init; cpu, memory limit for init container init',
  );
});

test('a Container item with only max defaults the limit and the request to it (LimitRange defaulting)', async () => {
  const objects = withRanges([{ type: 'Container', max: { memory: '1Gi' } }]);
  const p = pod('p', [{ name: 'app', image: 'x' }]);
  await admit(objects, podSpec(p));
  assert.deepEqual(resources(p), { limits: { memory: '1Gi' }, requests: { memory: '1Gi' } });
});

test('a container that states everything is left unannotated', async () => {
  const objects = withRanges([{ type: 'Container', default: { cpu: '1' } }]);
  const p = pod('p', [{ name: 'app', image: 'x', resources: { requests: { cpu: '1' }, limits: { cpu: '1' } } }]);
  await admit(objects, podSpec(p));
  assert.equal(p.metadata.annotations, undefined);
});

test('a request under the minimum is refused', async () => {
  const objects = withRanges([{ type: 'Container', min: { cpu: '100m' } }]);
  const p = pod('p', [{ name: 'app', image: 'x', resources: { requests: { cpu: '50m' } } }]);
  assert.equal(await refusal(objects, podSpec(p)), 'pods "p" is forbidden: minimum cpu usage per Container is 100m, but request is 50m');
});

test('several failures are aggregated in brackets, each once', async () => {
  const objects = withRanges([{ type: 'Container', max: { cpu: '1', memory: '1Gi' } }]);
  const big = { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi' } };
  const p = pod('p', [{ name: 'a', image: 'x', resources: big }, { name: 'b', image: 'x', resources: big }]);
  assert.equal(
    await refusal(objects, podSpec(p)),
    'pods "p" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]',
  );
});

test('the limit to request ratio is bounded, the ratio printed as %f', async () => {
  const objects = withRanges([{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }]);
  const p = pod('p', [{ name: 'app', image: 'x', resources: { requests: { cpu: '100m' }, limits: { cpu: '500m' } } }]);
  assert.equal(await refusal(objects, podSpec(p)), 'pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000');
});

test('a missing request or limit is named', async () => {
  const plugin = limitRangerPlugin(fakeDeps(withRanges([{ type: 'Container', min: { cpu: '100m' }, maxLimitRequestRatio: { memory: '2' } }])), undefined);
  const a = attributes(podSpec(pod('p', [{ name: 'app', image: 'x' }])));
  await assert.rejects(plugin.validate?.(a) ?? Promise.resolve(), {
    message: 'pods "p" is forbidden: [minimum cpu usage per Container is 100m.  No request is specified, memory max limit to request ratio per Container is 2, but no request is specified or request is 0]',
  });
});

test('Pod items bound the sum of the containers', async () => {
  const objects = withRanges([{ type: 'Pod', max: { cpu: '1' } }]);
  const c = (name: string): Record<string, unknown> => ({ name, image: 'x', resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } });
  assert.equal(await refusal(objects, podSpec(pod('p', [c('a'), c('b')]))), 'pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m');
});

test('the first LimitRange that fails is the one reported', async () => {
  const objects = withRanges([{ type: 'Container', max: { cpu: '1' } }], [{ type: 'Container', max: { cpu: '500m' } }]);
  const p = pod('p', [{ name: 'app', image: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '2' } } }]);
  assert.equal(await refusal(objects, podSpec(p)), 'pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
});

test('claims are bounded by PersistentVolumeClaim items on create and update, never defaulted', async () => {
  const objects = withRanges([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }]);
  const claim = (storage: string): KObject => ({ metadata: { name: 'c', namespace: 'ns' }, spec: { resources: { requests: { storage } } } });
  const spec = (c: KObject, operation: 'CREATE' | 'UPDATE' = 'CREATE'): RequestSpec => ({ resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', object: c, operation, oldObject: operation === 'UPDATE' ? claim('5Gi') : undefined });
  assert.equal(await refusal(objects, spec(claim('500Mi'))), 'persistentvolumeclaims "c" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
  assert.equal(await refusal(objects, spec(claim('20Gi'), 'UPDATE')), 'persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
  const ok = claim('5Gi');
  await admit(objects, spec(ok));
  assert.deepEqual(ok.spec, { resources: { requests: { storage: '5Gi' } } });
  const none: KObject = { metadata: { name: 'c', namespace: 'ns' }, spec: {} };
  assert.equal(
    await refusal(objects, spec(none)),
    'persistentvolumeclaims "c" is forbidden: [minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified, maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified]',
  );
});

test('pod updates, sub-resources and objects being deleted are left alone', async () => {
  const objects = withRanges([{ type: 'Container', max: { cpu: '1' }, default: { memory: '1Gi' } }]);
  const big = (): KObject => pod('p', [{ name: 'app', image: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '2' } } }]);
  const updated = big();
  await admit(objects, { ...podSpec(updated, 'UPDATE'), oldObject: big() });
  assert.equal(updated.metadata.annotations, undefined);
  await admit(objects, { ...podSpec(big()), subresource: 'status' });
  const old: KObject = { metadata: { name: 'c', namespace: 'ns', deletionTimestamp: '2026-01-01T00:00:00Z' }, spec: {} };
  const claimObjects = withRanges([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' } }]);
  await admit(claimObjects, { resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', operation: 'UPDATE', object: { metadata: { name: 'c', namespace: 'ns' }, spec: {} }, oldObject: old });
});

test('a namespace without LimitRanges admits anything', async () => {
  const p = pod('p', [{ name: 'app', image: 'x' }]);
  await admit(new FakeObjects(), podSpec(p));
  assert.deepEqual(resources(p), undefined);
});

test('a failed LimitRange read refuses the request with kube\'s words', async () => {
  const objects = new FakeObjects();
  objects.list = () => Promise.reject(new Error('store down'));
  assert.equal(await refusal(objects, podSpec(pod('p', [{ name: 'app', image: 'x' }]))), 'pods "p" is forbidden: unable to CREATE /v1, Resource=pods at this time because there was an error enforcing limit ranges');
});
