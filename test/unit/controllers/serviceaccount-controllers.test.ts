// kube-controller-manager's serviceaccount controller and root-ca-cert-publisher: the `default`
// ServiceAccount and ConfigMap kube-root-ca.crt in every namespace, kept there.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { createControllers } from '../../../internal/controllers/controllers.ts';
import { createServiceAccountController } from '../../../internal/controllers/serviceaccounts/default-service-account.ts';
import { createRootCaPublisher, rootCaDescription } from '../../../internal/controllers/serviceaccounts/root-ca-publisher.ts';
import { deleteNamespace, namespaceStoresOf } from '../../../internal/registry/core/namespace-deletion.ts';
import { hasStatus } from '../../../internal/registry/errors/status-error.ts';
import type { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import { eventually, settle } from './garbage-collector-fixture.ts';

const bundle = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n';

interface Fixture {
  store(plural: string): GenericStore;
  find(plural: string, namespace: string, name: string): Promise<KObject | undefined>;
  namespace(name: string): Promise<void>;
  terminate(name: string): Promise<void>;
  logs: string[];
}

async function fixture(t: TestContext): Promise<Fixture> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const registry = new ResourceRegistry('k8s.io');
  const stores = new Map(registry.resources.map((r) => [r, storeFor(storage, r)] as const));
  const logs: string[] = [];
  const deps = { registry, stores, log: (message: string) => logs.push(message) };
  const abort = new AbortController();
  const runs = [createServiceAccountController(deps, { resyncIntervalMs: 100 }), createRootCaPublisher(deps, { rootCaBundle: bundle, resyncIntervalMs: 100 })].map((c) => c.run(abort.signal));
  t.after(async () => {
    abort.abort();
    await Promise.all(runs);
    await storage.close();
  });
  const store = (plural: string): GenericStore => [...stores.values()].find((s) => s.served.group === '' && s.decl.plural === plural)!;
  return {
    store,
    logs,
    async find(plural, namespace, name) {
      try {
        return await store(plural).get(namespace, name);
      } catch (err) {
        if (hasStatus(err, 404)) return undefined;
        throw err;
      }
    },
    async namespace(name) {
      await store('namespaces').create(undefined, { metadata: { name } }, { fieldManager: 'test' });
    },
    async terminate(name) {
      // Its spec finalizer keeps it Terminating: no namespace controller runs here.
      await deleteNamespace(namespaceStoresOf(registry, stores)!.namespaces, name, {});
    },
  };
}

test('a new namespace gets the default ServiceAccount, again after it is deleted', async (t) => {
  const f = await fixture(t);
  await f.namespace('team-a');
  await eventually('default ServiceAccount in team-a', async () => (await f.find('serviceaccounts', 'team-a', 'default')) !== undefined);
  const first = await f.find('serviceaccounts', 'team-a', 'default');
  await f.store('serviceaccounts').delete('team-a', 'default', {});
  await eventually('default ServiceAccount back', async () => {
    const again = await f.find('serviceaccounts', 'team-a', 'default');
    return again !== undefined && again.metadata.uid !== first?.metadata.uid;
  });
  assert.deepEqual(f.logs, []);
});

test('a namespace being deleted gets nothing back', async (t) => {
  const f = await fixture(t);
  await f.namespace('leaving');
  await eventually('both objects in leaving', async () => (await f.find('serviceaccounts', 'leaving', 'default')) !== undefined && (await f.find('configmaps', 'leaving', 'kube-root-ca.crt')) !== undefined);
  await f.terminate('leaving');
  await f.store('serviceaccounts').delete('leaving', 'default', {});
  await f.store('configmaps').delete('leaving', 'kube-root-ca.crt', {});
  await settle(500);
  assert.equal(await f.find('serviceaccounts', 'leaving', 'default'), undefined);
  assert.equal(await f.find('configmaps', 'leaving', 'kube-root-ca.crt'), undefined);
});

test('kube-root-ca.crt holds the CA bundle and kube\'s description in every namespace', async (t) => {
  const f = await fixture(t);
  await f.namespace('team-b');
  await eventually('kube-root-ca.crt in team-b', async () => (await f.find('configmaps', 'team-b', 'kube-root-ca.crt')) !== undefined);
  const cm = await f.find('configmaps', 'team-b', 'kube-root-ca.crt');
  assert.deepEqual(cm?.data, { 'ca.crt': bundle });
  assert.deepEqual(cm?.metadata.annotations, { 'kubernetes.io/description': rootCaDescription });
  assert.deepEqual(cm?.metadata.managedFields?.map((m) => (m as { manager: string }).manager), ['kube-controller-manager']);
});

test('kube-root-ca.crt is recreated when deleted, and its data and description restored when edited away', async (t) => {
  const f = await fixture(t);
  await f.namespace('team-c');
  const configMaps = f.store('configmaps');
  const current = async () => f.find('configmaps', 'team-c', 'kube-root-ca.crt');
  await eventually('kube-root-ca.crt in team-c', async () => (await current()) !== undefined);
  const created = (await current())!;
  await configMaps.delete('team-c', 'kube-root-ca.crt', {});
  await eventually('recreated', async () => {
    const again = await current();
    return again !== undefined && again.metadata.uid !== created.metadata.uid;
  });
  const edited = (await current())!;
  await configMaps.update('team-c', 'kube-root-ca.crt', { ...edited, metadata: { ...edited.metadata, labels: { mine: 'yes' }, annotations: {} }, data: { 'ca.crt': 'forged', extra: 'x' } }, { fieldManager: 'someone' });
  await eventually('data and description restored', async () => {
    const now = await current();
    return now?.data !== undefined && JSON.stringify(now.data) === JSON.stringify({ 'ca.crt': bundle }) && now.metadata.annotations?.['kubernetes.io/description'] === rootCaDescription;
  });
  assert.deepEqual((await current())?.metadata.labels, { mine: 'yes' }, 'what the publisher does not own is kept');
});

test('the replica\'s controller list runs the publisher only when given the CA bundle', async () => {
  const registry = new ResourceRegistry('k8s.io');
  const deps = { registry, stores: new Map(), log: () => undefined };
  assert.deepEqual(createControllers(deps).map((c) => c.name).filter((n) => n === 'serviceaccount' || n === 'root-ca-cert-publisher'), ['serviceaccount']);
  assert.deepEqual(createControllers(deps, { rootCaBundle: bundle }).map((c) => c.name).filter((n) => n === 'serviceaccount' || n === 'root-ca-cert-publisher'), ['serviceaccount', 'root-ca-cert-publisher']);
});
