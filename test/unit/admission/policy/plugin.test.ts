// The plugin around the dispatcher: policies compiled once per generation, requests for the policy
// kinds never evaluated, and a server serving neither version evaluating nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PolicySource } from '../../../../internal/admission/policy/policy-source.ts';
import { validatingAdmissionPolicyPlugin } from '../../../../internal/admission/policy/validating-admission-policy-plugin.ts';
import { noEquivalentResources } from '../../../../internal/admission/webhook/equivalents.ts';
import { memoryObjects, podAttributes, testDeps } from '../webhook/fixtures.ts';
import { binding, deploymentAttributes, policy, registry } from './fixtures.ts';

test('a policy is compiled again only when its generation changes; bindings are grouped under their policy', () => {
  const source = new PolicySource();
  assert.equal(source.hasSynced(), false);
  const p = policy('p', { validations: [{ expression: 'true' }] });
  source.replacePolicies([p, policy('a', { validations: [{ expression: 'true' }] })]);
  source.replaceBindings([binding('z', 'p'), binding('y', 'p'), binding('x', 'a')]);
  assert.equal(source.hasSynced(), true);
  const first = source.snapshot();
  assert.deepEqual(first.map((e) => [e.policy.name, e.bindings.map((b) => b.name)]), [['a', ['x']], ['p', ['y', 'z']]]);
  source.replacePolicies([p, policy('a', { validations: [{ expression: 'true' }] })]);
  assert.equal(source.snapshot()[1]?.policy, first[1]?.policy);
  source.replacePolicies([{ ...p, metadata: { ...p.metadata, generation: 2 } }]);
  assert.notEqual(source.snapshot()[0]?.policy, first[1]?.policy);
  assert.equal(source.snapshot().length, 1);
});

test('an expression that does not compile is kept as its error, not thrown', () => {
  const source = new PolicySource();
  source.replacePolicies([policy('p', { validations: [{ expression: 'object.spec.replicas <' }] })]);
  const [validation] = source.snapshot()[0]?.policy.validations ?? [];
  assert.match(validation?.slot.error ?? '', /^compilation failed: ERROR: <input>:1:/);
});

test('with neither version served the plugin is synced at once and admits; the policy kinds themselves are never evaluated', async () => {
  const registration = validatingAdmissionPolicyPlugin({ registry, stores: new Map(), equivalents: noEquivalentResources, log: () => undefined });
  const plugin = registration.factory(testDeps(memoryObjects([])), undefined);
  const own = podAttributes({ resource: { group: 'admissionregistration.k8s.io', version: 'v1beta1', resource: 'validatingadmissionpolicies' }, namespace: '', name: 'p' });
  await plugin.validate?.(own);
  await registration.run(new AbortController().signal);
  await plugin.validate?.(deploymentAttributes(100));
});
