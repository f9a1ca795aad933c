// Validating- and MutatingWebhookConfigurations as kube-apiserver 1.28 validates and defaults them:
// each bad field reported at kube's path with kube's message; defaults filled; the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mutatingwebhookconfigurations } from '../../../../internal/registry/admissionregistration/mutatingwebhookconfigurations.ts';
import { validatingwebhookconfigurations } from '../../../../internal/registry/admissionregistration/validatingwebhookconfigurations.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { runCreateStrategy } from '../../../../internal/registry/generic/object-lifecycle.ts';
import type { KObject, ResourceDeclaration } from '../../../../internal/registry/schema/declaration.ts';

const group = 'admissionregistration.k8s.io';

function hook(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'hook.example.com',
    clientConfig: { url: 'https://hook.example.com/validate' },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

function object(kind: string, webhooks: Record<string, unknown>[]): KObject {
  return { apiVersion: `${group}/v1`, kind, metadata: { name: 'config' }, webhooks };
}

/** The `field: message` lines of the 422 a create gets ([] when it is valid). */
function problems(decl: ResourceDeclaration, webhooks: Record<string, unknown>[]): string[] {
  try {
    runCreateStrategy(decl, group, object(decl.kind, webhooks));
    return [];
  } catch (err) {
    assert.ok(err instanceof StatusError && err.code === 422, String(err));
    return (err.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  }
}

const validating = (webhooks: Record<string, unknown>[]) => problems(validatingwebhookconfigurations, webhooks);

test('a minimal webhook is valid and gets kube\'s v1 defaults', () => {
  const obj = object('MutatingWebhookConfiguration', [hook({ clientConfig: { service: { namespace: 'ns', name: 'svc' } } })]);
  runCreateStrategy(mutatingwebhookconfigurations, group, obj);
  assert.deepEqual(obj.webhooks, [{
    ...hook(),
    clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    timeoutSeconds: 10,
    reinvocationPolicy: 'Never',
  }]);
  const plain = object('ValidatingWebhookConfiguration', [hook()]);
  runCreateStrategy(validatingwebhookconfigurations, group, plain);
  assert.equal('reinvocationPolicy' in (plain.webhooks as Record<string, unknown>[])[0]!, false);
});

test('names: fully qualified (three segments), unique within the configuration', () => {
  assert.deepEqual(validating([hook({ name: 'example.com' })]), ['webhooks[0].name: Invalid value: "example.com": should be a domain with at least three segments separated by dots']);
  assert.deepEqual(validating([hook({ name: '' })]), ['webhooks[0].name: Required value']);
  assert.deepEqual(validating([hook(), hook()]), ['webhooks[1].name: Duplicate value: "hook.example.com"']);
});

test('sideEffects is required in v1 and must be None or NoneOnDryRun', () => {
  const { sideEffects: _omitted, ...without } = hook();
  assert.deepEqual(validating([without]), ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
  assert.deepEqual(validating([hook({ sideEffects: 'Some' })]), ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
});

test('admissionReviewVersions: required, with a known version, no duplicates', () => {
  assert.deepEqual(validating([hook({ admissionReviewVersions: [] })]), ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']);
  assert.deepEqual(validating([hook({ admissionReviewVersions: ['v2'] })]), ['webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1']);
  assert.deepEqual(validating([hook({ admissionReviewVersions: ['v1', 'v1'] })]), ['webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version']);
});

test('timeoutSeconds 1 to 30; enums of failurePolicy, matchPolicy, reinvocationPolicy', () => {
  assert.deepEqual(validating([hook({ timeoutSeconds: 31 })]), ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']);
  assert.deepEqual(validating([hook({ timeoutSeconds: 0 })]), ['webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds']);
  assert.deepEqual(validating([hook({ failurePolicy: 'Maybe', matchPolicy: 'Loose' })]), [
    'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    'webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"',
  ]);
  assert.deepEqual(problems(mutatingwebhookconfigurations, [hook({ reinvocationPolicy: 'Always' })]), ['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']);
});

test('rules: operations, groups, versions, resources with their wildcard rules, and scope', () => {
  const rule = (extra: Record<string, unknown>) => [hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...extra }] })];
  assert.deepEqual(validating(rule({ operations: ['CREATE', '*', 'PATCH'] })), [
    'webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"CREATE", "*", "PATCH"}: if \'*\' is present, must not specify other operations',
    'webhooks[0].rules[0].operations[2]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
  ]);
  assert.deepEqual(validating(rule({ apiGroups: [], apiVersions: ['*', 'v1'] })), [
    'webhooks[0].rules[0].apiGroups: Required value',
    'webhooks[0].rules[0].apiVersions: Invalid value: []string{"*", "v1"}: if \'*\' is present, must not specify other API versions',
  ]);
  assert.deepEqual(validating(rule({ resources: ['*/*', 'pods'] })), ['webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if \'*/*\' is present, must not specify other resources']);
  assert.deepEqual(validating(rule({ resources: ['*', 'pods'] })), ['webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods"}: if \'*\' is present, must not specify other resources without subresources']);
  // kube's quirk, kept: only the last plain entry is looked at, so a trailing '*' hides 'pods'.
  assert.deepEqual(validating(rule({ resources: ['pods', '*'] })), []);
  assert.deepEqual(validating(rule({ resources: ['pods/*', 'pods/status'] })), ['webhooks[0].rules[0].resources[1]: Invalid value: "pods/status": if \'pods/*\' is present, must not specify pods/status']);
  assert.deepEqual(validating(rule({ resources: ['*/status', 'pods/status'] })), ['webhooks[0].rules[0].resources[1]: Invalid value: "pods/status": if \'*/status\' is present, must not specify pods/status']);
  assert.deepEqual(validating(rule({ resources: ['*', 'pods/status', 'pods/*'] })), []);
  assert.deepEqual(validating(rule({ scope: 'Global' })), ['webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"']);
});

test('clientConfig: exactly one of url and service; an https URL without user, fragment or query; a service with a valid path and port', () => {
  assert.deepEqual(validating([hook({ clientConfig: {} })]), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
  assert.deepEqual(validating([hook({ clientConfig: { url: 'https://a.b', service: { namespace: 'ns', name: 's' } } })]), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
  assert.deepEqual(validating([hook({ clientConfig: { url: 'http://u:p@h.example.com/x?y=1#z' } })]), [
    'webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "z": fragments are not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "y=1": query parameters are not permitted in the URL',
  ]);
  assert.deepEqual(validating([hook({ clientConfig: { url: 'https:///path' } })]), ['webhooks[0].clientConfig.url: Invalid value: "": host must be provided; desired format: https://host[/path]']);
  assert.deepEqual(validating([hook({ clientConfig: { url: 'https://h:port/' } })]), ['webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://h:port/": invalid port ":port" after host; desired format: https://host[/path]']);
  assert.deepEqual(validating([hook({ clientConfig: { service: { namespace: '', name: 's', path: 'noslash', port: 70000 } } })]), [
    'webhooks[0].clientConfig.service.namespace: Required value: service namespace is required',
    'webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    'webhooks[0].clientConfig.service.path: Invalid value: "noslash": must start with a \'/\'',
  ]);
  assert.deepEqual(validating([hook({ clientConfig: { service: { namespace: 'ns', name: 's', path: '/a//B' } } })]).map((p) => p.replace(/ \(e\.g\..*$/, '')), [
    'webhooks[0].clientConfig.service.path: Invalid value: "/a//B": segment[1] may not be empty',
    'webhooks[0].clientConfig.service.path: Invalid value: "/a//B": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character',
  ]);
});

test('selectors are validated at namespaceSelector and objectSelector', () => {
  assert.deepEqual(validating([hook({ namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] }, objectSelector: { matchLabels: { 'bad key!': 'x' } } })]).map((p) => p.split(': ').slice(0, 2).join(': ')), [
    'webhooks[0].namespaceSelector.matchExpressions[0].values: Required value',
    'webhooks[0].objectSelector.matchLabels: Invalid value',
  ]);
});

test('matchConditions: at most 64, names qualified and unique, expressions required and compiled', () => {
  const conditions = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  assert.deepEqual(validating([hook({ matchConditions: conditions(64) })]), []);
  assert.deepEqual(validating([hook({ matchConditions: conditions(65) })]), ['webhooks[0].matchConditions: Too many: 65: must have at most 64 items']);
  assert.deepEqual(validating([hook({ matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: '  ' }, { name: '', expression: 'x' }] })]), [
    'webhooks[0].matchConditions[1].expression: Required value',
    'webhooks[0].matchConditions[1].name: Duplicate value: "a"',
    'webhooks[0].matchConditions[2].expression: Invalid value: "x": compilation failed: ERROR: <input>:1:1: undeclared reference to \'x\' (in container \'\')\n | x\n | ^',
    'webhooks[0].matchConditions[2].name: Required value',
  ]);
});

test('the table: NAME, WEBHOOKS, AGE', () => {
  const columns = validatingwebhookconfigurations.printerColumns ?? [];
  assert.deepEqual(columns.map((c) => c.name), ['Name', 'Webhooks', 'Age']);
  assert.equal(columns[1]?.cell(object('ValidatingWebhookConfiguration', [hook(), hook()]), new Date()), 2);
  assert.deepEqual((mutatingwebhookconfigurations.printerColumns ?? []).map((c) => c.description ?? ''), [
    'Name must be unique within a namespace.',
    'Webhooks indicates the number of webhooks in the MutatingWebhookConfiguration.',
    'Time since the object was created.',
  ]);
});
