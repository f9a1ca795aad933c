// NamespaceLifecycle, NamespaceExists and NamespaceAutoProvision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceLifecyclePlugin } from '../../../../internal/admission/plugins/namespace-lifecycle/plugin.ts';
import { forceLiveLookupTtlMs } from '../../../../internal/admission/plugins/namespace-lifecycle/force-live-lookup-cache.ts';
import { namespaceExistsPlugin } from '../../../../internal/admission/plugins/namespace-exists/plugin.ts';
import { namespaceAutoProvisionPlugin } from '../../../../internal/admission/plugins/namespace-autoprovision/plugin.ts';
import { attributesOf, depsOf, FakeClock, FakeObjects, gr, make, object, pod, status } from './fixtures.ts';

const active = (name: string) => object('Namespace', name, { status: { phase: 'Active' } });
const terminating = (name: string) => object('Namespace', name, { status: { phase: 'Terminating' } }, { deletionTimestamp: '2026-01-01T00:00:00Z' });
const namespaceDelete = (name: string) => attributesOf({ operation: 'DELETE', resource: { resource: 'namespaces' }, kind: { kind: 'Namespace' }, namespace: '', name });

test('NamespaceLifecycle admits a create in an active namespace from local state alone', async () => {
  const deps = depsOf(new FakeObjects().put(gr.namespaces, active('ns')));
  await make(namespaceLifecyclePlugin, deps).admit!(attributesOf({ object: pod('p') }));
  assert.deepEqual(deps.objects.reads.map((r) => r.consistent), [false]);
});

test('NamespaceLifecycle refuses a create in a missing namespace with its 404, after a consistent read', async () => {
  const deps = depsOf();
  await assert.rejects(make(namespaceLifecyclePlugin, deps).admit!(attributesOf({ object: pod('p') })), status(404, 'namespaces "ns" not found'));
  assert.deepEqual(deps.objects.reads.map((r) => r.consistent), [false, true]);
});

test('NamespaceLifecycle trusts the leader when this replica has not seen the namespace yet', async () => {
  const deps = depsOf(new FakeObjects().put(gr.namespaces, active('ns'), 'live'));
  await make(namespaceLifecyclePlugin, deps).admit!(attributesOf({ object: pod('p') }));
});

test('NamespaceLifecycle refuses creates in a terminating namespace with the NamespaceTerminating cause', async () => {
  const deps = depsOf(new FakeObjects().put(gr.namespaces, terminating('ns')));
  const plugin = make(namespaceLifecyclePlugin, deps);
  const err = await plugin.admit!(attributesOf({ object: pod('p') })).then(() => undefined, (e: unknown) => e);
  assert.ok(status(403, 'pods "p" is forbidden: unable to create new content in namespace ns because it is being terminated')(err));
  assert.deepEqual((err as { details?: { causes?: unknown } }).details?.causes, [{ reason: 'NamespaceTerminating', message: 'namespace ns is being terminated', field: 'metadata.namespace' }]);
  // Updates and deletes in a terminating namespace go ahead.
  await plugin.admit!(attributesOf({ operation: 'UPDATE', object: pod('p'), oldObject: pod('p') }));
  await plugin.admit!(attributesOf({ operation: 'DELETE', name: 'p' }));
});

test('NamespaceLifecycle confirms a locally terminating namespace at the leader (it may have been recreated)', async () => {
  const objects = new FakeObjects().put(gr.namespaces, terminating('ns'), 'local').put(gr.namespaces, active('ns'), 'live');
  await make(namespaceLifecyclePlugin, depsOf(objects)).admit!(attributesOf({ object: pod('p') }));
});

test('NamespaceLifecycle refuses an update in a missing namespace but lets deletes through', async () => {
  const plugin = make(namespaceLifecyclePlugin);
  await assert.rejects(plugin.admit!(attributesOf({ operation: 'UPDATE', object: pod('p'), oldObject: pod('p') })), status(404, 'namespaces "ns" not found'));
  await plugin.admit!(attributesOf({ operation: 'DELETE', name: 'p' }));
});

test('NamespaceLifecycle protects the system namespaces from deletion', async () => {
  const plugin = make(namespaceLifecyclePlugin);
  for (const name of ['default', 'kube-system', 'kube-public', 'orch-system', 'orch-public']) {
    await assert.rejects(plugin.admit!(namespaceDelete(name)), status(403, `namespaces "${name}" is forbidden: this namespace may not be deleted`));
  }
  await plugin.admit!(namespaceDelete('team-a'));
});

test('NamespaceLifecycle reads at the leader for 30 s after a namespace DELETE', async () => {
  const clock = new FakeClock();
  const objects = new FakeObjects().put(gr.namespaces, active('ns'), 'local').put(gr.namespaces, terminating('ns'), 'live');
  const plugin = make(namespaceLifecyclePlugin, depsOf(objects, clock));
  await plugin.admit!(attributesOf({ object: pod('p') }));
  await plugin.admit!(namespaceDelete('ns'));
  await assert.rejects(plugin.admit!(attributesOf({ object: pod('p') })), status(403, /being terminated/));
  clock.nowMs += forceLiveLookupTtlMs;
  await plugin.admit!(attributesOf({ object: pod('p') }));
});

test('NamespaceLifecycle exempts cluster-scoped objects, namespaces and local access reviews', async () => {
  const plugin = make(namespaceLifecyclePlugin);
  await plugin.admit!(attributesOf({ resource: { resource: 'nodes' }, kind: { kind: 'Node' }, namespace: '', object: object('Node', 'n') }));
  await plugin.admit!(attributesOf({ resource: { resource: 'namespaces' }, kind: { kind: 'Namespace' }, namespace: '', object: active('x') }));
  await plugin.admit!(attributesOf({ resource: { group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews' }, kind: { kind: 'LocalSubjectAccessReview' }, object: object('LocalSubjectAccessReview', '') }));
  assert.equal(plugin.handles('CONNECT'), false);
});

test('NamespaceExists refuses requests into a missing namespace and admits existing ones', async () => {
  const plugin = make(namespaceExistsPlugin, depsOf(new FakeObjects().put(gr.namespaces, active('ns'), 'live')));
  await plugin.validate!(attributesOf({ object: pod('p') }));
  await assert.rejects(plugin.validate!(attributesOf({ operation: 'DELETE', namespace: 'gone', name: 'p' })), status(404, 'namespaces "gone" not found'));
  await plugin.validate!(attributesOf({ resource: { resource: 'namespaces' }, kind: { kind: 'Namespace' }, namespace: 'gone', object: active('gone') }));
});

test('NamespaceAutoProvision creates a missing namespace, tolerates a concurrent create, and skips dry runs', async () => {
  const deps = depsOf();
  const plugin = make(namespaceAutoProvisionPlugin, deps);
  await plugin.admit!(attributesOf({ object: pod('p'), dryRun: true }));
  assert.equal(deps.writer.created.length, 0);
  await plugin.admit!(attributesOf({ object: pod('p') }));
  assert.deepEqual(deps.writer.created.map((c) => [c.gr.resource, c.object.metadata.name]), [['namespaces', 'ns']]);
  // The namespace is live but not yet local: the second create meets AlreadyExists and goes on.
  await plugin.admit!(attributesOf({ object: pod('q') }));
  assert.equal(deps.writer.created.length, 1);
  deps.objects.put(gr.namespaces, active('ns'));
  await plugin.admit!(attributesOf({ object: pod('r') }));
  assert.equal(plugin.handles('UPDATE'), false);
});
