// Webhook matchConditions over the expression language (kube's webhook/matchconditions Matcher):
// all true calls the webhook; any false skips it whatever the errors; an error with no false
// condition goes by failurePolicy (Fail: 403 naming the error; Ignore: skipped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CelMatchConditions } from '../../../../internal/admission/webhook/cel-match-conditions.ts';
import { WebhookConfigurationSource } from '../../../../internal/admission/webhook/configuration-source.ts';
import { noEquivalentResources } from '../../../../internal/admission/webhook/equivalents.ts';
import { shouldCallHook, type MatchingContext } from '../../../../internal/admission/webhook/should-call.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { configuration, memoryObjects, nsObject, podAttributes } from '../webhook/fixtures.ts';
import { testAuthorizer } from './fixtures.ts';

const evaluator = new CelMatchConditions(testAuthorizer((verb) => verb === 'use'));

function context(): MatchingContext {
  return { objects: memoryObjects([nsObject]), equivalents: noEquivalentResources, matchConditions: evaluator, log: () => undefined };
}

function webhook(extra: Record<string, unknown>) {
  const source = new WebhookConfigurationSource('ValidatingWebhookConfiguration');
  source.replace([configuration('ValidatingWebhookConfiguration', 'c', [{ name: 'w.example.com', clientConfig: { url: 'https://x' }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }], ...extra }])]);
  const [hook] = source.webhooks();
  assert.ok(hook);
  return hook;
}

test('all conditions true: the webhook is called; one false: it is skipped', async () => {
  const notSystem = { name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" };
  const labelled = { name: 'labelled', expression: "has(object.metadata.labels) && object.metadata.labels.app == 'web'" };
  assert.ok(await shouldCallHook(webhook({ matchConditions: [notSystem, labelled] }), podAttributes(), context()));
  const system = podAttributes({ userInfo: { username: 'system:kube-scheduler', uid: '', groups: [], extra: {} } });
  assert.equal(await shouldCallHook(webhook({ matchConditions: [notSystem, labelled] }), system, context()), undefined);
  assert.deepEqual(await evaluator.evaluate([notSystem, labelled], system), { matches: false, failedCondition: 'not-system' });
});

test('a false condition wins over an error; an error alone goes by failurePolicy', async () => {
  const broken = { name: 'broken', expression: 'object.spec.nothing.here == 1' };
  const no = { name: 'no', expression: 'false' };
  assert.deepEqual(await evaluator.evaluate([broken, no], podAttributes()), { matches: false, failedCondition: 'no' });
  await assert.rejects(shouldCallHook(webhook({ matchConditions: [broken] }), podAttributes(), context()), (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 403);
    assert.match(err.message, /^pods "p" is forbidden: expression 'object\.spec\.nothing\.here == 1' resulted in error: /);
    return true;
  });
  assert.equal(await shouldCallHook(webhook({ matchConditions: [broken], failurePolicy: 'Ignore' }), podAttributes(), context()), undefined);
});

test('conditions may ask the authorizer', async () => {
  const canUse = { name: 'can-use', expression: "authorizer.group('policy').resource('podsecuritypolicies').check('use').allowed()" };
  assert.ok(await shouldCallHook(webhook({ matchConditions: [canUse] }), podAttributes(), context()));
});
