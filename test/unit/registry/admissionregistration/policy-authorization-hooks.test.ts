// Read authorization of a policy's params (kube 1.28's validatingadmissionpolicy and
// validatingadmissionpolicybinding authz.go), through the write hooks with RBAC on: a user who may
// write policies but not read Secrets may neither set paramKind Secret nor bind a Secret as params
// (so a messageExpression cannot print one); one who may read them can; superusers and the
// server's own writes are not checked; an unchanged paramKind is not checked again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UserInfo } from '../../../../internal/authn/user-info.ts';
import { buildAuthorization } from '../../../../internal/authz/authorization-modes.ts';
import type { StoreAuthorization } from '../../../../internal/registry/authorization/store-authorization.ts';
import { goUserText, policyParamAuthorizationHooks, servedResourceOf, storedPolicyOf, type PolicyOf } from '../../../../internal/registry/admissionregistration/policy-authorization-hooks.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { objectKey } from '../../../../internal/registry/generic/keys.ts';
import type { WriteHooks } from '../../../../internal/registry/generic/write-hooks.ts';
import { ResourceRegistry } from '../../../../internal/registry/resource-registry.ts';
import { validatingadmissionpolicies } from '../../../../internal/registry/admissionregistration/validatingadmissionpolicies.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import type { Storage } from '../../../../internal/storage/storage.ts';
import { indexOf, rbac, user } from '../../authz/fixtures.ts';

const group = 'admissionregistration.k8s.io';
const policyWriter = { verbs: ['*'], apiGroups: [group], resources: ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'] };

/** RBAC on: mallory writes policies only; alice also reads Secrets everywhere; bob reads one Secret in `default`. */
function authorization(): StoreAuthorization {
  const index = indexOf([
    rbac.clusterRole('policy-writer', [policyWriter]),
    rbac.clusterRole('secret-reader', [policyWriter, { verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]),
    rbac.role('default', 'one-secret', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['topsecret'] }]),
    rbac.clusterRoleBinding('mallory', 'policy-writer', [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'mallory' }, { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }]),
    rbac.clusterRoleBinding('alice', 'secret-reader', [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }]),
    rbac.roleBinding('default', 'bob', 'Role', 'one-secret', [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }]),
  ]);
  const chain = buildAuthorization({ modes: ['RBAC'], rbacIndex: index, rbacSynced: () => true });
  return { authorizer: chain.authorizer, ruleResolver: chain.ruleResolver, index, rbacGroup: 'rbac.authorization.k8s.io' };
}

const registry = new ResourceRegistry('k8s.io');
const resourceOf = servedResourceOf(registry);

function policy(paramKind?: Record<string, unknown>): KObject {
  return {
    apiVersion: `${group}/v1beta1`, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'leak' },
    spec: { failurePolicy: 'Fail', ...(paramKind === undefined ? {} : { paramKind }), validations: [{ expression: 'false', messageExpression: "'leaked: ' + params.data.password" }] },
  };
}

function binding(paramRef?: Record<string, unknown>, policyName = 'leak'): KObject {
  return { apiVersion: `${group}/v1beta1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'leak' }, spec: { policyName, validationActions: ['Deny'], ...(paramRef === undefined ? {} : { paramRef }) } };
}

const policies: PolicyOf = (name) => Promise.resolve(name === 'leak' ? policy({ apiVersion: 'v1', kind: 'Secret' }) : undefined);

/** What a create as `who` answers: 'ok', or the refusal's code and message. */
async function create(hooks: WriteHooks, obj: KObject, who?: UserInfo): Promise<string> {
  try {
    const finish = await hooks.beginCreate?.(obj, false, who === undefined ? {} : { user: who });
    await finish?.('applied');
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return `${err.code} ${err.message}`;
  }
}

async function update(hooks: WriteHooks, obj: KObject, old: KObject, who: UserInfo): Promise<string> {
  try {
    const finish = await hooks.beginUpdate?.(obj, old, false, { user: who });
    await finish?.('applied');
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return `${err.code} ${err.message}`;
  }
}

test('a policy whose paramKind the user cannot get on all objects is refused with kube\'s 422 at spec.paramKind', async () => {
  const hooks = policyParamAuthorizationHooks('ValidatingAdmissionPolicy', authorization(), { resourceOf });
  const mallory = user('mallory');
  assert.equal(goUserText(mallory), '&{mallory  [system:authenticated] map[]}');
  assert.equal(
    await create(hooks, policy({ apiVersion: 'v1', kind: 'Secret' }), mallory),
    '422 ValidatingAdmissionPolicy.admissionregistration.k8s.io "leak" is invalid: spec.paramKind: Forbidden: user &{mallory  [system:authenticated] map[]} must have "get" permission on all objects of the referenced paramKind (kind=Secret, apiVersion=v1)',
  );
  // One Secret by name is not all of them.
  assert.match(await create(hooks, policy({ apiVersion: 'v1', kind: 'Secret' }), user('bob')), /^422 .*spec\.paramKind: Forbidden: user &\{bob /);
  // An unknown kind needs get on every resource of its group version.
  assert.match(await create(hooks, policy({ apiVersion: 'example.com/v1', kind: 'Nothing' }), user('alice')), /^422 .*kind=Nothing, apiVersion=example.com\/v1\)$/);
});

test('a policy whose paramKind the user can get is admitted; without paramKind, for superusers and for the server nothing is checked', async () => {
  const hooks = policyParamAuthorizationHooks('ValidatingAdmissionPolicy', authorization(), { resourceOf });
  assert.equal(await create(hooks, policy({ apiVersion: 'v1', kind: 'Secret' }), user('alice')), 'ok');
  assert.equal(await create(hooks, policy(), user('mallory')), 'ok');
  assert.equal(await create(hooks, policy({ apiVersion: 'v1', kind: 'Secret' }), user('root', ['system:masters'])), 'ok');
  assert.equal(await create(hooks, policy({ apiVersion: 'v1', kind: 'Secret' })), 'ok');
});

test('a policy update is checked only when the paramKind is set and changed', async () => {
  const hooks = policyParamAuthorizationHooks('ValidatingAdmissionPolicy', authorization(), { resourceOf });
  const stored = policy({ apiVersion: 'v1', kind: 'Secret' });
  const mallory = user('mallory');
  assert.equal(await update(hooks, policy({ apiVersion: 'v1', kind: 'Secret' }), stored, mallory), 'ok');
  assert.equal(await update(hooks, policy(), stored, mallory), 'ok');
  assert.match(await update(hooks, policy({ apiVersion: 'v1', kind: 'Secret' }), policy(), mallory), /^422 .*spec\.paramKind: Forbidden/);
  assert.match(await update(hooks, policy({ apiVersion: 'v1', kind: 'Secret' }), policy({ apiVersion: 'v1', kind: 'ConfigMap' }), mallory), /^422 .*spec\.paramKind: Forbidden/);
});

test('a binding whose paramRef object the user cannot get is refused with kube\'s 422 at spec.paramRef', async () => {
  const hooks = policyParamAuthorizationHooks('ValidatingAdmissionPolicyBinding', authorization(), { resourceOf, policyOf: policies });
  assert.equal(
    await create(hooks, binding({ name: 'topsecret', namespace: 'default', parameterNotFoundAction: 'Deny' }), user('mallory')),
    '422 ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "leak" is invalid: spec.paramRef: Forbidden: user &{mallory  [system:authenticated] map[]} does not have "get" permission on the object referenced by paramRef',
  );
  // bob may get that one Secret by name, not another, nor all in the namespace (a selector).
  assert.match(await create(hooks, binding({ name: 'other', namespace: 'default', parameterNotFoundAction: 'Deny' }), user('bob')), /^422 .*spec\.paramRef: Forbidden/);
  assert.match(await create(hooks, binding({ selector: {}, namespace: 'default', parameterNotFoundAction: 'Deny' }), user('bob')), /^422 .*spec\.paramRef: Forbidden/);
  // A policy not found: every resource must be readable.
  assert.match(await create(hooks, binding({ name: 'topsecret', namespace: 'default', parameterNotFoundAction: 'Deny' }, 'missing'), user('alice')), /^422 .*spec\.paramRef: Forbidden/);
});

test('a binding whose paramRef object the user can get is admitted; without paramRef nothing is checked', async () => {
  const hooks = policyParamAuthorizationHooks('ValidatingAdmissionPolicyBinding', authorization(), { resourceOf, policyOf: policies });
  assert.equal(await create(hooks, binding({ name: 'topsecret', namespace: 'default', parameterNotFoundAction: 'Deny' }), user('bob')), 'ok');
  assert.equal(await create(hooks, binding({ selector: {}, namespace: 'default', parameterNotFoundAction: 'Deny' }), user('alice')), 'ok');
  assert.equal(await create(hooks, binding(), user('mallory')), 'ok');
  // kube compares paramRefs as structs of pointers: a defaulted one is authorized again on every update.
  const stored = binding({ name: 'topsecret', namespace: 'default', parameterNotFoundAction: 'Deny' });
  assert.match(await update(hooks, binding({ name: 'topsecret', namespace: 'default', parameterNotFoundAction: 'Deny' }), stored, user('mallory')), /^422 .*spec\.paramRef: Forbidden/);
});

test('the binding hooks read the bound policy from storage', async () => {
  const stored = new Map([[objectKey(validatingadmissionpolicies, undefined, 'leak'), new TextEncoder().encode(JSON.stringify(policy({ apiVersion: 'v1', kind: 'Secret' })))]]);
  const storage = { get: (key: string) => Promise.resolve(stored.has(key) ? { key, value: stored.get(key), modRevision: 3, createRevision: 3, version: 1 } : null) } as unknown as Storage;
  const found = await storedPolicyOf(storage)('leak');
  assert.deepEqual((found?.spec as { paramKind?: unknown }).paramKind, { apiVersion: 'v1', kind: 'Secret' });
  assert.equal(await storedPolicyOf(storage)('missing'), undefined);
  const hooks = policyParamAuthorizationHooks('ValidatingAdmissionPolicyBinding', authorization(), { resourceOf, policyOf: storedPolicyOf(storage) });
  assert.equal(await create(hooks, binding({ name: 'topsecret', namespace: 'default', parameterNotFoundAction: 'Deny' }), user('bob')), 'ok');
});
