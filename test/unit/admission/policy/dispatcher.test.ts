// ValidatingAdmissionPolicy decisions as kube-apiserver 1.28 makes them: params from a ConfigMap,
// the three validation actions, parameterNotFoundAction, failurePolicy on errors, reasons and
// codes, matchConditions, variables, messageExpression, audit annotations, binding narrowing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { binding, configMap, deploymentAttributes, dispatchDeps, policy, run, testAuthorizer } from './fixtures.ts';

const maxReplicas = policy('max-replicas', {
  paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
  validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', message: 'too many replicas' }],
});
const limits = configMap('limits', 'ns', { maxReplicas: '3' });
const withParam = binding('max-replicas-binding', 'max-replicas', { paramRef: { name: 'limits', namespace: 'ns', parameterNotFoundAction: 'Deny' } });

test('a validation failing against its param denies with kube\'s message, reason Invalid and 422', async () => {
  const err = await run([maxReplicas], [withParam], deploymentAttributes(5), dispatchDeps([limits]));
  assert.ok(err instanceof StatusError, String(err));
  assert.equal(err.code, 422);
  assert.equal(err.reason, 'Invalid');
  const message = "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: too many replicas";
  assert.equal(err.message, `deployments.apps "web" is forbidden: ${message}`);
  assert.deepEqual(err.toStatus().details, { name: 'web', group: 'apps', kind: 'deployments', causes: [{ message }] });
  assert.equal(await run([maxReplicas], [withParam], deploymentAttributes(3), dispatchDeps([limits])), undefined);
});

test('Warn lets the request through with kube\'s warning; Audit records the failure', async () => {
  const attributes = deploymentAttributes(5);
  const warnAudit = binding('b', 'max-replicas', { paramRef: { name: 'limits', namespace: 'ns' }, validationActions: ['Warn', 'Audit'] });
  assert.equal(await run([maxReplicas], [warnAudit], attributes, dispatchDeps([limits])), undefined);
  assert.deepEqual(attributes.warnings, ["Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'b': too many replicas"]);
  assert.deepEqual(JSON.parse(attributes.annotations.get('validation.policy.admission.k8s.io/validation_failure') ?? 'null'), [{ message: 'too many replicas', policy: 'max-replicas', binding: 'b', expressionIndex: 0, validationActions: ['Warn', 'Audit'] }]);
});

test('a missing param: Deny refuses as a binding configuration error, Allow admits', async () => {
  const err = await run([maxReplicas], [withParam], deploymentAttributes(1), dispatchDeps([]));
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 422);
  assert.match(err.message, /ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/);
  const allow = binding('b', 'max-replicas', { paramRef: { name: 'limits', namespace: 'ns', parameterNotFoundAction: 'Allow' } });
  assert.equal(await run([maxReplicas], [allow], deploymentAttributes(100), dispatchDeps([])), undefined);
  // Under failurePolicy Ignore a configuration error admits.
  const ignoring = policy('max-replicas', { ...(maxReplicas.spec as object), failurePolicy: 'Ignore' });
  assert.equal(await run([ignoring], [withParam], deploymentAttributes(1), dispatchDeps([])), undefined);
});

test('params by selector: every selected param is evaluated; the request namespace is the default', async () => {
  const selecting = binding('b', 'max-replicas', { paramRef: { selector: { matchLabels: { kind: 'limit' } }, parameterNotFoundAction: 'Deny' } });
  const params = [configMap('a', 'ns', { maxReplicas: '10' }, { kind: 'limit' }), configMap('b', 'ns', { maxReplicas: '2' }, { kind: 'limit' }), configMap('c', 'other', { maxReplicas: '0' }, { kind: 'limit' })];
  const err = await run([maxReplicas], [selecting], deploymentAttributes(5), dispatchDeps(params));
  assert.ok(err instanceof StatusError && /too many replicas/.test(err.message), String(err));
  assert.equal(await run([maxReplicas], [selecting], deploymentAttributes(2), dispatchDeps(params)), undefined);
});

test('an evaluation error denies under failurePolicy Fail and admits under Ignore', async () => {
  const erroring = (failurePolicy: string) => policy('p', { failurePolicy, validations: [{ expression: 'object.spec.missing.field == 1' }] });
  const err = await run([erroring('Fail')], [binding('b', 'p')], deploymentAttributes(1), dispatchDeps([]));
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 422);
  assert.match(err.message, /ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object\.spec\.missing\.field == 1' resulted in error: /);
  assert.equal(await run([erroring('Ignore')], [binding('b', 'p')], deploymentAttributes(1), dispatchDeps([])), undefined);
});

test('reason picks the code; messageExpression, then message, then the expression make the message', async () => {
  const forbidden = policy('p', { validations: [{ expression: 'false', reason: 'Forbidden', messageExpression: '"replicas: " + string(object.spec.replicas)', message: 'fallback' }] });
  const err = await run([forbidden], [binding('b', 'p')], deploymentAttributes(4), dispatchDeps([]));
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 403);
  assert.equal(err.reason, 'Forbidden');
  assert.match(err.message, /denied request: replicas: 4$/);
  const tooLarge = policy('p', { validations: [{ expression: ' 1 == 2 ', reason: 'RequestEntityTooLarge', messageExpression: '42' }] });
  const big = await run([tooLarge], [binding('b', 'p')], deploymentAttributes(4), dispatchDeps([]));
  assert.ok(big instanceof StatusError);
  assert.equal(big.code, 413);
  assert.match(big.message, /denied request: failed expression: 1 == 2$/);
});

test('matchConditions: a false condition skips the policy; variables are evaluated when named', async () => {
  const conditional = policy('p', {
    matchConditions: [{ name: 'only-prod', expression: 'namespaceObject.metadata.labels.env == "prod"' }, { name: 'not-alice', expression: 'request.userInfo.username != "alice"' }],
    variables: [{ name: 'replicas', expression: 'object.spec.replicas' }, { name: 'broken', expression: 'object.nope.nope' }],
    validations: [{ expression: 'variables.replicas < 3' }],
  });
  assert.equal(await run([conditional], [binding('b', 'p')], deploymentAttributes(5), dispatchDeps([])), undefined);
  const bob = deploymentAttributes(5, { userInfo: { username: 'bob', uid: '', groups: [], extra: {} } });
  const err = await run([conditional], [binding('b', 'p')], bob, dispatchDeps([]));
  assert.ok(err instanceof StatusError);
  assert.match(err.message, /denied request: failed expression: variables\.replicas < 3$/);
});

test('auditAnnotations publish as <policy>/<key>; a binding\'s matchResources narrows it', async () => {
  const annotated = policy('p', { auditAnnotations: [{ key: 'replicas', valueExpression: '"replicas=" + string(object.spec.replicas)' }, { key: 'none', valueExpression: 'null' }] });
  const attributes = deploymentAttributes(2);
  assert.equal(await run([annotated], [binding('b', 'p')], attributes, dispatchDeps([])), undefined);
  assert.equal(attributes.annotations.get('p/replicas'), 'replicas=2');
  assert.equal(attributes.annotations.has('p/none'), false);
  const never = policy('q', { validations: [{ expression: 'false' }] });
  const narrowed = binding('b', 'q', { matchResources: { namespaceSelector: { matchLabels: { env: 'dev' } } } });
  assert.equal(await run([never], [narrowed], deploymentAttributes(2), dispatchDeps([])), undefined);
  const matching = binding('b', 'q', { matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } } } });
  assert.ok((await run([never], [matching], deploymentAttributes(2), dispatchDeps([]))) instanceof StatusError);
});

test('a paramKind nothing serves is a policy configuration error; a policy without bindings denies nothing else', async () => {
  const unknown = policy('p', { paramKind: { apiVersion: 'example.com/v1', kind: 'Nope' }, validations: [{ expression: 'true' }] });
  const err = await run([unknown], [], deploymentAttributes(1), dispatchDeps([]));
  assert.ok(err instanceof StatusError);
  assert.match(err.message, /ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example\.com\/v1, Kind=Nope'$/);
  assert.equal(await run([policy('q', { validations: [{ expression: 'false' }] })], [], deploymentAttributes(1), dispatchDeps([])), undefined);
});

test('the authorizer variable asks orch\'s authorizer for the request\'s user', async () => {
  const checking = policy('p', { validations: [{ expression: 'authorizer.group("apps").resource("deployments").namespace("ns").check("delete").allowed()', message: 'needs delete' }] });
  const denied = await run([checking], [binding('b', 'p')], deploymentAttributes(1), dispatchDeps([], testAuthorizer()));
  assert.ok(denied instanceof StatusError && /needs delete/.test(denied.message), String(denied));
  assert.equal(await run([checking], [binding('b', 'p')], deploymentAttributes(1), dispatchDeps([], testAuthorizer((verb) => verb === 'delete'))), undefined);
  const own = policy('p', { validations: [{ expression: 'authorizer.requestResource.check("update").allowed()' }] });
  assert.equal(await run([own], [binding('b', 'p')], deploymentAttributes(1), dispatchDeps([], testAuthorizer((verb, resource) => verb === 'update' && resource === 'deployments'))), undefined);
});
