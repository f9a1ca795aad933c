// kube's bootstrapsigner: cluster-info in kube-public and orch-public carries one jws-kubeconfig-<id>
// per signing token of kube-system and orch-system, and nothing else of that prefix; it is written
// only when an entry changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createBootstrapSigner, signedClusterInfoData, signingTokens } from '../../../../internal/controllers/bootstrap/bootstrap-signer.ts';
import { eventually, settle } from '../garbage-collector-fixture.ts';
import { bootstrapFixture, verifiesWith, type BootstrapFixture } from './bootstrap-fixture.ts';

const kubeconfig = 'apiVersion: v1\nclusters: []\nkind: Config\n';
const longResyncMs = 600_000;
const rfc3339 = (ms: number): string => new Date(ms).toISOString();

async function clusterInfo(f: BootstrapFixture, namespace: string, data: Record<string, string> = { kubeconfig }): Promise<void> {
  await f.store('', 'configmaps').create(namespace, { metadata: { name: 'cluster-info' }, data }, { fieldManager: 'test' });
}

async function dataOf(f: BootstrapFixture, namespace: string): Promise<Record<string, string>> {
  return ((await f.find('configmaps', namespace, 'cluster-info'))?.data ?? {}) as Record<string, string>;
}

const signatureKeys = (data: Record<string, string>): string[] => Object.keys(data).filter((k) => k.startsWith('jws-kubeconfig-')).sort();

test('signing tokens of both namespaces sign cluster-info in both; the signatures verify with the tokens', async (t) => {
  const f = await bootstrapFixture(t);
  await clusterInfo(f, 'kube-public');
  await clusterInfo(f, 'orch-public', { kubeconfig, other: 'kept', 'jws-kubeconfig-stale1': 'x..y' });
  await f.token('kube-system', 'aaaaaa', '0123456789abcdef');
  await f.token('orch-system', 'bbbbbb', 'fedcba9876543210');
  await f.token('kube-system', 'cccccc', '0123456789abcdef', { 'usage-bootstrap-signing': 'false' });
  await f.token('kube-system', 'dddddd', '0123456789abcdef', { expiration: rfc3339(Date.now() - 1000) });
  f.run(createBootstrapSigner(f.deps, { resyncIntervalMs: longResyncMs }));
  for (const namespace of ['kube-public', 'orch-public']) {
    await eventually(`${namespace} signed`, async () => signatureKeys(await dataOf(f, namespace)).join() === 'jws-kubeconfig-aaaaaa,jws-kubeconfig-bbbbbb');
  }
  const data = await dataOf(f, 'orch-public');
  assert.equal(data.other, 'kept');
  assert.equal(data.kubeconfig, kubeconfig);
  assert.equal(await verifiesWith(data['jws-kubeconfig-aaaaaa']!, kubeconfig, 'aaaaaa.0123456789abcdef'), true);
  assert.equal(await verifiesWith(data['jws-kubeconfig-bbbbbb']!, kubeconfig, 'bbbbbb.fedcba9876543210'), true);
  assert.equal(await verifiesWith(data['jws-kubeconfig-aaaaaa']!, kubeconfig, 'bbbbbb.fedcba9876543210'), false);
  assert.deepEqual(f.logs, []);
});

test('a changed kubeconfig is signed again, a deleted token\'s entry goes, and nothing is written when nothing changed', async (t) => {
  const f = await bootstrapFixture(t);
  await clusterInfo(f, 'kube-public');
  await f.token('kube-system', 'aaaaaa', '0123456789abcdef');
  await f.token('orch-system', 'bbbbbb', '0123456789abcdef');
  f.run(createBootstrapSigner(f.deps, { resyncIntervalMs: 100 }));
  await eventually('signed', async () => signatureKeys(await dataOf(f, 'kube-public')).length === 2);
  const signed = (await f.find('configmaps', 'kube-public', 'cluster-info'))!;
  await settle(400);
  assert.equal((await f.find('configmaps', 'kube-public', 'cluster-info'))?.metadata.resourceVersion, signed.metadata.resourceVersion, 'several resyncs, no write');

  const edited = 'apiVersion: v1\nclusters: []\nkind: Config\npreferences: {}\n';
  await f.store('', 'configmaps').update('kube-public', 'cluster-info', { ...signed, data: { ...(signed.data as Record<string, string>), kubeconfig: edited } }, { fieldManager: 'test' });
  await eventually('signed again', async () => verifiesWith((await dataOf(f, 'kube-public'))['jws-kubeconfig-aaaaaa'] ?? '', edited, 'aaaaaa.0123456789abcdef'));

  await f.store('', 'secrets').delete('orch-system', 'bootstrap-token-bbbbbb', {});
  await eventually('the deleted token\'s entry removed', async () => signatureKeys(await dataOf(f, 'kube-public')).join() === 'jws-kubeconfig-aaaaaa');
});

test('an entry goes when its token expires, without a cleaner; a ConfigMap without kubeconfig is left alone', async (t) => {
  const f = await bootstrapFixture(t);
  await clusterInfo(f, 'kube-public');
  await clusterInfo(f, 'orch-public', { something: 'else' });
  await f.token('kube-system', 'aaaaaa', '0123456789abcdef', { expiration: rfc3339(Date.now() + 800) });
  f.run(createBootstrapSigner(f.deps, { resyncIntervalMs: longResyncMs }));
  await eventually('signed', async () => signatureKeys(await dataOf(f, 'kube-public')).length === 1);
  await eventually('unsigned at expiry', async () => signatureKeys(await dataOf(f, 'kube-public')).length === 0, 3_000);
  assert.deepEqual(await dataOf(f, 'orch-public'), { something: 'else' });
});

test('the signed data: same data when already right, a new object otherwise', async () => {
  const tokens = new Map([['aaaaaa', '0123456789abcdef']]);
  const signed = await signedClusterInfoData({ kubeconfig }, tokens);
  assert.deepEqual(Object.keys(signed ?? {}).sort(), ['jws-kubeconfig-aaaaaa', 'kubeconfig']);
  assert.equal(await signedClusterInfoData(signed!, tokens), undefined);
  assert.deepEqual(await signedClusterInfoData(signed!, new Map()), { kubeconfig });
  assert.equal(await signedClusterInfoData({ other: 'x' }, tokens), undefined);
});

test('of two Secrets with one token id the first decides, fit to sign or not, as for authentication', () => {
  const secret = (namespace: string, data: Record<string, string>) => ({
    namespace, name: 'bootstrap-token-aaaaaa', uid: namespace, type: 'bootstrap.kubernetes.io/token',
    data: { 'token-id': 'aaaaaa', 'token-secret': namespace === 'kube-system' ? '0123456789abcdef' : 'fedcba9876543210', ...data },
  });
  const now = Date.parse('2026-11-27T12:00:00Z');
  const unfit = secret('kube-system', { 'usage-bootstrap-signing': 'false' });
  const fit = secret('orch-system', { 'usage-bootstrap-signing': 'true' });
  assert.deepEqual([...signingTokens([unfit, fit], now)], []);
  assert.deepEqual([...signingTokens([{ ...unfit, data: { ...unfit.data, 'usage-bootstrap-signing': 'true' } }, fit], now)], [['aaaaaa', '0123456789abcdef']]);
  assert.deepEqual([...signingTokens([fit], now)], [['aaaaaa', 'fedcba9876543210']]);
});
