// The RBAC authorizer over its index: bindings, subjects, scopes, missing roles, events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RbacAuthorizer } from '../../../../internal/authz/rbac/rbac-authorizer.ts';
import { nonResourceAttributes, resourceAttributes } from '../../../../internal/authz/request-attributes.ts';
import { indexOf, rbac, user } from '../fixtures.ts';

const podReader = rbac.clusterRole('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);

test('a ClusterRoleBinding grants in every namespace and cluster-wide', () => {
  const authz = new RbacAuthorizer(indexOf([podReader, rbac.clusterRoleBinding('b', 'pod-reader', [{ kind: 'User', name: 'alice' }])]));
  const d = authz.authorize(resourceAttributes(user('alice'), { verb: 'list', resource: 'pods', namespace: 'any' }));
  assert.equal(d.decision, 'allow');
  assert.equal(d.reason, 'RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "pod-reader" to User "alice"');
  assert.equal(authz.authorize(resourceAttributes(user('alice'), { verb: 'list', resource: 'pods' })).decision, 'allow');
  assert.equal(authz.authorize(resourceAttributes(user('bob'), { verb: 'list', resource: 'pods' })).decision, 'no-opinion');
  assert.equal(authz.authorize(resourceAttributes(user('alice'), { verb: 'delete', resource: 'pods', name: 'x', namespace: 'a' })).decision, 'no-opinion');
});

test('a RoleBinding to a ClusterRole grants only within its namespace', () => {
  const authz = new RbacAuthorizer(indexOf([podReader, rbac.roleBinding('dev', 'b', 'ClusterRole', 'pod-reader', [{ kind: 'User', name: 'alice' }])]));
  const alice = user('alice');
  const d = authz.authorize(resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'dev', name: 'p' }));
  assert.equal(d.decision, 'allow');
  assert.equal(d.reason, 'RBAC: allowed by RoleBinding "b/dev" of ClusterRole "pod-reader" to User "alice"');
  assert.equal(authz.authorize(resourceAttributes(alice, { verb: 'get', resource: 'pods', namespace: 'prod', name: 'p' })).decision, 'no-opinion');
  assert.equal(authz.authorize(resourceAttributes(alice, { verb: 'list', resource: 'pods' })).decision, 'no-opinion');
});

test('a RoleBinding to a Role of its namespace', () => {
  const authz = new RbacAuthorizer(indexOf([rbac.role('dev', 'cm', [{ verbs: ['*'], apiGroups: [''], resources: ['configmaps'] }]), rbac.roleBinding('dev', 'b', 'Role', 'cm', [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }])]));
  assert.equal(authz.authorize(resourceAttributes(user('carol', ['devs']), { verb: 'create', resource: 'configmaps', namespace: 'dev' })).decision, 'allow');
  assert.equal(authz.authorize(resourceAttributes(user('carol'), { verb: 'create', resource: 'configmaps', namespace: 'dev' })).decision, 'no-opinion');
});

test('service account subjects: explicit namespace, defaulted in a RoleBinding, never defaulted in a ClusterRoleBinding', () => {
  const sa = user('system:serviceaccount:dev:builder', ['system:serviceaccounts', 'system:serviceaccounts:dev']);
  const explicit = new RbacAuthorizer(indexOf([podReader, rbac.clusterRoleBinding('b', 'pod-reader', [{ kind: 'ServiceAccount', name: 'builder', namespace: 'dev' }])]));
  const d = explicit.authorize(resourceAttributes(sa, { verb: 'list', resource: 'pods', namespace: 'x' }));
  assert.equal(d.reason, 'RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "pod-reader" to ServiceAccount "builder/dev"');
  const defaulted = new RbacAuthorizer(indexOf([podReader, rbac.roleBinding('dev', 'b', 'ClusterRole', 'pod-reader', [{ kind: 'ServiceAccount', name: 'builder' }])]));
  assert.equal(defaulted.authorize(resourceAttributes(sa, { verb: 'list', resource: 'pods', namespace: 'dev' })).reason, 'RBAC: allowed by RoleBinding "b/dev" of ClusterRole "pod-reader" to ServiceAccount "builder/dev"');
  const clusterWithout = new RbacAuthorizer(indexOf([podReader, rbac.clusterRoleBinding('b', 'pod-reader', [{ kind: 'ServiceAccount', name: 'builder' }])]));
  assert.equal(clusterWithout.authorize(resourceAttributes(sa, { verb: 'list', resource: 'pods', namespace: 'dev' })).decision, 'no-opinion');
  const otherNamespace = new RbacAuthorizer(indexOf([podReader, rbac.roleBinding('dev', 'b', 'ClusterRole', 'pod-reader', [{ kind: 'ServiceAccount', name: 'builder', namespace: 'prod' }])]));
  assert.equal(otherNamespace.authorize(resourceAttributes(sa, { verb: 'list', resource: 'pods', namespace: 'dev' })).decision, 'no-opinion');
  const groupBound = new RbacAuthorizer(indexOf([podReader, rbac.clusterRoleBinding('b', 'pod-reader', [{ kind: 'Group', name: 'system:serviceaccounts:dev' }])]));
  assert.equal(groupBound.authorize(resourceAttributes(sa, { verb: 'list', resource: 'pods' })).decision, 'allow');
});

test('a binding to a missing role: no opinion with the lister error as reason', () => {
  const authz = new RbacAuthorizer(indexOf([rbac.clusterRoleBinding('b', 'node-viewer', [{ kind: 'User', name: 'hsy' }]), rbac.roleBinding('ns', 'rb', 'Role', 'gone', [{ kind: 'User', name: 'hsy' }])]));
  const cluster = authz.authorize(resourceAttributes(user('hsy'), { verb: 'list', resource: 'nodes' }));
  assert.equal(cluster.decision, 'no-opinion');
  assert.equal(cluster.reason, 'RBAC: clusterrole.rbac.authorization.k8s.io "node-viewer" not found');
  const both = authz.authorize(resourceAttributes(user('hsy'), { verb: 'list', resource: 'pods', namespace: 'ns' }));
  assert.equal(both.reason, 'RBAC: [clusterrole.rbac.authorization.k8s.io "node-viewer" not found, role.rbac.authorization.k8s.io "gone" not found]');
});

test('non-resource URLs through a ClusterRoleBinding', () => {
  const authz = new RbacAuthorizer(indexOf([rbac.clusterRole('mon', [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/healthz/*'] }]), rbac.clusterRoleBinding('mon', 'mon', [{ kind: 'Group', name: 'system:monitoring' }])]));
  const m = user('prom', ['system:monitoring']);
  assert.equal(authz.authorize(nonResourceAttributes(m, 'get', '/metrics')).decision, 'allow');
  assert.equal(authz.authorize(nonResourceAttributes(m, 'get', '/healthz/etcd')).decision, 'allow');
  assert.equal(authz.authorize(nonResourceAttributes(m, 'post', '/metrics')).decision, 'no-opinion');
});

test('updates and deletes of roles and bindings take effect', () => {
  const index = indexOf([podReader, rbac.clusterRoleBinding('b', 'pod-reader', [{ kind: 'User', name: 'alice' }])]);
  const authz = new RbacAuthorizer(index);
  const list = resourceAttributes(user('alice'), { verb: 'list', resource: 'pods' });
  const del = resourceAttributes(user('alice'), { verb: 'delete', resource: 'pods', name: 'p', namespace: 'n' });
  index.apply({ type: 'MODIFIED', object: rbac.clusterRole('pod-reader', [{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }]) });
  assert.equal(authz.authorize(list).decision, 'no-opinion');
  assert.equal(authz.authorize(del).decision, 'allow');
  index.apply({ type: 'MODIFIED', object: rbac.clusterRoleBinding('b', 'pod-reader', [{ kind: 'User', name: 'bob' }]) });
  assert.equal(authz.authorize(del).decision, 'no-opinion');
  assert.equal(authz.authorize({ ...del, user: user('bob') }).decision, 'allow');
  index.apply({ type: 'DELETED', object: rbac.clusterRoleBinding('b', 'pod-reader', []) });
  assert.equal(authz.authorize({ ...del, user: user('bob') }).decision, 'no-opinion');
  assert.deepEqual({ ...index.stats(), bindingsExamined: 0 }, { roles: 0, clusterRoles: 1, roleBindings: 0, clusterRoleBindings: 0, bindingsExamined: 0 });
  assert.throws(() => index.apply({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'x' } } }), /not an RBAC kind/);
  assert.throws(() => index.apply({ type: 'ADDED', object: { kind: 'Role', metadata: {} } }), /without metadata.name/);
  index.clear();
  assert.equal(index.stats().clusterRoles, 0);
});

test('rulesFor lists cluster and namespace rules, and the errors', () => {
  const authz = new RbacAuthorizer(indexOf([
    podReader,
    rbac.clusterRole('urls', [{ verbs: ['get'], nonResourceURLs: ['/version'] }]),
    rbac.clusterRoleBinding('a', 'pod-reader', [{ kind: 'User', name: 'alice' }]),
    rbac.clusterRoleBinding('b', 'urls', [{ kind: 'Group', name: 'system:authenticated' }]),
    rbac.roleBinding('dev', 'c', 'Role', 'missing', [{ kind: 'User', name: 'alice' }]),
  ]));
  const rules = authz.rulesFor(user('alice'), 'dev');
  assert.deepEqual(rules.resourceRules, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [] }]);
  assert.deepEqual(rules.nonResourceRules, [{ verbs: ['get'], nonResourceURLs: ['/version'] }]);
  assert.equal(rules.incomplete, false);
  assert.deepEqual(rules.errors.map((e) => e.message), ['role.rbac.authorization.k8s.io "missing" not found']);
});

test('10,000 bindings: a lookup examines only the bindings naming the user or its groups', () => {
  const objects: Record<string, unknown>[] = [podReader];
  for (let i = 0; i < 5000; i++) objects.push(rbac.clusterRoleBinding(`crb-${i}`, 'pod-reader', [{ kind: 'User', name: `user-${i}` }]));
  for (let i = 0; i < 5000; i++) objects.push(rbac.roleBinding(`ns-${i % 50}`, `rb-${i}`, 'ClusterRole', 'pod-reader', [{ kind: 'ServiceAccount', name: `sa-${i}` }]));
  const index = indexOf(objects);
  const authz = new RbacAuthorizer(index);
  assert.equal(index.stats().clusterRoleBindings, 5000);
  assert.equal(index.stats().roleBindings, 5000);
  const before = index.stats().bindingsExamined;
  // rb-123 lives in ns-23 and names sa-123 of that namespace.
  const sa = user('system:serviceaccount:ns-23:sa-123', ['system:serviceaccounts', 'system:serviceaccounts:ns-23']);
  assert.equal(authz.authorize(resourceAttributes(sa, { verb: 'list', resource: 'pods', namespace: 'ns-23' })).decision, 'allow');
  assert.equal(index.stats().bindingsExamined - before, 1);
  const stranger = user('nobody');
  const mid = index.stats().bindingsExamined;
  assert.equal(authz.authorize(resourceAttributes(stranger, { verb: 'list', resource: 'pods', namespace: 'ns-1' })).decision, 'no-opinion');
  assert.equal(index.stats().bindingsExamined - mid, 0);
  assert.equal(authz.authorize(resourceAttributes(user('user-4999'), { verb: 'get', resource: 'pods', name: 'p', namespace: 'x' })).decision, 'allow');
  assert.equal(index.stats().bindingsExamined - mid, 1);
});
