// ValidatingAdmissionPolicies and their bindings as kube-apiserver 1.28 validates, defaults and
// prints them: each bad field reported at kube's path with kube's message; both versions declared
// over one collection, off by default and behind the feature gate; webhook matchConditions compiled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateMatchConditions } from '../../../../internal/registry/admissionregistration/policy-match-conditions.ts';
import { validatingadmissionpolicies, validatingadmissionpoliciesV1alpha1 } from '../../../../internal/registry/admissionregistration/validatingadmissionpolicies.ts';
import { validatingadmissionpolicybindings, validatingadmissionpolicybindingsV1alpha1 } from '../../../../internal/registry/admissionregistration/validatingadmissionpolicybindings.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { runCreateStrategy, runUpdateStrategy } from '../../../../internal/registry/generic/object-lifecycle.ts';
import type { KObject, ResourceDeclaration } from '../../../../internal/registry/schema/declaration.ts';

const group = 'admissionregistration.k8s.io';

/** A spec as the tests read it back. */
type Spec = Record<string, Record<string, unknown> & { parameterNotFoundAction?: unknown }> & { failurePolicy?: unknown; validations?: unknown };
const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }];

function policy(spec: Record<string, unknown>, name = 'max-replicas'): KObject {
  return { apiVersion: `${group}/v1beta1`, kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: 'object.spec.replicas <= 5' }], ...spec } };
}

function binding(spec: Record<string, unknown>): KObject {
  return { apiVersion: `${group}/v1beta1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'max-replicas', validationActions: ['Deny'], ...spec } };
}

/** The `field: message` lines of the 422 a create gets ([] when it is valid). */
function problems(decl: ResourceDeclaration, obj: KObject): string[] {
  try {
    runCreateStrategy(decl, group, obj);
    return [];
  } catch (err) {
    assert.ok(err instanceof StatusError && err.code === 422, String(err));
    return (err.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  }
}

test('both versions are declared over one collection, off by default and behind the ValidatingAdmissionPolicy gate', () => {
  for (const decl of [validatingadmissionpolicies, validatingadmissionpoliciesV1alpha1, validatingadmissionpolicybindings, validatingadmissionpolicybindingsV1alpha1]) {
    assert.equal(decl.servedByDefault, false, decl.kind);
    assert.equal(decl.featureGate, 'ValidatingAdmissionPolicy');
    assert.equal(decl.namespaced, false);
  }
  assert.equal(validatingadmissionpoliciesV1alpha1.storedAs?.decl, validatingadmissionpolicies);
  assert.equal(validatingadmissionpolicybindingsV1alpha1.storedAs?.decl, validatingadmissionpolicybindings);
  assert.equal(validatingadmissionpolicies.subresources?.status, true);
});

test('a policy is defaulted: failurePolicy Fail, matchPolicy Equivalent, empty selectors, rule scope *', () => {
  const obj = policy({});
  assert.deepEqual(problems(validatingadmissionpolicies, obj), []);
  const spec = obj.spec as Spec;
  assert.equal(spec.failurePolicy, 'Fail');
  assert.deepEqual(spec.matchConstraints, { resourceRules: [{ ...rules[0], scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
  const b = binding({ paramRef: { name: 'limits', namespace: 'default' }, matchResources: {} });
  assert.deepEqual(problems(validatingadmissionpolicybindings, b), []);
  assert.equal((b.spec as Spec).paramRef?.parameterNotFoundAction, 'Deny');
  assert.deepEqual((b.spec as Spec).matchResources, { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
});

test('policy spec: kube\'s paths and messages', () => {
  assert.deepEqual(problems(validatingadmissionpolicies, policy({ failurePolicy: 'Sometimes', matchConstraints: undefined, validations: [] })), [
    'spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
    'spec.matchConstraints: Required value',
    'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
  ]);
  assert.deepEqual(problems(validatingadmissionpolicies, policy({ matchConstraints: { resourceRules: [] } })), ['spec.matchConstraints.resourceRules: Required value']);
  assert.deepEqual(problems(validatingadmissionpolicies, policy({ paramKind: { apiVersion: 'a/b/c', kind: 'Config_Map' } })), [
    'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    'spec.paramKind.kind: Invalid value: "Config_Map": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
  ]);
  assert.deepEqual(problems(validatingadmissionpolicies, policy({ validations: [{ expression: ' ', message: 'a\nb', reason: 'Teapot' }] })), [
    'spec.validations[0].expression: Required value: expression is not specified',
    'spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
    'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
  ]);
  assert.deepEqual(problems(validatingadmissionpolicies, policy({ variables: [{ name: 'in', expression: '1' }], auditAnnotations: [{ key: 'k', valueExpression: '"v"' }, { key: 'k', valueExpression: '' }] })), [
    'spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier',
    'spec.auditAnnotations[1].valueExpression: Required value: valueExpression is not specified',
    'spec.auditAnnotations[1].key: Duplicate value: "k"',
  ]);
});

test('policy expressions are compiled over the variables the policy declares', () => {
  const [paramsWithoutKind] = problems(validatingadmissionpolicies, policy({ validations: [{ expression: 'object.spec.replicas <= params.max' }] }));
  assert.match(paramsWithoutKind ?? '', /^spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas <= params\.max": compilation failed: ERROR: <input>:1:\d+: undeclared reference to 'params'/);
  assert.deepEqual(problems(validatingadmissionpolicies, policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: '"too many: " + string(object.spec.replicas)' }] })), []);
  assert.deepEqual(problems(validatingadmissionpolicies, policy({ variables: [{ name: 'replicas', expression: 'object.spec.replicas' }], validations: [{ expression: 'variables.replicas <= 5' }] })), []);
  const [bad] = problems(validatingadmissionpolicies, policy({ validations: [{ expression: 'object.spec.replicas <=' }] }));
  assert.match(bad ?? '', /^spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas <=": compilation failed: ERROR: <input>:1:/);
});

test('an update does not compile unchanged matchConditions again', () => {
  const old = policy({ matchConditions: [{ name: 'c', expression: 'true' }] });
  runCreateStrategy(validatingadmissionpolicies, group, old);
  const updated = structuredClone(old);
  (updated.spec as Spec).validations = [{ expression: 'true' }];
  assert.deepEqual(runUpdateStrategy(validatingadmissionpolicies, group, updated, old), []);
});

test('binding spec: kube\'s paths and messages', () => {
  assert.deepEqual(problems(validatingadmissionpolicybindings, binding({ policyName: '', validationActions: ['Deny', 'Warn', 'Deny', 'Shout'] })), [
    'spec.policyName: Required value',
    'spec.validationActions[2]: Duplicate value: "Deny"',
    'spec.validationActions[3]: Unsupported value: "Shout": supported values: "Audit", "Deny", "Warn"',
    'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn", "Deny", "Shout"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
  ]);
  assert.deepEqual(problems(validatingadmissionpolicybindings, binding({ validationActions: [] })), ['spec.validationActions: Required value: at least one validation action is required']);
  assert.deepEqual(problems(validatingadmissionpolicybindings, binding({ paramRef: { name: 'a', selector: {}, parameterNotFoundAction: 'Maybe' } })), [
    'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"',
  ]);
  assert.deepEqual(problems(validatingadmissionpolicybindings, binding({ paramRef: { namespace: 'x' } })), ['spec.paramRef: Required value: one of name or selector must be specified']);
});

test('tables: policies show validations and paramKind, bindings their policy and paramRef', () => {
  const now = new Date();
  const cells = (decl: ResourceDeclaration, obj: KObject) => (decl.printerColumns ?? []).map((c) => c.cell(obj, now));
  assert.deepEqual(cells(validatingadmissionpolicies, policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } })).slice(0, 3), ['max-replicas', 1, 'v1/ConfigMap']);
  assert.deepEqual(cells(validatingadmissionpolicies, policy({})).slice(0, 3), ['max-replicas', 1, '<unset>']);
  assert.deepEqual(cells(validatingadmissionpolicybindings, binding({ paramRef: { name: 'limits' } })).slice(0, 3), ['b', 'max-replicas', '*/limits']);
  assert.deepEqual(cells(validatingadmissionpolicybindings, binding({ paramRef: { name: 'limits', namespace: 'default' } })).slice(1, 3), ['max-replicas', 'default/limits']);
});

test('webhook matchConditions: at most 64, unique qualified names, expressions that compile', () => {
  const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  assert.deepEqual(validateMatchConditions(many, 'webhooks[0].matchConditions').map((e) => `${e.field}: ${e.message}`), ['webhooks[0].matchConditions: Too many: 65: must have at most 64 items']);
  const found = validateMatchConditions([{ name: 'a', expression: 'request.userInfo.username == "x"' }, { name: 'a', expression: '' }, { name: 'b!', expression: 'params.x' }], 'webhooks[0].matchConditions').map((e) => `${e.field}: ${e.message}`);
  assert.equal(found[0], 'webhooks[0].matchConditions[1].expression: Required value');
  assert.equal(found[1], 'webhooks[0].matchConditions[1].name: Duplicate value: "a"');
  assert.match(found[2] ?? '', /^webhooks\[0\]\.matchConditions\[2\]\.expression: Invalid value: "params\.x": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/);
  assert.match(found[3] ?? '', /^webhooks\[0\]\.matchConditions\[2\]\.name: Invalid value: "b!": name part must consist of/);
  assert.equal(found.length, 4);
});
