// RuntimeClass: pod overhead and scheduling from the pod's RuntimeClass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runtimeClassPlugin } from '../../../../internal/admission/plugins/runtime-class/plugin.ts';
import { mergeTolerations } from '../../../../internal/admission/plugins/runtime-class/merge-tolerations.ts';
import { admitAndValidate, attributesOf, depsOf, FakeObjects, gr, make, object, pod, status } from './fixtures.ts';

const rc = (name: string, fields: Record<string, unknown> = {}) => object('RuntimeClass', name, { handler: 'h', ...fields });
const spec = (p: ReturnType<typeof pod>) => p.spec as Record<string, unknown>;

function pluginWith(...classes: ReturnType<typeof rc>[]) {
  const objects = new FakeObjects();
  for (const c of classes) objects.put(gr.runtimeclasses, c);
  return make(runtimeClassPlugin, depsOf(objects));
}

test('a pod gets its RuntimeClass overhead', async () => {
  const plugin = pluginWith(rc('kata', { overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } }));
  const p = pod('p', { runtimeClassName: 'kata' });
  await admitAndValidate(plugin, attributesOf({ object: p }));
  assert.deepEqual(spec(p).overhead, { cpu: '250m', memory: '120Mi' });
  // The same overhead, written differently, is accepted.
  await admitAndValidate(plugin, attributesOf({ object: pod('q', { runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }) }));
});

test('an overhead that differs from the class, or without a class overhead, is refused', async () => {
  const plugin = pluginWith(rc('kata', { overhead: { podFixed: { cpu: '250m' } } }), rc('plain'));
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('p', { runtimeClassName: 'kata', overhead: { cpu: '1' } }) })), status(403, `pods "p" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`));
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('p', { runtimeClassName: 'plain', overhead: { cpu: '1' } }) })), status(403, 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'));
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('p', { overhead: { cpu: '1' } }) })), status(403, /Pod Overhead set without corresponding/));
  // The validating phase catches a change made after the mutating phase.
  const p = pod('p', { runtimeClassName: 'kata' });
  await plugin.admit!(attributesOf({ object: p }));
  spec(p).overhead = { cpu: '2' };
  await assert.rejects(plugin.validate!(attributesOf({ object: p })), status(403, /doesn't match/));
});

test('an unknown RuntimeClass is refused; one only the leader has is found', async () => {
  const objects = new FakeObjects().put(gr.runtimeclasses, rc('fresh'), 'live');
  const plugin = make(runtimeClassPlugin, depsOf(objects));
  await assert.rejects(plugin.admit!(attributesOf({ object: pod('p', { runtimeClassName: 'nope' }) })), status(403, 'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found'));
  await admitAndValidate(plugin, attributesOf({ object: pod('p', { runtimeClassName: 'fresh' }) }));
});

test('scheduling merges the node selector and tolerations; a conflicting selector is refused', async () => {
  const scheduling = { nodeSelector: { sandbox: 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] };
  const plugin = pluginWith(rc('kata', { scheduling }));
  const p = pod('p', { runtimeClassName: 'kata', nodeSelector: { zone: 'a' }, tolerations: [{ key: 'sandbox', operator: 'Equal', value: 'x', effect: 'NoSchedule' }] });
  await plugin.admit!(attributesOf({ object: p }));
  assert.deepEqual(spec(p).nodeSelector, { zone: 'a', sandbox: 'true' });
  assert.deepEqual(spec(p).tolerations, [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }]);
  const q = pod('q', { runtimeClassName: 'kata' });
  await plugin.admit!(attributesOf({ object: q }));
  assert.deepEqual(spec(q).nodeSelector, { sandbox: 'true' });
  const bad = pod('r', { runtimeClassName: 'kata', nodeSelector: { sandbox: 'false' } });
  await assert.rejects(plugin.admit!(attributesOf({ object: bad })), status(403, 'pods "r" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = true; pod.spec.nodeSelector[sandbox] = false'));
  assert.deepEqual(spec(bad).nodeSelector, { sandbox: 'false' });
});

test('merging tolerations drops those another covers and keeps the first of equals', () => {
  const a = { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 10 };
  const b = { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 };
  assert.deepEqual(mergeTolerations([a], [b]), [b]);
  assert.deepEqual(mergeTolerations([b], [a]), [b]);
  assert.deepEqual(mergeTolerations([a], [{ ...a }]), [a]);
  const all = { operator: 'Exists' };
  assert.deepEqual(mergeTolerations([a, b], [all]), [all]);
  const other = { key: 'other', operator: 'Exists' };
  assert.deepEqual(mergeTolerations([a], [other]), [a, other]);
});

test('RuntimeClass handles only pod creates', async () => {
  const plugin = pluginWith();
  assert.equal(plugin.handles('UPDATE'), false);
  await plugin.admit!(attributesOf({ subresource: 'status', object: pod('p', { runtimeClassName: 'nope' }) }));
});
