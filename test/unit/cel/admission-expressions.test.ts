// ValidatingAdmissionPolicy and matchConditions expressions over schemaless variables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileAdmissionExpression } from '../../../internal/cel/admission-expressions.ts';

const vars = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'authorizer', 'variables'];

async function evaluate(expression: string, activation: Record<string, unknown>, costLimit?: number): Promise<unknown> {
  const { compiled, error } = compileAdmissionExpression(expression, vars);
  assert.ok(compiled, error);
  const outcome = await compiled.evaluate(activation, costLimit === undefined ? undefined : { costLimit });
  return 'error' in outcome ? { error: outcome.error } : outcome.value;
}

const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns', labels: { app: 'x' } }, spec: { replicas: 3, ratio: 0.5 } };

test('JSON integers are int, other numbers double, objects maps', async () => {
  assert.equal(await evaluate('type(object.spec.replicas) == int && type(object.spec.ratio) == double', { object: deployment }), true);
  assert.equal(await evaluate("object.metadata.labels['app'] == 'x' && 'app' in object.metadata.labels", { object: deployment }), true);
  assert.equal(await evaluate('object.spec.replicas * 2', { object: deployment }), 6);
  assert.deepEqual(await evaluate('object.metadata.labels', { object: deployment }), { app: 'x' });
});

test('params and oldObject may be null', async () => {
  assert.equal(await evaluate('params == null && oldObject == null', { object: deployment, params: null }), true);
});

test('variables are reached as variables.<name>', async () => {
  assert.equal(await evaluate('variables.limit > object.spec.replicas', { object: deployment, variables: { limit: 5 } }), true);
});

test('a compile error comes back as text', () => {
  assert.match(compileAdmissionExpression('object.spec.', vars).error ?? '', /^compilation failed: ERROR: <input>:1:/);
  assert.match(compileAdmissionExpression('nope.x', vars).error ?? '', /undeclared reference to 'nope'/);
});

test('a runtime error and a cost overrun come back as errors with their cost', async () => {
  assert.deepEqual(await evaluate('object.spec.missing > 1', { object: deployment }), { error: 'no such key: missing' });
  assert.deepEqual(await evaluate('[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, a + b > 0))', {}, 50), { error: 'operation cancelled: actual cost limit exceeded' });
});

test('authorizer checks are asked of the async authorizer, cached, and the expression re-evaluated', async () => {
  const asked: string[] = [];
  const authorizer = {
    async check(attrs: { verb: string; group: string; resource: string; namespace: string; name: string; path?: string }): Promise<{ allowed: boolean; reason: string }> {
      asked.push(`${attrs.verb} ${attrs.group}/${attrs.resource} ${attrs.namespace}/${attrs.name}${attrs.path ?? ''}`);
      await new Promise((resolve) => setImmediate(resolve));
      return { allowed: attrs.verb !== 'delete', reason: `decided ${attrs.verb}` };
    },
  };
  const expression = "authorizer.group('apps').resource('deployments').namespace('ns').check('get').allowed() && !authorizer.group('apps').resource('deployments').namespace('ns').check('delete').allowed()";
  const { compiled } = compileAdmissionExpression(expression, vars);
  assert.ok(compiled);
  const outcome = await compiled.evaluate({ object: deployment, authorizer, request: {} });
  assert.deepEqual(outcome, { value: true, cost: outcome.cost });
  assert.deepEqual(asked.sort(), ['delete apps/deployments ns/', 'get apps/deployments ns/']);
  assert.ok(outcome.cost >= 2 * 350_000 && outcome.cost < 1_000_000);
  const path = await evaluate("authorizer.path('/healthz').check('get').reason()", { authorizer });
  assert.equal(path, 'decided get');
  assert.equal(asked.at(-1), 'get / //healthz');
});

test('a check costs enough that only two fit in one expression (kube\'s authorizer library cost)', async () => {
  const authorizer = { async check() { return { allowed: true, reason: '' }; } };
  const three = "authorizer.path('/a').check('get').allowed() && authorizer.path('/b').check('get').allowed() && authorizer.path('/c').check('get').allowed()";
  assert.deepEqual(await evaluate(three, { authorizer }), { error: 'operation cancelled: actual cost limit exceeded' });
});

test('authorizer.requestResource checks the request\'s own resource', async () => {
  const seen: unknown[] = [];
  const authorizer = { async check(attrs: unknown) { seen.push(attrs); return { allowed: true, reason: '' }; } };
  const request = { resource: { group: 'apps', version: 'v1', resource: 'deployments' }, subResource: 'scale', namespace: 'ns', name: 'd' };
  assert.equal(await evaluate("authorizer.requestResource.check('update').allowed()", { authorizer, request }), true);
  assert.deepEqual(seen, [{ verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'd' }]);
});
