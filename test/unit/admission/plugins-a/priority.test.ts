// Priority: pods' priorities from PriorityClasses, and the single global default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priorityPlugin } from '../../../../internal/admission/plugins/priority/plugin.ts';
import { admitAndValidate, attributesOf, depsOf, FakeObjects, gr, make, object, pod, status } from './fixtures.ts';

const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => object('PriorityClass', name, { value, preemptionPolicy: 'PreemptLowerPriority', ...extra });
const pcAttributes = (operation: 'CREATE' | 'UPDATE', o: ReturnType<typeof pc>) =>
  attributesOf({ operation, resource: { group: 'scheduling.k8s.io', resource: 'priorityclasses' }, kind: { kind: 'PriorityClass' }, namespace: '', object: o, oldObject: operation === 'UPDATE' ? o : undefined });

test('a pod takes its class value and preemption policy', async () => {
  const plugin = make(priorityPlugin, depsOf(new FakeObjects().put(gr.priorityclasses, pc('high', 1000, { preemptionPolicy: 'Never' }))));
  const p = pod('p', { priorityClassName: 'high' });
  await admitAndValidate(plugin, attributesOf({ object: p }));
  assert.equal((p.spec as Record<string, unknown>).priority, 1000);
  assert.equal((p.spec as Record<string, unknown>).preemptionPolicy, 'Never');
});

test('a pod without a class takes the global default (the lowest-valued one), else 0', async () => {
  const objects = new FakeObjects().put(gr.priorityclasses, pc('d2', 50, { globalDefault: true })).put(gr.priorityclasses, pc('d1', 10, { globalDefault: true })).put(gr.priorityclasses, pc('x', 5));
  const p = pod('p');
  await make(priorityPlugin, depsOf(objects)).admit!(attributesOf({ object: p }));
  assert.deepEqual([(p.spec as Record<string, unknown>).priorityClassName, (p.spec as Record<string, unknown>).priority], ['d1', 10]);
  const q = pod('q');
  await make(priorityPlugin).admit!(attributesOf({ object: q }));
  assert.equal((q.spec as Record<string, unknown>).priority, 0);
  assert.equal((q.spec as Record<string, unknown>).priorityClassName, undefined);
});

test('an unknown class is refused; one only the leader has is found', async () => {
  const plugin = make(priorityPlugin, depsOf(new FakeObjects().put(gr.priorityclasses, pc('fresh', 7), 'live')));
  await assert.rejects(plugin.admit!(attributesOf({ object: pod('p', { priorityClassName: 'nope' }) })), status(403, 'pods "p" is forbidden: no PriorityClass with name nope was found'));
  const p = pod('p', { priorityClassName: 'fresh' });
  await plugin.admit!(attributesOf({ object: p }));
  assert.equal((p.spec as Record<string, unknown>).priority, 7);
});

test('the system classes resolve in any namespace even when not stored', async () => {
  const p = pod('p', { priorityClassName: 'system-node-critical' });
  await make(priorityPlugin).admit!(attributesOf({ namespace: 'default', object: p }));
  assert.equal((p.spec as Record<string, unknown>).priority, 2000001000);
});

test('a pod stating another priority or preemption policy than its class is refused; the same one passes', async () => {
  const plugin = make(priorityPlugin, depsOf(new FakeObjects().put(gr.priorityclasses, pc('high', 1000))));
  await assert.rejects(
    plugin.admit!(attributesOf({ object: pod('p', { priorityClassName: 'high', priority: 5 }) })),
    status(403, 'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name'),
  );
  await assert.rejects(
    plugin.admit!(attributesOf({ object: pod('p', { priorityClassName: 'high', preemptionPolicy: 'Never' }) })),
    status(403, 'pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name'),
  );
  await plugin.admit!(attributesOf({ object: pod('p', { priorityClassName: 'high', priority: 1000 }) }));
});

test('an update keeps the priority set at create when the client drops it; sub-resources are ignored', async () => {
  const plugin = make(priorityPlugin);
  const p = pod('p');
  await plugin.admit!(attributesOf({ operation: 'UPDATE', object: p, oldObject: pod('p', { priority: 3, preemptionPolicy: 'Never' }) }));
  assert.deepEqual([(p.spec as Record<string, unknown>).priority, (p.spec as Record<string, unknown>).preemptionPolicy], [3, 'Never']);
  const s = pod('p', { priorityClassName: 'nope' });
  await plugin.admit!(attributesOf({ subresource: 'status', object: s }));
});

test('only one PriorityClass may be the global default', async () => {
  const plugin = make(priorityPlugin, depsOf(new FakeObjects().put(gr.priorityclasses, pc('d', 10, { globalDefault: true }))));
  await assert.rejects(plugin.validate!(pcAttributes('CREATE', pc('e', 20, { globalDefault: true }))), status(403, 'priorityclasses.scheduling.k8s.io "e" is forbidden: PriorityClass d is already marked as default. Only one default can exist'));
  await assert.rejects(plugin.validate!(pcAttributes('UPDATE', pc('f', 20, { globalDefault: true }))), status(403, /PriorityClass d is already marked as default/));
  await plugin.validate!(pcAttributes('UPDATE', pc('d', 10, { globalDefault: true })));
  await plugin.validate!(pcAttributes('CREATE', pc('g', 20)));
  await make(priorityPlugin).validate!(pcAttributes('CREATE', pc('e', 20, { globalDefault: true })));
});
