// Kubernetes' authorizer library over an asynchronous authorizer: the documented builder
// chains and their errors, the attributes each check asks, and the pass protocol (a missing
// decision is recorded as pending, fetched, and the expression evaluated again).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, isCelError, type CelValue } from '@bufbuild/cel';
import {
  authorizerValue,
  DecisionCache,
  fillDecisions,
  isPendingAuthorization,
  kubernetesLibraries,
  pendingAuthorizations,
  type AuthorizationCheck,
  type CelAuthorizer,
  type RequestResource,
} from '../../../internal/cel/library/index.ts';

/** An authorizer that allows what `allow` says, and records what it was asked. */
function fakeAuthorizer(allow: (attrs: AuthorizationCheck) => boolean): CelAuthorizer & { asked: AuthorizationCheck[] } {
  const asked: AuthorizationCheck[] = [];
  return {
    asked,
    async check(attrs) {
      asked.push(attrs);
      if (attrs.verb === 'explode') throw new Error('webhook unreachable');
      return allow(attrs) ? { allowed: true, reason: 'allowed by test' } : { allowed: false, reason: 'denied by test' };
    },
  };
}

/** Evaluates in passes, as the engine does; returns the result and the number of passes. */
async function evaluate(expression: string, authorizer: CelAuthorizer, requestResource?: RequestResource): Promise<{ value: CelValue | Error; passes: number }> {
  const cache = new DecisionCache();
  for (let passes = 1; passes <= 8; passes++) {
    const value = run(expression, { authorizer: authorizerValue(cache, requestResource) }, { funcs: [...kubernetesLibraries] });
    if (pendingAuthorizations(cache).length === 0) return { value, passes };
    await fillDecisions(cache, authorizer);
  }
  throw new Error('too many passes');
}

const podsInDefault = (a: AuthorizationCheck) => a.resource === 'pods' && a.namespace === 'default' && a.verb === 'create';

test('authorizer library: documented checks give the authorizer\'s decision', async () => {
  const authorizer = fakeAuthorizer((a) => podsInDefault(a) || a.path === '/healthz');
  const documented: readonly (readonly [string, unknown])[] = [
    ["authorizer.group('').resource('pods').namespace('default').check('create').allowed()", true],
    ["authorizer.path('/healthz').check('get').allowed()", true],
    ["authorizer.path('/healthz').check('GET').reason()", 'allowed by test'],
    ["authorizer.group('apps').resource('deployments').namespace('test').name('backend').check('delete').allowed()", false],
    ["authorizer.group('').resource('pods').namespace('default').check('create').errored()", false],
    ["authorizer.group('').resource('pods').namespace('default').check('create').error()", ''],
  ];
  for (const [expression, expected] of documented) {
    assert.deepEqual((await evaluate(expression, authorizer)).value, expected, expression);
  }
});

test('authorizer library: builders set the attributes kube sets', async () => {
  const authorizer = fakeAuthorizer(() => true);
  await evaluate("authorizer.group('apps').resource('deployments').subresource('scale').namespace('test').name('backend').check('update').allowed()", authorizer);
  await evaluate("authorizer.group('example.com').resource('widgets').subresource('').namespace('').check('list').allowed()", authorizer);
  await evaluate("authorizer.path('/metrics').check('get').allowed()", authorizer);
  await evaluate("authorizer.serviceAccount('default', 'builder').group('').resource('pods').check('get').allowed()", authorizer);
  assert.deepEqual(authorizer.asked, [
    { verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'test', name: 'backend' },
    { verb: 'list', group: 'example.com', resource: 'widgets', subresource: '', namespace: '', name: '' },
    { verb: 'get', group: '', resource: '', subresource: '', namespace: '', name: '', path: '/metrics' },
    { verb: 'get', group: '', resource: 'pods', subresource: '', namespace: '', name: '', serviceAccount: { namespace: 'default', name: 'builder' } },
  ]);
});

test('authorizer library: documented builder errors', async () => {
  const authorizer = fakeAuthorizer(() => true);
  for (const [expression, message] of [
    ["authorizer.path('')", 'path must not be empty'],
    ["authorizer.path('  ')", 'path must not be empty'],
    ["authorizer.group('apps').resource('')", 'resource must not be empty'],
    ["authorizer.group('apps').resource('  ')", 'resource must not be empty'],
    ["authorizer.serviceAccount('not@a#valid!namespace', 'validname')", 'Invalid service account namespace'],
    ["authorizer.serviceAccount('valid.example.com', 'invalid@*name')", 'Invalid service account name'],
  ] as const) {
    const { value } = await evaluate(expression, authorizer);
    assert.ok(isCelError(value), expression);
    assert.equal(value.message, message, expression);
  }
  // A namespace must be a DNS label: a dotted name is a valid account name but not a namespace.
  assert.equal((await evaluate("authorizer.serviceAccount('default', 'my.account') != null", authorizer)).value, true);
});

test('authorizer library: a missing decision is pending, then fetched, then used', async () => {
  const authorizer = fakeAuthorizer(podsInDefault);
  const cache = new DecisionCache();
  const expression = "authorizer.group('').resource('pods').namespace('default').check('create').allowed()";
  const first = run(expression, { authorizer: authorizerValue(cache) }, { funcs: [...kubernetesLibraries] });
  assert.ok(isCelError(first) && isPendingAuthorization(first));
  assert.equal(pendingAuthorizations(cache).length, 1);
  await fillDecisions(cache, authorizer);
  assert.deepEqual(pendingAuthorizations(cache), []);
  assert.equal(run(expression, { authorizer: authorizerValue(cache) }, { funcs: [...kubernetesLibraries] }), true);
  assert.equal(authorizer.asked.length, 1);
});

test('authorizer library: independent checks are fetched in one pass, dependent ones in turn', async () => {
  const pods = "authorizer.group('').resource('pods').check('get').allowed()";
  const secrets = "authorizer.group('').resource('secrets').check('get').allowed()";
  // && and || evaluate both sides (CEL's commutative logic), so both checks go out together.
  const parallel = fakeAuthorizer((a) => a.resource === 'pods');
  const both = await evaluate(`${pods} && ${secrets} || ${pods}`, parallel);
  assert.deepEqual([both.value, both.passes, parallel.asked.length], [true, 2, 2]);
  // A conditional asks its branch only once the condition is known.
  const serial = fakeAuthorizer((a) => a.resource === 'pods');
  const chained = await evaluate(`${pods} ? ${secrets} : true`, serial);
  assert.deepEqual([chained.value, chained.passes, serial.asked.length], [false, 3, 2]);
});

test('authorizer library: an authorizer failure is a denied decision that errored', async () => {
  const authorizer = fakeAuthorizer(() => true);
  const base = "authorizer.group('').resource('pods').check('explode')";
  assert.equal((await evaluate(`${base}.allowed()`, authorizer)).value, false);
  assert.equal((await evaluate(`${base}.errored()`, authorizer)).value, true);
  assert.equal((await evaluate(`${base}.error()`, authorizer)).value, 'webhook unreachable');
});

test('authorizer library: authorizer.requestResource checks the request\'s own resource', async () => {
  const authorizer = fakeAuthorizer((a) => a.resource === 'deployments' && a.subresource === 'scale' && a.verb === 'update');
  const request = { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'prod', name: 'web' };
  assert.equal((await evaluate("authorizer.requestResource.check('update').allowed()", authorizer, request)).value, true);
  assert.equal((await evaluate("authorizer.requestResource.subresource('').check('update').allowed()", authorizer, request)).value, false);
  assert.deepEqual(authorizer.asked[0], { verb: 'update', ...request });
});

test('authorizer library: a pending check is recognisable even after CEL merges errors', () => {
  const cache = new DecisionCache();
  const expression = "authorizer.group('').resource('pods').check('get').allowed() && authorizer.path('/x').check('get').allowed()";
  const result = run(expression, { authorizer: authorizerValue(cache) }, { funcs: [...kubernetesLibraries] });
  assert.ok(isCelError(result) && isPendingAuthorization(result));
  assert.equal(pendingAuthorizations(cache).length, 2);
  assert.equal(isPendingAuthorization(new Error('something else')), false);
});
