// Controllers act as their own service accounts (kube-controller-manager with
// --use-service-account-credentials): what the bootstrap role system:controller:<name> grants
// goes through, anything else is kube's 403, and writes carry the controller's identity.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bootstrapRbacStores } from './bootstrap-rbac-fixture.ts';
import { authorizedStore, authorizeWatch, controllerUser } from '../../../internal/controllers/controller-identity.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import type { GenericStore, WriteOptions } from '../../../internal/registry/generic/store.ts';


test('a controller may do what its bootstrap role grants, lists and watches as kube-controller-manager\'s informers, and gets kube\'s 403 for the rest', async (t) => {
  const { storage, authorizer, store } = await bootstrapRbacStores();
  t.after(() => storage.close());
  const user = controllerUser('service-account-controller');
  const accounts = authorizedStore(store('', 'serviceaccounts'), authorizer, user);
  await accounts.create('default', { metadata: { name: 'made-by-controller' } }, { fieldManager: 'test' });
  await authorizeWatch(accounts, undefined);
  const secrets = authorizedStore(store('', 'secrets'), authorizer, user);
  await secrets.list('default', {});
  await assert.rejects(secrets.get('default', 'any'), (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 403);
    assert.equal(err.message, 'secrets "any" is forbidden: User "system:serviceaccount:kube-system:service-account-controller" cannot get resource "secrets" in API group "" in the namespace "default"');
    return true;
  });
  const namespaces = authorizedStore(store('', 'namespaces'), authorizer, user);
  await assert.rejects(namespaces.delete(undefined, 'default', {}), /cannot delete resource "namespaces"/);
});

test('a controller\'s writes carry its identity for the stores\' own checks', async (t) => {
  const { storage, authorizer, store } = await bootstrapRbacStores();
  t.after(() => storage.close());
  const seen: WriteOptions[] = [];
  const configMaps = store('', 'configmaps');
  const spy = Object.create(configMaps) as GenericStore;
  spy.create = async (namespace, input, opts) => {
    seen.push(opts);
    return configMaps.create(namespace, input, opts);
  };
  const user = controllerUser('root-ca-cert-publisher');
  await authorizedStore(spy, authorizer, user).create('default', { metadata: { name: 'x' } }, { fieldManager: 'test' });
  assert.equal(seen[0]?.user?.username, 'system:serviceaccount:kube-system:root-ca-cert-publisher');
  assert.equal(configMaps.decl.plural, authorizedStore(configMaps, authorizer, user).decl.plural, 'the view is the same store otherwise');
});
