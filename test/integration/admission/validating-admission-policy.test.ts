// ValidatingAdmissionPolicies against an in-process API server with the feature gate and
// admissionregistration.k8s.io/v1beta1 on: a policy parameterized by a ConfigMap denies a
// Deployment over the limit with kube's message and 422 and admits one within; a Warn binding
// lets it through with the Warning header; a missing param under Deny refuses; failurePolicy
// Ignore and Fail on an erroring expression; and a webhook's matchConditions skipping the call.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiServerOptions } from '../../../internal/apiserver/index.ts';
import { parseRuntimeConfig } from '../../../internal/registry/runtime-config.ts';
import { startTestServer, type TestServer } from '../../unit/apiserver/harness.ts';
import { eventually } from '../../unit/controllers/garbage-collector-fixture.ts';
import { answerV1, startWebhook } from '../../unit/admission/webhook/fixtures.ts';

const policies = '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies';
const bindings = '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicybindings';
const deployments = '/apis/apps/v1/namespaces/default/deployments';

/** The serving options that turn the kinds on (`--feature-gates=ValidatingAdmissionPolicy=true --runtime-config=admissionregistration.k8s.io/v1beta1`). */
function policyServing(): Partial<ApiServerOptions> {
  return { serving: { runtimeConfig: parseRuntimeConfig('admissionregistration.k8s.io/v1beta1=true'), featureGates: new Map([['ValidatingAdmissionPolicy', true]]) } };
}

async function policyServer(t: TestContext): Promise<TestServer> {
  const server = await startTestServer(policyServing());
  t.after(() => server.close());
  const discovery = await server.client.call('GET', '/apis/admissionregistration.k8s.io/v1beta1');
  assert.equal(discovery.status, 200, `admissionregistration.k8s.io/v1beta1 is not served: ${discovery.text}`);
  return server;
}

function deployment(name: string, replicas: number): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

async function create(server: TestServer, path: string, body: Record<string, unknown>): Promise<void> {
  const answer = await server.client.call('POST', path, { body });
  assert.equal(answer.status, 201, `${path}: ${answer.text}`);
}

const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }];

async function maxReplicasPolicy(server: TestServer, failurePolicy = 'Fail'): Promise<void> {
  await create(server, policies, {
    apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'max-replicas' },
    spec: {
      failurePolicy, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: rules },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', messageExpression: "'replicas must be at most ' + params.data.maxReplicas" }],
    },
  });
}

async function bind(server: TestServer, name: string, spec: Record<string, unknown>): Promise<void> {
  await create(server, bindings, { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: 'max-replicas', ...spec } });
}

/** Waits until the policy is in effect: a dry-run create of `replicas` is refused. */
async function inEffect(server: TestServer, replicas: number): Promise<void> {
  await eventually('the policy is in effect', async () => (await server.client.call('POST', `${deployments}?dryRun=All`, { body: deployment('probe', replicas) })).status !== 201);
}

test('a ConfigMap-parameterized policy denies a Deployment over the limit with 422 and kube\'s message, and admits one within', async (t) => {
  const server = await policyServer(t);
  await create(server, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'limits' }, data: { maxReplicas: '3' } });
  await maxReplicasPolicy(server);
  await bind(server, 'max-replicas-binding', { paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny'] });
  await inEffect(server, 5);
  const denied = await server.client.call('POST', deployments, { body: deployment('big', 5) });
  assert.equal(denied.status, 422, denied.text);
  const status = denied.json as { reason: string; message: string; details: { causes: { message: string }[] } };
  assert.equal(status.reason, 'Invalid');
  const message = "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: replicas must be at most 3";
  assert.equal(status.message, `deployments.apps "big" is forbidden: ${message}`);
  assert.deepEqual(status.details.causes, [{ message }]);
  assert.equal((await server.client.call('POST', deployments, { body: deployment('small', 3) })).status, 201);
});

test('a Warn binding lets the request through with the Warning header', async (t) => {
  const server = await policyServer(t);
  await create(server, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'limits' }, data: { maxReplicas: '3' } });
  await maxReplicasPolicy(server);
  await bind(server, 'warn-binding', { paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' }, validationActions: ['Warn'] });
  let warning = '';
  await eventually('the warning is sent', async () => {
    const answer = await server.client.call('POST', `${deployments}?dryRun=All`, { body: deployment('probe', 9) });
    warning = String(answer.headers.warning ?? '');
    return answer.status === 201 && warning !== '';
  });
  const created = await server.client.call('POST', deployments, { body: deployment('big', 9) });
  assert.equal(created.status, 201, created.text);
  assert.match(String(created.headers.warning), /^299 - "Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'warn-binding': replicas must be at most 3"$/);
});

test('a missing param under parameterNotFoundAction Deny refuses the request', async (t) => {
  const server = await policyServer(t);
  await maxReplicasPolicy(server);
  await bind(server, 'needs-param', { paramRef: { name: 'absent', namespace: 'default', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny'] });
  await inEffect(server, 1);
  const denied = await server.client.call('POST', deployments, { body: deployment('any', 1) });
  assert.equal(denied.status, 422, denied.text);
  assert.match((denied.json as { message: string }).message, /ValidatingAdmissionPolicy 'max-replicas' with binding 'needs-param' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/);
});

test('an erroring expression refuses under failurePolicy Fail and admits under Ignore', async (t) => {
  const server = await policyServer(t);
  for (const [name, failurePolicy] of [['fails', 'Fail'], ['ignores', 'Ignore']] as const) {
    await create(server, policies, {
      apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name },
      spec: { failurePolicy, matchConstraints: { resourceRules: rules, objectSelector: { matchLabels: { policy: name } } }, validations: [{ expression: 'object.spec.nothing.here == 1' }] },
    });
    await create(server, bindings, { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } });
  }
  const labelled = (name: string, policy: string) => ({ ...deployment(name, 1), metadata: { name, labels: { policy } } });
  await eventually('the policy is in effect', async () => (await server.client.call('POST', `${deployments}?dryRun=All`, { body: labelled('probe', 'fails') })).status === 422);
  const refused = await server.client.call('POST', deployments, { body: labelled('a', 'fails') });
  assert.equal(refused.status, 422, refused.text);
  assert.match((refused.json as { message: string }).message, /ValidatingAdmissionPolicy 'fails' with binding 'fails' denied request: expression 'object\.spec\.nothing\.here == 1' resulted in error: /);
  assert.equal((await server.client.call('POST', deployments, { body: labelled('b', 'ignores') })).status, 201);
});

test('a webhook whose matchConditions are false is not called', async (t) => {
  const server = await policyServer(t);
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: false, status: { code: 403, message: 'webhook says no' } }));
  await create(server, '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'hook' },
    webhooks: [{
      name: 'hook.orch.test', clientConfig: { url: hook.url, caBundle: hook.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      matchConditions: [{ name: 'only-checked', expression: "has(object.metadata.labels) && object.metadata.labels.checked == 'yes'" }],
    }],
  });
  await eventually('the webhook is in effect', async () => (await server.client.call('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: { metadata: { name: 'probe', labels: { checked: 'yes' } } } })).status === 403);
  const before = hook.received.length;
  const skipped = await server.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'unchecked' } } });
  assert.equal(skipped.status, 201, skipped.text);
  assert.equal(hook.received.length, before);
  const called = await server.client.call('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'checked', labels: { checked: 'yes' } } } });
  assert.equal(called.status, 403);
  assert.equal(hook.received.length, before + 1);
});

test('v1alpha1 and v1beta1 hold one set of objects; without the gate neither is served and nothing is evaluated', async (t) => {
  const both = await startTestServer({ serving: { runtimeConfig: parseRuntimeConfig('admissionregistration.k8s.io/v1beta1=true,admissionregistration.k8s.io/v1alpha1=true'), featureGates: new Map([['ValidatingAdmissionPolicy', true]]) } });
  t.after(() => both.close());
  await create(both, policies, { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: 'true' }] } });
  const alpha = await both.client.call('GET', '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicies/p');
  assert.equal(alpha.status, 200, alpha.text);
  assert.equal((alpha.json as { apiVersion: string }).apiVersion, 'admissionregistration.k8s.io/v1alpha1');
  assert.equal((alpha.json as { spec: { failurePolicy: string } }).spec.failurePolicy, 'Fail');
  const off = await startTestServer({ serving: { runtimeConfig: parseRuntimeConfig('admissionregistration.k8s.io/v1beta1=true') } });
  t.after(() => off.close());
  assert.equal((await off.client.call('GET', '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies')).status, 404);
  assert.equal((await off.client.call('POST', deployments, { body: deployment('free', 50) })).status, 201);
});

test('params need read access: a user who cannot get Secrets may not set paramKind Secret nor bind one; one who can, may', async (t) => {
  const server = await policyServer(t);
  await server.server.authorizationReady;
  const rbacPath = '/apis/rbac.authorization.k8s.io/v1';
  const writer = { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'], verbs: ['*'] };
  await create(server, `${rbacPath}/clusterroles`, { metadata: { name: 'policy-writer' }, rules: [writer] });
  await create(server, `${rbacPath}/clusterroles`, { metadata: { name: 'secret-policy-writer' }, rules: [writer, { apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] });
  for (const [name, role] of [['mallory', 'policy-writer'], ['alice', 'secret-policy-writer']]) {
    await create(server, `${rbacPath}/clusterrolebindings`, { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name }] });
  }
  await create(server, '/api/v1/namespaces/default/secrets', { metadata: { name: 'topsecret' }, stringData: { password: 'hunter2' } });
  const leak = (name: string) => ({
    apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name },
    spec: { failurePolicy: 'Fail', paramKind: { apiVersion: 'v1', kind: 'Secret' }, matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] }, validations: [{ expression: 'false', messageExpression: "'leaked: ' + params.data.password" }] },
  });
  const bindingOf = (name: string) => ({ apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'], paramRef: { name: 'topsecret', namespace: 'default', parameterNotFoundAction: 'Deny' } } });
  await eventually('alice may read the Secret', async () => (await server.client.call('GET', '/api/v1/namespaces/default/secrets/topsecret', { headers: { 'Impersonate-User': 'alice' } })).status === 200);
  const as = (user: string, path: string, body: Record<string, unknown>) => server.client.call('POST', path, { body, headers: { 'Impersonate-User': user } });
  const policyDenied = await as('mallory', policies, leak('mallory-leak'));
  assert.equal(policyDenied.status, 422, policyDenied.text);
  assert.equal((policyDenied.json as { message?: string }).message, 'ValidatingAdmissionPolicy.admissionregistration.k8s.io "mallory-leak" is invalid: spec.paramKind: Forbidden: user &{mallory  [system:authenticated] map[]} must have "get" permission on all objects of the referenced paramKind (kind=Secret, apiVersion=v1)');
  // The policy exists (made by someone allowed); mallory still may not bind the Secret to it.
  const granted = await as('alice', policies, leak('alice-leak'));
  assert.equal(granted.status, 201, granted.text);
  const bindingDenied = await as('mallory', bindings, bindingOf('alice-leak'));
  assert.equal(bindingDenied.status, 422, bindingDenied.text);
  assert.equal((bindingDenied.json as { message?: string }).message, 'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "alice-leak" is invalid: spec.paramRef: Forbidden: user &{mallory  [system:authenticated] map[]} does not have "get" permission on the object referenced by paramRef');
  const bound = await as('alice', bindings, bindingOf('alice-leak'));
  assert.equal(bound.status, 201, bound.text);
});
