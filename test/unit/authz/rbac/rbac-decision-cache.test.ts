// The RBAC authorizer's memory of its decisions: a repeated request is decided once per state of
// the RBAC objects, any change to them is seen by the next request, and no two different requests
// or users share an answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RbacAuthorizer } from '../../../../internal/authz/rbac/rbac-authorizer.ts';
import { resourceAttributes } from '../../../../internal/authz/request-attributes.ts';
import { indexOf, rbac, user } from '../fixtures.ts';

const cmWriter = rbac.role('dev', 'cm', [{ verbs: ['create'], apiGroups: [''], resources: ['configmaps'] }]);
const binding = rbac.roleBinding('dev', 'b', 'Role', 'cm', [{ kind: 'User', name: 'alice' }]);
const create = (name: string, groups: string[] = [], namespace = 'dev') => resourceAttributes(user(name, groups), { verb: 'create', resource: 'configmaps', namespace });

test('a repeated request is decided once while the RBAC objects stay as they are', () => {
  const index = indexOf([cmWriter, binding]);
  const authz = new RbacAuthorizer(index);
  const first = authz.authorize(create('alice'));
  const examined = index.stats().bindingsExamined;
  const again = authz.authorize(create('alice'));
  assert.equal(again, first);
  assert.equal(again.decision, 'allow');
  assert.equal(index.stats().bindingsExamined, examined, 'answered without walking the bindings');
});

test('a binding deleted or added changes the very next decision', () => {
  const index = indexOf([cmWriter, binding]);
  const authz = new RbacAuthorizer(index);
  assert.equal(authz.authorize(create('alice')).decision, 'allow');
  index.apply({ type: 'DELETED', object: binding });
  assert.equal(authz.authorize(create('alice')).decision, 'no-opinion');
  index.apply({ type: 'ADDED', object: binding });
  assert.equal(authz.authorize(create('alice')).decision, 'allow');
  index.clear();
  assert.equal(authz.authorize(create('alice')).decision, 'no-opinion');
});

test('users, groups and namespaces that differ never share a decision, whatever characters their names hold', () => {
  const groupBinding = rbac.roleBinding('dev', 'g', 'Role', 'cm', [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }]);
  const authz = new RbacAuthorizer(indexOf([cmWriter, groupBinding]));
  assert.equal(authz.authorize(create('carol', ['devs'])).decision, 'allow');
  assert.equal(authz.authorize(create('carol')).decision, 'no-opinion');
  assert.equal(authz.authorize(create('carol', ['devs'], 'prod')).decision, 'no-opinion');
  // A name that would glue onto its groups in a naive key: "carol","devs" against "carol\",\"devs".
  assert.equal(authz.authorize(create('carol","devs')).decision, 'no-opinion');
  assert.equal(authz.authorize(create('carol\u0000devs')).decision, 'no-opinion');
});
