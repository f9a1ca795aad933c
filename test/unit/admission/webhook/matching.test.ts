// Matching without the network: rule scope and wildcards (kube's predicates/rules cases), the
// namespace selector on Namespace objects and cluster-scoped ones, matchPolicy Equivalent with an
// injected mapper, and matchConditions refused out loud while there is no CEL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GroupVersionResource } from '../../../../internal/admission/attributes.ts';
import { WebhookConfigurationSource } from '../../../../internal/admission/webhook/configuration-source.ts';
import { noEquivalentResources, type EquivalentResources } from '../../../../internal/admission/webhook/equivalents.ts';
import { unsupportedMatchConditions } from '../../../../internal/admission/webhook/match-conditions.ts';
import { ruleMatches, type RuleTarget } from '../../../../internal/admission/webhook/rules.ts';
import { shouldCallHook, type MatchingContext } from '../../../../internal/admission/webhook/should-call.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { configuration, memoryObjects, nsObject, podAttributes } from './fixtures.ts';

const pods: RuleTarget = { operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'pods' }, subresource: '', namespace: 'ns' };
const namespaces: RuleTarget = { operation: 'UPDATE', resource: { group: '', version: 'v1', resource: 'namespaces' }, subresource: '', namespace: 'ns' };
const nodes: RuleTarget = { operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'nodes' }, subresource: '', namespace: '' };
const all = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] };

test('scope: Namespaced excludes Namespace objects and cluster-scoped ones; Cluster includes Namespace objects', () => {
  assert.equal(ruleMatches({ ...all, scope: 'Namespaced' }, pods), true);
  assert.equal(ruleMatches({ ...all, scope: 'Namespaced' }, namespaces), false);
  assert.equal(ruleMatches({ ...all, scope: 'Namespaced' }, nodes), false);
  assert.equal(ruleMatches({ ...all, scope: 'Cluster' }, namespaces), true);
  assert.equal(ruleMatches({ ...all, scope: 'Cluster' }, nodes), true);
  assert.equal(ruleMatches({ ...all, scope: 'Cluster' }, pods), false);
  assert.equal(ruleMatches({ ...all, scope: '*' }, pods), true);
});

test('resources: exact, x/*, */y; a sub-resource never matches a bare name', () => {
  const status = { ...pods, subresource: 'status' };
  assert.equal(ruleMatches({ ...all, resources: ['pods'] }, status), false);
  assert.equal(ruleMatches({ ...all, resources: ['pods/status'] }, status), true);
  assert.equal(ruleMatches({ ...all, resources: ['*/status'] }, status), true);
  assert.equal(ruleMatches({ ...all, resources: ['*/scale'] }, status), false);
  // As kube's matcher: a `*` sub-resource also matches none, so pods/* covers the main resource too.
  assert.equal(ruleMatches({ ...all, resources: ['pods/*'] }, pods), true);
  assert.equal(ruleMatches({ ...all, operations: ['CREATE', 'UPDATE'] }, { ...pods, operation: 'DELETE' }), false);
});

function context(equivalents: EquivalentResources = noEquivalentResources): MatchingContext {
  return { objects: memoryObjects([nsObject]), equivalents, matchConditions: unsupportedMatchConditions, log: () => undefined };
}

function webhook(extra: Record<string, unknown>) {
  const source = new WebhookConfigurationSource('ValidatingWebhookConfiguration');
  source.replace([configuration('ValidatingWebhookConfiguration', 'c', [{ name: 'w.example.com', clientConfig: { url: 'https://x' }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }], ...extra }])]);
  const [hook] = source.webhooks();
  assert.ok(hook);
  return hook;
}

test('namespaceSelector: a Namespace being written is judged by its own labels; other cluster-scoped objects always pass', async () => {
  const selective = webhook({ namespaceSelector: { matchLabels: { team: 'b' } } });
  const ns = (labels: Record<string, string>) => podAttributes({ operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'namespaces' }, kind: { group: '', version: 'v1', kind: 'Namespace' }, namespace: '', name: 'fresh', object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh', labels } } });
  assert.ok(await shouldCallHook(selective, ns({ team: 'b' }), context()));
  assert.equal(await shouldCallHook(selective, ns({ team: 'a' }), context()), undefined);
  const node = podAttributes({ resource: { group: '', version: 'v1', resource: 'nodes' }, kind: { group: '', version: 'v1', kind: 'Node' }, namespace: '', name: 'n1', object: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } });
  assert.ok(await shouldCallHook(selective, node, context()));
});

test('matchPolicy Equivalent sends a request through another version as the version the rule names; Exact does not', async () => {
  const v1: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
  const beta: GroupVersionResource = { group: 'extensions', version: 'v1beta1', resource: 'deployments' };
  const mapper: EquivalentResources = {
    equivalentResourcesFor: () => [v1, beta],
    kindFor: (r) => ({ group: r.group, version: r.version, kind: 'Deployment' }),
    convert: (o, kind) => ({ ...o, apiVersion: `${kind.group}/${kind.version}` }),
  };
  const rules = [{ operations: ['CREATE'], apiGroups: ['extensions'], apiVersions: ['v1beta1'], resources: ['deployments'] }];
  const request = podAttributes({ resource: v1, kind: { group: 'apps', version: 'v1', kind: 'Deployment' }, object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' } } });
  const invocation = await shouldCallHook(webhook({ rules }), request, context(mapper));
  assert.deepEqual(invocation?.resource, beta);
  assert.deepEqual(invocation?.kind, { group: 'extensions', version: 'v1beta1', kind: 'Deployment' });
  assert.equal(await shouldCallHook(webhook({ rules, matchPolicy: 'Exact' }), request, context(mapper)), undefined);
});

test('matchConditions without an evaluator: failurePolicy Fail refuses with 403, Ignore skips the webhook', async () => {
  const conditions = [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }];
  await assert.rejects(shouldCallHook(webhook({ matchConditions: conditions }), podAttributes(), context()), (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 403);
    assert.match(err.message, /^pods "p" is forbidden: matchConditions cannot be evaluated/);
    return true;
  });
  assert.equal(await shouldCallHook(webhook({ matchConditions: conditions, failurePolicy: 'Ignore' }), podAttributes(), context()), undefined);
});

test('the source orders webhooks by configuration name, then position, and defaults what is absent', () => {
  const source = new WebhookConfigurationSource('MutatingWebhookConfiguration');
  const hook = (name: string) => ({ name, clientConfig: { service: { namespace: 'ns', name: 's' } }, rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] });
  source.replace([configuration('MutatingWebhookConfiguration', 'zeta', [hook('z1.x.y')]), configuration('MutatingWebhookConfiguration', 'alpha', [hook('a1.x.y'), hook('a2.x.y')])]);
  assert.deepEqual(source.webhooks().map((w) => w.uid), ['alpha/a1.x.y/0', 'alpha/a2.x.y/1', 'zeta/z1.x.y/0']);
  const spec = source.webhooks()[0]?.spec;
  assert.equal(spec?.failurePolicy, 'Fail');
  assert.equal(spec?.matchPolicy, 'Equivalent');
  assert.equal(spec?.timeoutSeconds, 10);
  assert.equal(spec?.reinvocationPolicy, 'Never');
  assert.equal(spec?.clientConfig.service?.port, 443);
  assert.equal(spec?.rules?.[0]?.scope, '*');
});
