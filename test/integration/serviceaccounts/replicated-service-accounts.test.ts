// Service accounts across a 3-replica Raft cluster (in process): the controllers run on the leader
// and keep `default` and kube-root-ca.crt in every namespace; a token minted through one replica is
// accepted by another's authenticator, and refused there once its ServiceAccount is deleted
// through a third (even though the controller recreates one of the same name at once).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildAuthenticator, type Authentication } from '../../../internal/authn/index.ts';
import { ControllerManager } from '../../../internal/controllers/manager.ts';
import { createServiceAccountController } from '../../../internal/controllers/serviceaccounts/default-service-account.ts';
import { createRootCaPublisher } from '../../../internal/controllers/serviceaccounts/root-ca-publisher.ts';
import { storeObjectGetter } from '../../../internal/replica/service-account-objects.ts';
import { serviceNetwork } from '../../../internal/registry/core/service/network.ts';
import { hasStatus } from '../../../internal/registry/errors/status-error.ts';
import type { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor, type ServedResource } from '../../../internal/registry/resource-registry.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import { RaftStorageCluster } from '../storage/raft-storage-cluster.ts';
import { eventually } from '../../unit/controllers/garbage-collector-fixture.ts';
import { tokenOptions, writeKeyFiles } from '../../unit/registry/serviceaccount/token-fixture.ts';

const bundle = '-----BEGIN CERTIFICATE-----\nMIIBcluster\n-----END CERTIFICATE-----\n';

interface ReplicaApi {
  readonly authentication: Authentication;
  store(plural: string): GenericStore;
  find(plural: string, namespace: string, name: string): Promise<KObject | undefined>;
}

test('default ServiceAccount, kube-root-ca.crt and bound tokens agree across replicas', { timeout: 120_000 }, async (t) => {
  const cluster = await RaftStorageCluster.start();
  t.after(() => cluster.close());
  const keys = writeKeyFiles(t);
  const registry = new ResourceRegistry('k8s.io');
  const replicas: ReplicaApi[] = [];
  for (const replica of cluster.replicas) {
    const stores = new Map<ServedResource, GenericStore>();
    const store = (plural: string): GenericStore => [...stores.values()].find((s) => s.served.group === '' && s.decl.plural === plural)!;
    const authentication = await buildAuthenticator(tokenOptions(keys), { serviceAccountGetter: storeObjectGetter(() => ({ registry, stores })) });
    for (const r of registry.resources) stores.set(r, storeFor(replica!.storage, r, { serviceNetwork: serviceNetwork(), log: () => undefined, serviceAccountTokens: authentication }));
    const deps = { registry, stores, log: () => undefined };
    const manager = new ControllerManager({
      controllers: [createServiceAccountController(deps, { resyncIntervalMs: 200 }), createRootCaPublisher(deps, { rootCaBundle: bundle, resyncIntervalMs: 200 })],
      isLeader: () => replica!.node.isLeader(),
      log: () => undefined,
      pollIntervalMs: 50,
    });
    manager.start();
    t.after(() => manager.stop());
    const find = async (plural: string, namespace: string, name: string) => {
      try {
        return await store(plural).get(namespace, name);
      } catch (err) {
        if (hasStatus(err, 404)) return undefined;
        throw err;
      }
    };
    replicas.push({ authentication, store, find });
  }
  const [a, b, c] = replicas as [ReplicaApi, ReplicaApi, ReplicaApi];
  await a.store('namespaces').create(undefined, { metadata: { name: 'team' } }, { fieldManager: 'test' });
  await eventually('default ServiceAccount and kube-root-ca.crt, read through another replica', async () => (await b.find('serviceaccounts', 'team', 'default')) !== undefined && (await c.find('configmaps', 'team', 'kube-root-ca.crt')) !== undefined, 30_000);
  assert.deepEqual((await b.find('configmaps', 'team', 'kube-root-ca.crt'))?.data, { 'ca.crt': bundle });

  const call = { namespace: 'team', name: 'default', path: '', query: new URLSearchParams(), dryRun: false, fieldManager: 'test' };
  const reply = await a.store('serviceaccounts').subresources['token']!.create!(call, { metadata: {}, spec: {} });
  const token = (reply.object as { status: { token: string } }).status.token;
  const accepted = await b.authentication.tokenAuthenticator!.authenticateToken(token);
  assert.ok(accepted.kind === 'authenticated', JSON.stringify(accepted));
  assert.equal(accepted.user.username, 'system:serviceaccount:team:default');

  const first = (await c.find('serviceaccounts', 'team', 'default'))!;
  await c.store('serviceaccounts').delete('team', 'default', {});
  // Another replica reads its local copy first (as kube's getter its informer cache): it follows within moments.
  await eventually('refused once deleted', async () => (await b.authentication.tokenAuthenticator!.authenticateToken(token)).kind === 'failed', 10_000);
  await eventually('the controller recreates default', async () => {
    const again = await b.find('serviceaccounts', 'team', 'default');
    return again !== undefined && again.metadata.uid !== first.metadata.uid;
  }, 30_000);
  await eventually('a new ServiceAccount of the same name does not revive the token', async () => (await a.authentication.tokenAuthenticator!.authenticateToken(token)).kind === 'failed', 10_000);
  assert.equal((await b.authentication.tokenAuthenticator!.authenticateToken(token)).kind, 'failed');

  const cm = (await a.find('configmaps', 'team', 'kube-root-ca.crt'))!;
  await b.store('configmaps').update('team', 'kube-root-ca.crt', { ...cm, data: { 'ca.crt': 'edited' } }, { fieldManager: 'someone' });
  await eventually('the bundle restored', async () => ((await c.find('configmaps', 'team', 'kube-root-ca.crt'))?.data as Record<string, string> | undefined)?.['ca.crt'] === bundle, 30_000);
});
