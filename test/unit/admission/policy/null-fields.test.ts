// Null fields and broken objects never break the policy source or the dispatcher: kube decodes a
// JSON null as the field's zero value (absent), a policy that cannot be compiled fails only its own
// bindings by their failurePolicy, and an unexpected exception while evaluating one policy is that
// policy's configuration error (Ignore admits, Fail denies with kube's wording), never a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePolicy } from '../../../../internal/admission/policy/compiled-policy.ts';
import { dispatchPolicies } from '../../../../internal/admission/policy/policy-dispatcher.ts';
import { PolicySource } from '../../../../internal/admission/policy/policy-source.ts';
import type { BindingSpec } from '../../../../internal/admission/policy/policy-types.ts';
import { defaultValidatingAdmissionPolicy } from '../../../../internal/registry/admissionregistration/policy-defaults.ts';
import { validateValidatingAdmissionPolicy } from '../../../../internal/registry/admissionregistration/policy-validation.ts';
import { validateValidatingAdmissionPolicyBinding } from '../../../../internal/registry/admissionregistration/policy-binding-validation.ts';
import { defaultValidatingAdmissionPolicyBinding } from '../../../../internal/registry/admissionregistration/policy-defaults.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { binding, configMap, deploymentAttributes, dispatchDeps, policy, run } from './fixtures.ts';

const denyAll = policy('b-deny-all', { failurePolicy: 'Fail', validations: [{ expression: 'false', message: 'deployments are forbidden' }] });
const nullMessage = policy('a-null-message', { failurePolicy: 'Ignore', validations: [{ expression: 'false', message: 'null messageExpression is absent', messageExpression: null, reason: null }], auditAnnotations: null, matchConditions: null, variables: null });

test('a null messageExpression is an absent one: it is stored without it, compiles, and the policies after it take effect', async () => {
  const stored = structuredClone(nullMessage);
  defaultValidatingAdmissionPolicy(stored);
  assert.deepEqual(validateValidatingAdmissionPolicy(stored), []);
  assert.deepEqual((stored.spec as { validations: unknown }).validations, [{ expression: 'false', message: 'null messageExpression is absent' }]);
  const source = new PolicySource();
  source.replacePolicies([nullMessage, denyAll]);
  assert.deepEqual(source.snapshot().map((p) => p.policy.name), ['a-null-message', 'b-deny-all']);
  const err = await run([nullMessage, denyAll], [binding('a', 'a-null-message'), binding('b', 'b-deny-all')], deploymentAttributes(1), dispatchDeps([]));
  assert.ok(err instanceof StatusError, String(err));
  assert.match(err.message, /ValidatingAdmissionPolicy 'a-null-message' with binding 'a' denied request: null messageExpression is absent$/);
  const denied = await run([nullMessage, denyAll], [binding('b', 'b-deny-all')], deploymentAttributes(1), dispatchDeps([]));
  assert.ok(denied instanceof StatusError && /'b-deny-all' with binding 'b' denied request: deployments are forbidden$/.test(denied.message), String(denied));
});

test('a null valueExpression or expression compiles as an absent one (an error by the failure policy), not a crash', async () => {
  const nullExpressions = policy('a-null-exprs', { failurePolicy: 'Fail', validations: [{ expression: null }], auditAnnotations: [{ key: 'k', valueExpression: null }] });
  const compiled = compilePolicy(nullExpressions);
  assert.equal(compiled.validations[0]?.slot.expression, '');
  assert.equal(compiled.auditAnnotations[0]?.slot.expression, '');
  const err = await run([nullExpressions, denyAll], [binding('a', 'a-null-exprs')], deploymentAttributes(1), dispatchDeps([]));
  assert.ok(err instanceof StatusError && /'a-null-exprs' with binding 'a' denied request: compilation error: /.test(err.message), String(err));
});

test('a policy that throws while compiling fails only its own bindings by their failurePolicy; the others still apply', async () => {
  const poisoned = (failurePolicy: string): KObject => {
    const p = policy('a-poison', { failurePolicy });
    Object.defineProperty(p.spec, 'validations', { enumerable: true, get: () => { throw new TypeError('cannot read this policy'); } });
    return p;
  };
  const source = new PolicySource();
  assert.doesNotThrow(() => source.replacePolicies([poisoned('Fail'), denyAll]));
  assert.equal(source.hasSynced(), false);
  source.replaceBindings([]);
  assert.equal(source.hasSynced(), true);
  const failing = await run([poisoned('Fail')], [binding('a', 'a-poison')], deploymentAttributes(1), dispatchDeps([]));
  assert.ok(failing instanceof StatusError && failing.code === 422 && /'a-poison' with binding 'a' denied request: compilation error: cannot read this policy$/.test(failing.message), String(failing));
  assert.equal(await run([poisoned('Ignore')], [binding('a', 'a-poison')], deploymentAttributes(1), dispatchDeps([])), undefined);
  const other = await run([poisoned('Ignore'), denyAll], [binding('a', 'a-poison'), binding('b', 'b-deny-all')], deploymentAttributes(1), dispatchDeps([]));
  assert.ok(other instanceof StatusError && /'b-deny-all'/.test(other.message), String(other));
});

test('a binding with paramRef null or matchResources null is one without them: evaluated with params null, matching everything', async () => {
  const nullBinding = binding('b', 'needs-params', { paramRef: null, matchResources: null });
  const stored = structuredClone(nullBinding);
  defaultValidatingAdmissionPolicyBinding(stored);
  assert.deepEqual(validateValidatingAdmissionPolicyBinding(stored), []);
  assert.deepEqual(stored.spec, { policyName: 'needs-params', validationActions: ['Deny'] });
  for (const failurePolicy of ['Ignore', 'Fail']) {
    const needsParams = policy('needs-params', { failurePolicy, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'params != null', message: 'no params' }] });
    const err = await run([needsParams], [nullBinding], deploymentAttributes(1), dispatchDeps([configMap('p', 'ns', { k: 'v' })]));
    assert.ok(err instanceof StatusError && err.code === 422, `${failurePolicy}: ${String(err)}`);
    assert.match(err.message, /'needs-params' with binding 'b' denied request: no params$/);
  }
});

test('an unexpected exception while dispatching a policy goes by its failurePolicy: Ignore admits, Fail denies, never a 500', async () => {
  const throwing = <T extends object>(base: T, field: string): T => Object.defineProperty({ ...base }, field, { enumerable: true, get: () => { throw new TypeError('boom'); } });
  for (const failurePolicy of ['Ignore', 'Fail']) {
    const stored = policy('p', { failurePolicy, validations: [{ expression: 'true' }] });
    defaultValidatingAdmissionPolicy(stored);
    const compiled = compilePolicy(stored);
    const badBinding = { name: 'b', spec: throwing<BindingSpec>({ policyName: 'p', validationActions: ['Deny'] }, 'matchResources') };
    const badPolicy = { ...compiled, spec: throwing(compiled.spec, 'matchConstraints') };
    for (const [entry, wording] of [
      [{ policy: compiled, bindings: [badBinding] }, "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: boom"],
      [{ policy: badPolicy, bindings: [] }, "ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: boom"],
    ] as const) {
      let err: unknown;
      try {
        await dispatchPolicies([entry], deploymentAttributes(1), dispatchDeps([]));
      } catch (caught) {
        err = caught;
      }
      if (failurePolicy === 'Ignore') assert.equal(err, undefined);
      else {
        assert.ok(err instanceof StatusError && err.code === 422, String(err));
        assert.equal(err.message, `deployments.apps "web" is forbidden: ${wording}`);
      }
    }
  }
});
