// ServiceAccount: default account, existence, token volume, mountable secrets, mirror pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceAccountPlugin } from '../../../../internal/admission/plugins/service-account/plugin.ts';
import { admitAndValidate, attributesOf, depsOf, FakeObjects, gr, object, pod, status } from './fixtures.ts';

const sa = (name: string, fields: Record<string, unknown> = {}, annotations?: Record<string, string>) =>
  object('ServiceAccount', name, fields, { namespace: 'ns', ...(annotations ? { annotations } : {}) });
const spec = (p: ReturnType<typeof pod>) => p.spec as Record<string, unknown>;
const enforce = { 'kubernetes.io/enforce-mountable-secrets': 'true' };

function setup(...accounts: ReturnType<typeof sa>[]) {
  const objects = new FakeObjects();
  for (const a of accounts) objects.put(gr.serviceaccounts, a);
  const sleeps: number[] = [];
  const deps = depsOf(objects);
  const plugin = createServiceAccountPlugin(deps, {
    pacing: { retryIntervalMs: () => 150, sleep: async (ms) => void sleeps.push(ms) },
    generateName: (prefix) => `${prefix}abcde`,
  });
  return { plugin, objects, sleeps };
}

const expectedVolume = {
  name: 'kube-api-access-abcde',
  projected: {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  },
};
const expectedMount = { name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };

test('a pod runs as `default`, gets the token volume in every container, and the account pull secrets', async () => {
  const { plugin } = setup(sa('default', { imagePullSecrets: [{ name: 'reg' }] }));
  const p = pod('p', { initContainers: [{ name: 'init', image: 'i' }] });
  await admitAndValidate(plugin, attributesOf({ object: p }));
  assert.equal(spec(p).serviceAccountName, 'default');
  assert.equal(spec(p).serviceAccount, 'default');
  assert.deepEqual(spec(p).volumes, [expectedVolume]);
  assert.deepEqual((spec(p).containers as { volumeMounts: unknown }[])[0]!.volumeMounts, [expectedMount]);
  assert.deepEqual((spec(p).initContainers as { volumeMounts: unknown }[])[0]!.volumeMounts, [expectedMount]);
  assert.deepEqual(spec(p).imagePullSecrets, [{ name: 'reg' }]);
});

test('automount off (pod first, then account), a mount at the path, or an existing volume is respected', async () => {
  const { plugin } = setup(sa('default'), sa('quiet', { automountServiceAccountToken: false }));
  const off = pod('p', { automountServiceAccountToken: false });
  await plugin.admit!(attributesOf({ object: off }));
  assert.equal(spec(off).volumes, undefined);
  const quiet = pod('p', { serviceAccountName: 'quiet' });
  await plugin.admit!(attributesOf({ object: quiet }));
  assert.equal(spec(quiet).volumes, undefined);
  const forced = pod('p', { serviceAccountName: 'quiet', automountServiceAccountToken: true });
  await plugin.admit!(attributesOf({ object: forced }));
  assert.equal((spec(forced).volumes as unknown[]).length, 1);
  const mounted = pod('p', { containers: [{ name: 'c', volumeMounts: [{ name: 'own', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }] });
  await plugin.admit!(attributesOf({ object: mounted }));
  assert.equal(spec(mounted).volumes, undefined);
  const existing = pod('p', { volumes: [{ name: 'kube-api-access-zzzzz', projected: { sources: [] } }] });
  await plugin.admit!(attributesOf({ object: existing }));
  assert.equal((spec(existing).volumes as unknown[]).length, 1);
  assert.equal((spec(existing).containers as { volumeMounts: { name: string }[] }[])[0]!.volumeMounts[0]!.name, 'kube-api-access-zzzzz');
});

test('a missing account is refused after reads at the leader (ten for `default`)', async () => {
  const { plugin, objects, sleeps } = setup();
  await assert.rejects(plugin.admit!(attributesOf({ object: pod('p') })), status(403, 'pods "p" is forbidden: error looking up service account ns/default: serviceaccount "default" not found'));
  assert.equal(objects.reads.filter((r) => r.consistent).length, 10);
  assert.deepEqual(sleeps, Array(9).fill(150));
  await assert.rejects(plugin.admit!(attributesOf({ object: pod('p', { serviceAccountName: 'x' }) })), status(403, /service account ns\/x: serviceaccount "x" not found/));
  assert.equal(objects.reads.filter((r) => r.consistent).length, 11);
});

test('an account only the leader has is found', async () => {
  const { plugin, objects } = setup();
  objects.put(gr.serviceaccounts, sa('builder'), 'live');
  await admitAndValidate(plugin, attributesOf({ object: pod('p', { serviceAccount: 'builder' }) }));
});

test('enforce-mountable-secrets limits volumes, env, envFrom and pull secrets to the account list', async () => {
  const account = sa('default', { secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'reg' }] }, enforce);
  const { plugin } = setup(account, sa('open', { secrets: [] }));
  await admitAndValidate(plugin, attributesOf({ object: pod('p', { volumes: [{ name: 'v', secret: { secretName: 'ok' } }] }) }));
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('p', { volumes: [{ name: 'v', secret: { secretName: 'bad' } }] }) })), status(403, 'pods "p" is forbidden: volume with secret.secretName="bad" is not allowed because service account default does not reference that secret'));
  const env = { name: 'c', image: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'bad', key: 'k' } } }] };
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('p', { containers: [env] }) })), status(403, /container c with envVar E referencing secret.secretName="bad" is not allowed because service account default/));
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('p', { initContainers: [env] }) })), status(403, /init container c with envVar E/));
  const envFrom = { name: 'c', image: 'i', envFrom: [{ secretRef: { name: 'bad' } }] };
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('p', { containers: [envFrom] }) })), status(403, /container c with envFrom referencing secret.secretName="bad"/));
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('p', { imagePullSecrets: [{ name: 'other' }] }) })), status(403, /imagePullSecrets\[0\].name="other" is not allowed because service account default does not reference that imagePullSecret/));
  // Without the annotation anything goes.
  await admitAndValidate(plugin, attributesOf({ object: pod('p', { serviceAccountName: 'open', volumes: [{ name: 'v', secret: { secretName: 'bad' } }] }) }));
});

test('ephemeral containers are held to the mountable secrets too', async () => {
  const { plugin } = setup(sa('default', { secrets: [{ name: 'ok' }] }, enforce));
  const ephemeral = (secret: string) => pod('p', { serviceAccountName: 'default', ephemeralContainers: [{ name: 'dbg', image: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: secret, key: 'k' } } }] }] });
  const update = (p: ReturnType<typeof pod>) => attributesOf({ operation: 'UPDATE', subresource: 'ephemeralcontainers', object: p, oldObject: pod('p') });
  await plugin.validate!(update(ephemeral('ok')));
  await assert.rejects(plugin.validate!(update(ephemeral('bad'))), status(403, /ephemeral container dbg with envVar E referencing secret.secretName="bad"/));
  // Ordinary updates are not checked.
  await plugin.validate!(attributesOf({ operation: 'UPDATE', object: pod('p', { volumes: [{ name: 'v', secret: { secretName: 'bad' } }] }), oldObject: pod('p') }));
});

test('mirror pods are not changed and may not reference accounts, secrets or token projections', async () => {
  const { plugin } = setup(sa('default'));
  const mirror = { 'kubernetes.io/config.mirror': 'hash' };
  const m = pod('m', {}, { annotations: mirror });
  await admitAndValidate(plugin, attributesOf({ object: m }));
  assert.equal(spec(m).serviceAccountName, undefined);
  assert.equal(spec(m).volumes, undefined);
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('m', { serviceAccountName: 'default' }, { annotations: mirror }) })), status(403, 'pods "m" is forbidden: a mirror pod may not reference service accounts'));
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('m', { volumes: [{ name: 'v', secret: { secretName: 's' } }] }, { annotations: mirror }) })), status(403, /a mirror pod may not reference secrets/));
  await assert.rejects(admitAndValidate(plugin, attributesOf({ object: pod('m', { volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }, { annotations: mirror }) })), status(403, /may not use ServiceAccountToken volume projections/));
});

test('the validating phase requires an account name', async () => {
  const { plugin } = setup(sa('default'));
  await assert.rejects(plugin.validate!(attributesOf({ object: pod('p') })), status(403, 'pods "p" is forbidden: no service account specified for pod ns/p'));
  await plugin.admit!(attributesOf({ resource: { resource: 'configmaps' }, kind: { kind: 'ConfigMap' }, object: object('ConfigMap', 'c') }));
});
