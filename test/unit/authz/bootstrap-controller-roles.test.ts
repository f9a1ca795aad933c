// kube-apiserver 1.28's controller roles (system:controller:*) and their bindings, against kube's
// testdata/controller-roles.yaml and testdata/controller-role-bindings.yaml of that release.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapControllerRoleBindings, bootstrapControllerRoles } from '../../../internal/authz/bootstrap/bootstrap-controller-roles.ts';
import { policyRuleToJson } from '../../../internal/authz/rbac/policy-rule.ts';

type RuleJson = Record<string, string[]>;

function rulesOf(name: string): RuleJson[] {
  const role = bootstrapControllerRoles.find((r) => r.name === name);
  assert.ok(role, `${name} is missing`);
  return role.rules.map(policyRuleToJson);
}

const events: RuleJson = { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] };

// As testdata/controller-roles.yaml prints them, rule by rule.
const expected: Record<string, RuleJson[]> = {
  'system:controller:namespace-controller': [
    { apiGroups: [''], resources: ['namespaces'], verbs: ['delete', 'get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['namespaces/finalize', 'namespaces/status'], verbs: ['update'] },
    { apiGroups: ['*'], resources: ['*'], verbs: ['delete', 'deletecollection', 'get', 'list'] },
  ],
  'system:controller:generic-garbage-collector': [{ apiGroups: ['*'], resources: ['*'], verbs: ['delete', 'get', 'list', 'patch', 'update', 'watch'] }, events],
  'system:controller:clusterrole-aggregation-controller': [
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'] },
  ],
  'system:controller:service-account-controller': [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] }, events],
  'system:controller:resourcequota-controller': [
    { apiGroups: ['*'], resources: ['*'], verbs: ['list', 'watch'] },
    { apiGroups: [''], resources: ['resourcequotas/status'], verbs: ['update'] },
    events,
  ],
  'system:controller:root-ca-cert-publisher': [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'update'] }, events],
  'system:controller:disruption-controller': [
    { apiGroups: ['apps', 'extensions'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['apps', 'extensions'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['replicationcontrollers'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['policy'], resources: ['poddisruptionbudgets/status'], verbs: ['update'] },
    { apiGroups: ['*'], resources: ['*/scale'], verbs: ['get'] },
    events,
    { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
  ],
};

for (const [name, rules] of Object.entries(expected)) {
  test(`${name} has kube's 1.28 rules`, () => {
    assert.deepEqual(rulesOf(name), rules);
  });
}

test('a rule with resource names keeps them (certificate-controller signers)', () => {
  const rules = rulesOf('system:controller:certificate-controller');
  assert.deepEqual(rules[2], { apiGroups: ['certificates.k8s.io'], resourceNames: ['kubernetes.io/kube-apiserver-client-kubelet'], resources: ['signers'], verbs: ['approve'] });
  assert.deepEqual(rules[3]?.resourceNames, ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown']);
});

test('the default 1.28 controller roles: 31, by name, none feature-gated off', () => {
  const names = bootstrapControllerRoles.map((r) => r.name);
  assert.equal(names.length, 31);
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual(names, [...names].sort());
  for (const name of names) assert.match(name, /^system:controller:[a-z0-9-]+$/);
  for (const gated of ['resource-claim-controller', 'validatingadmissionpolicy-status-controller', 'legacy-service-account-token-cleaner', 'storage-version-garbage-collector', 'service-cidrs-controller']) {
    assert.ok(!names.includes(`system:controller:${gated}`), gated);
  }
  for (const role of bootstrapControllerRoles) {
    assert.ok(role.rules.length > 0, role.name);
    assert.equal(role.aggregateFrom, undefined);
    for (const rule of role.rules) {
      for (const list of [rule.verbs, rule.apiGroups, rule.resources, rule.resourceNames]) assert.deepEqual(list, [...list].sort(), `${role.name}: lists sorted as kube's rule builder sorts them`);
    }
  }
});

test('every controller role is bound to its service account in kube-system', () => {
  assert.equal(bootstrapControllerRoleBindings.length, bootstrapControllerRoles.length);
  for (const role of bootstrapControllerRoles) {
    const binding = bootstrapControllerRoleBindings.find((b) => b.name === role.name);
    assert.ok(binding, `${role.name} has no binding`);
    assert.deepEqual(binding.serviceAccounts, [{ namespace: 'kube-system', name: role.name.slice('system:controller:'.length) }]);
    assert.equal(binding.users, undefined);
    assert.equal(binding.groups, undefined);
  }
  const gc = bootstrapControllerRoleBindings.find((b) => b.name === 'system:controller:generic-garbage-collector');
  assert.deepEqual(gc?.serviceAccounts, [{ namespace: 'kube-system', name: 'generic-garbage-collector' }]);
});
