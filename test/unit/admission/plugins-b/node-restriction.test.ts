import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeRestrictionPlugin } from '../../../../internal/admission/plugins/node-restriction/node-restriction.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { attributes, pod, rejectsWith, testDeps, user } from './helpers.ts';
import type { AttributeSpec } from './helpers.ts';

const node1 = user('system:node:node1', ['system:nodes', 'system:authenticated']);
const pods = { group: '', resource: 'pods' };
const nodes = { group: '', resource: 'nodes' };

function setup() {
  const deps = testDeps();
  deps.reader.put(nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node1', uid: 'uid-node1' } });
  deps.reader.put(pods, pod('mine', { nodeName: 'node1' }, { uid: 'uid-mine' }));
  deps.reader.put(pods, pod('theirs', { nodeName: 'node2' }, { uid: 'uid-theirs' }));
  return nodeRestrictionPlugin(deps, undefined);
}

const plugin = setup();
const asNode = (spec: AttributeSpec) => attributes({ userInfo: node1, ...spec });

function mirrorPod(overrides: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KObject {
  return pod('static-node1', { nodeName: 'node1', ...overrides }, {
    annotations: { 'kubernetes.io/config.mirror': 'hash' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node1', uid: 'uid-node1', controller: true }],
    ...metadata,
  });
}

function node(labels: Record<string, string> = {}, spec: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node1', labels }, spec };
}

const nodeRequest = { resource: { resource: 'nodes' }, kind: { kind: 'Node' } };

test('NodeRestriction leaves users that are not nodes alone', async () => {
  await plugin.validate!(attributes({ userInfo: user('system:node:node1'), operation: 'DELETE', name: 'theirs' }));
  await plugin.validate!(attributes({ userInfo: user('bob', ['system:nodes']), operation: 'DELETE', name: 'theirs' }));
  await rejectsWith(plugin.validate!(attributes({ userInfo: user('system:node:', ['system:nodes']), object: pod('p') })), 403, 'pods "p" is forbidden: could not determine node from user "system:node:"');
});

test('NodeRestriction lets a node create a mirror pod of its own', async () => {
  await plugin.validate!(asNode({ object: mirrorPod() }));
});

test('NodeRestriction refuses pods that are not proper mirror pods', async () => {
  const cases: [KObject, string][] = [
    [pod('static-node1', { nodeName: 'node1' }), 'pod does not have "kubernetes.io/config.mirror" annotation, node "node1" can only create mirror pods'],
    [mirrorPod({ nodeName: 'node2' }), 'node "node1" can only create pods with spec.nodeName set to itself'],
    [mirrorPod({}, { ownerReferences: [] }), 'node "node1" can only create pods with an owner reference set to itself'],
    [mirrorPod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node1', uid: 'uid-node1' }] }), 'node "node1" can only create pods with a controller owner reference set to itself'],
    [mirrorPod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node1', uid: 'uid-node1', controller: true, blockOwnerDeletion: true }] }), 'node "node1" must not set blockOwnerDeletion on an owner reference'],
    [mirrorPod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node1', uid: 'stale', controller: true }] }), 'node node1 UID mismatch: expected stale got uid-node1'],
    [mirrorPod({ serviceAccountName: 'sa' }), 'node "node1" can not create pods that reference a service account'],
    [mirrorPod({ imagePullSecrets: [{ name: 's' }] }), 'node "node1" can not create pods that reference secrets'],
    [mirrorPod({ containers: [{ name: 'c', image: 'x', envFrom: [{ configMapRef: { name: 'cm' } }] }] }), 'node "node1" can not create pods that reference configmaps'],
    [mirrorPod({ volumes: [{ name: 'v', projected: { sources: [{ clusterTrustBundle: { name: 'b', path: 'p' } }] } }] }), 'node "node1" can not create pods that reference clustertrustbundles'],
    [mirrorPod({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] }), 'node "node1" can not create pods that reference persistentvolumeclaims'],
  ];
  for (const [object, reason] of cases) await rejectsWith(plugin.validate!(asNode({ object })), 403, `pods "static-node1" is forbidden: ${reason}`);
});

test('NodeRestriction lets a node delete, evict and update the status of its own pods only', async () => {
  await plugin.validate!(asNode({ operation: 'DELETE', name: 'mine' }));
  await rejectsWith(plugin.validate!(asNode({ operation: 'DELETE', name: 'theirs' })), 403, 'pods "theirs" is forbidden: node "node1" can only delete pods with spec.nodeName set to itself');
  await rejectsWith(plugin.validate!(asNode({ operation: 'DELETE', name: 'nope' })), 404, 'pod "nope" not found');
  await rejectsWith(plugin.validate!(asNode({ operation: 'UPDATE', name: 'mine', object: pod('mine'), oldObject: pod('mine') })), 403, 'pods "mine" is forbidden: unexpected operation "UPDATE", node "node1" can only create and delete mirror pods');
  const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'theirs' } };
  await plugin.validate!(asNode({ subresource: 'eviction', name: 'mine', object: { ...eviction, metadata: { name: 'mine' } } }));
  await rejectsWith(plugin.validate!(asNode({ subresource: 'eviction', name: 'theirs', object: eviction })), 403, 'pods "theirs" is forbidden: node node1 can only evict pods with spec.nodeName set to itself');
  const mine = pod('mine', { nodeName: 'node1' });
  await plugin.validate!(asNode({ operation: 'UPDATE', subresource: 'status', name: 'mine', object: { ...mine, status: { phase: 'Running' } }, oldObject: mine }));
  await rejectsWith(
    plugin.validate!(asNode({ operation: 'UPDATE', subresource: 'status', name: 'mine', object: pod('mine', { nodeName: 'node1' }, { labels: { a: 'b' } }), oldObject: mine })),
    403,
    'pods "mine" is forbidden: node "node1" cannot update labels through pod status',
  );
  const theirs = pod('theirs', { nodeName: 'node2' });
  await rejectsWith(plugin.validate!(asNode({ operation: 'UPDATE', subresource: 'status', name: 'theirs', object: theirs, oldObject: theirs })), 403, 'pods "theirs" is forbidden: node "node1" can only update pod status for pods with spec.nodeName set to itself');
  await rejectsWith(plugin.validate!(asNode({ subresource: 'binding', name: 'mine', object: mine })), 403, `pods "mine" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`);
});

test('NodeRestriction limits a node to its own Node object, without taint changes or foreign labels', async () => {
  await plugin.validate!(asNode({ ...nodeRequest, name: 'node1', object: node({ 'kubernetes.io/hostname': 'node1', 'node.kubernetes.io/exclude': 'x', 'example.com/own': 'y' }) }));
  await rejectsWith(plugin.validate!(asNode({ ...nodeRequest, name: 'node2', object: node() })), 403, 'nodes "node2" is forbidden: node "node1" is not allowed to modify node "node2"');
  await rejectsWith(
    plugin.validate!(asNode({ ...nodeRequest, name: 'node1', object: node({ 'node-restriction.kubernetes.io/pool': 'a', 'node-role.kubernetes.io/master': '' }) })),
    403,
    'nodes "node1" is forbidden: node "node1" is not allowed to set the following labels: node-restriction.kubernetes.io/pool, node-role.kubernetes.io/master',
  );
  const tainted = node({}, { taints: [{ key: 'k', effect: 'NoSchedule' }] });
  await rejectsWith(plugin.validate!(asNode({ ...nodeRequest, operation: 'UPDATE', name: 'node1', object: node(), oldObject: tainted })), 403, 'nodes "node1" is forbidden: node "node1" is not allowed to modify taints');
  await plugin.validate!(asNode({ ...nodeRequest, operation: 'UPDATE', subresource: 'status', name: 'node1', object: tainted, oldObject: tainted }));
  await rejectsWith(
    plugin.validate!(asNode({ ...nodeRequest, operation: 'UPDATE', name: 'node1', object: node({ 'k8s.io/role': 'x' }), oldObject: node() })),
    403,
    'nodes "node1" is forbidden: is not allowed to modify labels: k8s.io/role',
  );
  await rejectsWith(plugin.validate!(asNode({ ...nodeRequest, operation: 'DELETE', name: 'node1' })), 403, 'nodes "node1" is forbidden: node "node1" is not allowed to delete its own Node object');
});

test('NodeRestriction limits leases, CSINodes, claim status and service account tokens', async () => {
  const lease = (ns: string, name: string): AttributeSpec => ({ resource: { group: 'coordination.k8s.io', resource: 'leases' }, kind: { group: 'coordination.k8s.io', kind: 'Lease' }, namespace: ns, object: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: ns } } });
  await plugin.validate!(asNode(lease('kube-node-lease', 'node1')));
  await rejectsWith(plugin.validate!(asNode(lease('default', 'node1'))), 403, 'leases.coordination.k8s.io "node1" is forbidden: can only access leases in the "kube-node-lease" system namespace');
  await rejectsWith(plugin.validate!(asNode({ ...lease('kube-node-lease', 'node1'), operation: 'UPDATE', name: 'node2' })), 403, 'leases.coordination.k8s.io "node2" is forbidden: can only access node lease with the same name as the requesting node');
  const csiNode = { resource: { group: 'storage.k8s.io', resource: 'csinodes' }, namespace: '', operation: 'DELETE' as const };
  await plugin.validate!(asNode({ ...csiNode, name: 'node1' }));
  await rejectsWith(plugin.validate!(asNode({ ...csiNode, name: 'node2' })), 403, 'csinodes.storage.k8s.io "node2" is forbidden: can only access CSINode with the same name as the requesting node');
  const claim = (status: Record<string, unknown>, labels: Record<string, string> = {}): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'default', labels, resourceVersion: '1' }, spec: {}, status });
  const pvc = { resource: { resource: 'persistentvolumeclaims' }, operation: 'UPDATE' as const, name: 'c' };
  await plugin.validate!(asNode({ ...pvc, subresource: 'status', object: claim({ capacity: { storage: '2Gi' } }), oldObject: claim({}) }));
  await rejectsWith(plugin.validate!(asNode({ ...pvc, object: claim({}), oldObject: claim({}) })), 403, 'persistentvolumeclaims "c" is forbidden: may only update PVC status');
  await rejectsWith(
    plugin.validate!(asNode({ ...pvc, subresource: 'status', object: claim({}, { a: 'b' }), oldObject: claim({}) })),
    403,
    'persistentvolumeclaims "c" is forbidden: node "node1" is not allowed to update fields other than status.quantity and status.conditions: metadata',
  );
  const token = (ref: Record<string, unknown> | undefined): AttributeSpec => ({
    resource: { resource: 'serviceaccounts' },
    subresource: 'token',
    name: 'default',
    object: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { name: 'default' }, spec: { ...(ref === undefined ? {} : { boundObjectRef: ref }) } },
  });
  await plugin.validate!(asNode(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'uid-mine' })));
  await rejectsWith(plugin.validate!(asNode(token(undefined))), 403, 'serviceaccounts "default" is forbidden: node requested token not bound to a pod');
  await rejectsWith(plugin.validate!(asNode(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine' }))), 403, 'serviceaccounts "default" is forbidden: node requested token with a pod binding without a uid');
  await rejectsWith(
    plugin.validate!(asNode(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'old' }))),
    403,
    'serviceaccounts "default" is forbidden: the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
  );
  await rejectsWith(plugin.validate!(asNode(token({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'uid-theirs' }))), 403, 'serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node');
  assert.ok(!plugin.handles('CONNECT'));
});
