import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ownerReferencesPermissionEnforcementFactory,
  ownerReferencesPermissionEnforcementPlugin,
} from '../../../../internal/admission/plugins/owner-references-permission-enforcement/owner-references-permission-enforcement.ts';
import type { ResourceFor } from '../../../../internal/admission/plugins/owner-references-permission-enforcement/owner-references-permission-enforcement.ts';
import { attributes, pod, rejectsWith, testDeps } from './helpers.ts';

const resourceFor: ResourceFor = (apiVersion, kind) => {
  if (apiVersion === 'apps/v1' && kind === 'ReplicaSet') return { group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true };
  if (apiVersion === 'v1' && kind === 'Node') return { group: '', version: 'v1', resource: 'nodes', namespaced: false };
  return undefined;
};

const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true };

function setup() {
  const deps = testDeps();
  return { deps, plugin: ownerReferencesPermissionEnforcementPlugin(deps, undefined, resourceFor) };
}

test('OwnerReferencesPermissionEnforcement needs the mapping to start', () => {
  assert.throws(() => ownerReferencesPermissionEnforcementPlugin(testDeps(), undefined), /missing restMapper/);
  assert.equal(ownerReferencesPermissionEnforcementFactory(resourceFor)(testDeps(), undefined).name, 'OwnerReferencesPermissionEnforcement');
});

test('OwnerReferencesPermissionEnforcement asks nothing when owner references do not change', async () => {
  const { deps, plugin } = setup();
  const p = pod('p', {}, { ownerReferences: [owner] });
  await plugin.validate!(attributes({ operation: 'UPDATE', name: 'p', object: p, oldObject: pod('p', {}, { ownerReferences: [{ ...owner, blockOwnerDeletion: null }] }) }));
  await plugin.validate!(attributes({ object: pod('q') }));
  assert.equal(deps.checks.length, 0);
});

test('OwnerReferencesPermissionEnforcement requires delete on the object to change its owner references (not on create)', async () => {
  const { deps, plugin } = setup();
  deps.decide = (a) => (a.verb === 'delete' ? { decision: 'no-opinion', reason: 'no RBAC policy matched' } : { decision: 'allow', reason: '' });
  await plugin.validate!(attributes({ object: pod('p', {}, { ownerReferences: [owner] }) }));
  const update = attributes({ operation: 'UPDATE', name: 'p', object: pod('p', {}, { ownerReferences: [owner] }), oldObject: pod('p') });
  await rejectsWith(plugin.validate!(update), 403, `pods "p" is forbidden: cannot set an ownerRef on a resource you can't delete: no RBAC policy matched, <nil>`);
  assert.deepEqual(deps.checks.at(-1), { user: update.userInfo, verb: 'delete', resourceRequest: true, namespace: 'default', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'p', path: '' });
});

test('OwnerReferencesPermissionEnforcement requires update on the owner finalizers to block its deletion', async () => {
  const { deps, plugin } = setup();
  deps.decide = (a) => (a.subresource === 'finalizers' ? { decision: 'deny', reason: 'nope', error: new Error('boom') } : { decision: 'allow', reason: '' });
  const a = attributes({ object: pod('p', {}, { ownerReferences: [{ ...owner, blockOwnerDeletion: true }] }) });
  await rejectsWith(plugin.validate!(a), 403, `pods "p" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: nope, boom`);
  assert.deepEqual(deps.checks.at(-1), { user: a.userInfo, verb: 'update', resourceRequest: true, namespace: 'default', apiGroup: 'apps', apiVersion: 'v1', resource: 'replicasets', subresource: 'finalizers', name: 'rs', path: '' });
  // A cluster-scoped owner is checked without a namespace.
  deps.decide = () => ({ decision: 'allow', reason: '' });
  await plugin.validate!(attributes({ object: pod('p', {}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u2', blockOwnerDeletion: true }] }) }));
  assert.equal(deps.checks.at(-1)!.namespace, '');
  // Already blocking before: not new, not checked again.
  const before = deps.checks.length;
  const blocking = pod('p', {}, { ownerReferences: [{ ...owner, blockOwnerDeletion: true }] });
  await plugin.validate!(attributes({ operation: 'UPDATE', name: 'p', object: blocking, oldObject: pod('p', {}, { ownerReferences: [{ ...owner, blockOwnerDeletion: true }, { ...owner, uid: 'u9' }] }) }));
  assert.equal(deps.checks.length, before + 1);
});

test('OwnerReferencesPermissionEnforcement refuses blocking an owner whose kind is not served; skips pods/status', async () => {
  const { plugin } = setup();
  const ref = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u3', blockOwnerDeletion: true };
  await rejectsWith(
    plugin.validate!(attributes({ object: pod('p', {}, { ownerReferences: [ref] }) })),
    403,
    'pods "p" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"',
  );
  await plugin.validate!(attributes({ operation: 'UPDATE', subresource: 'status', name: 'p', object: pod('p', {}, { ownerReferences: [ref] }), oldObject: pod('p') }));
});
