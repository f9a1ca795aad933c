import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import { imagePolicyWebhookPlugin } from '../../../../internal/admission/plugins/image-policy-webhook/image-policy-webhook.ts';
import { formatGoDuration } from '../../../../internal/admission/plugins/image-policy-webhook/go-duration.ts';
import { makeCa, makeCertificate, makeServerCertificate } from '../../authn/fixtures/test-pki.ts';
import { attributes, pod, rejectsWith, testDeps } from './helpers.ts';

type Answer = { status: number; body: unknown } | 'hang-up';


/** A real HTTPS image policy back end that demands our client certificate and records each review. */
async function startBackend(t: TestContext, answer: (review: Record<string, unknown>) => Answer) {
  const ca = await makeCa('image-policy-ca');
  const server = await makeServerCertificate(ca);
  const client = await makeCertificate({ commonName: 'apiserver', issuer: ca, usages: ['client'] });
  const reviews: Record<string, unknown>[] = [];
  const clientNames: string[] = [];
  const httpsServer = https.createServer({ key: server.keyPem, cert: server.pem, ca: ca.pem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      reviews.push(review);
      clientNames.push(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
      const reply = answer(review);
      if (reply === 'hang-up') {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => httpsServer.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => httpsServer.close(() => resolve())));
  const dir = mkdtempSync(path.join(tmpdir(), 'image-policy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'ca.pem'), ca.pem);
  const { port } = httpsServer.address() as AddressInfo;
  const kubeconfig = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: backend',
    '  cluster:',
    `    server: https://127.0.0.1:${port}/review`,
    '    certificate-authority: ca.pem',
    'users:',
    '- name: apiserver',
    '  user:',
    `    client-certificate-data: ${Buffer.from(client.pem).toString('base64')}`,
    `    client-key-data: ${Buffer.from(client.keyPem).toString('base64')}`,
    'contexts:',
    '- name: default',
    '  context: {cluster: backend, user: apiserver}',
    'current-context: default',
  ].join('\n');
  const kubeConfigFile = path.join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeConfigFile, kubeconfig);
  return { reviews, clientNames, kubeConfigFile, dir };
}

function review(allowed: boolean, reason = '', auditAnnotations: Record<string, string> = {}): { status: number; body: unknown } {
  return { status: 200, body: { apiVersion: 'imagepolicy.k8s.io/v1alpha1', kind: 'ImageReview', status: { allowed, reason, auditAnnotations } } };
}

const podWithImages = pod('web', { containers: [{ name: 'c', image: 'nginx:1' }], initContainers: [{ name: 'i', image: 'busybox' }] }, {
  annotations: { 'alpha.image-policy.k8s.io/mode': 'strict', 'unrelated/x': 'y' },
});

test('ImagePolicyWebhook sends an ImageReview over mutual TLS and admits what the back end allows', async (t) => {
  const backend = await startBackend(t, () => review(true, '', { checked: 'yes' }));
  const deps = testDeps();
  const plugin = imagePolicyWebhookPlugin(deps, { imagePolicy: { kubeConfigFile: backend.kubeConfigFile, allowTTL: 50, denyTTL: 50, retryBackoff: 1, defaultAllow: false } });
  const a = attributes({ object: structuredClone(podWithImages) });
  await plugin.validate!(a);
  assert.deepEqual(backend.reviews[0], {
    kind: 'ImageReview',
    apiVersion: 'imagepolicy.k8s.io/v1alpha1',
    metadata: { creationTimestamp: null },
    spec: { containers: [{ image: 'nginx:1' }, { image: 'busybox' }], annotations: { 'alpha.image-policy.k8s.io/mode': 'strict' }, namespace: 'default' },
    status: { allowed: false },
  });
  assert.deepEqual(backend.clientNames, ['apiserver']);
  assert.equal(a.annotations.get('imagepolicywebhook.image-policy.k8s.io/checked'), 'yes');
  // The answer is cached for allowTTL: the same spec is not asked again, and its audit annotations come back.
  const again = attributes({ object: structuredClone(podWithImages) });
  await plugin.validate!(again);
  assert.equal(backend.reviews.length, 1);
  assert.equal(again.annotations.get('imagepolicywebhook.image-policy.k8s.io/checked'), 'yes');
  deps.nowMs += 50_000;
  await plugin.validate!(attributes({ object: structuredClone(podWithImages) }));
  assert.equal(backend.reviews.length, 2);
});

test('ImagePolicyWebhook refuses what the back end denies, caching the denial for denyTTL', async (t) => {
  let reason = 'images using latest tag are not allowed';
  const backend = await startBackend(t, () => review(false, reason));
  const deps = testDeps();
  const plugin = imagePolicyWebhookPlugin(deps, { imagePolicy: { kubeConfigFile: backend.kubeConfigFile, denyTTL: 10 } });
  await rejectsWith(plugin.validate!(attributes({ object: structuredClone(podWithImages) })), 403, 'pods "web" is forbidden: image policy webhook backend denied one or more images: images using latest tag are not allowed');
  reason = '';
  await rejectsWith(plugin.validate!(attributes({ object: structuredClone(podWithImages) })), 403, 'pods "web" is forbidden: image policy webhook backend denied one or more images: images using latest tag are not allowed');
  deps.nowMs += 10_000;
  await rejectsWith(plugin.validate!(attributes({ object: structuredClone(podWithImages) })), 403, 'pods "web" is forbidden: one or more images rejected by webhook backend');
  assert.equal(backend.reviews.length, 2);
});

test('ImagePolicyWebhook reviews only ephemeral containers on pods/ephemeralcontainers and ignores other resources', async (t) => {
  const backend = await startBackend(t, () => review(true));
  const plugin = imagePolicyWebhookPlugin(testDeps(), { imagePolicy: { kubeConfigFile: backend.kubeConfigFile } });
  const withDebug = pod('web', { ephemeralContainers: [{ name: 'd', image: 'debugger' }] });
  await plugin.validate!(attributes({ operation: 'UPDATE', subresource: 'ephemeralcontainers', name: 'web', object: withDebug, oldObject: withDebug }));
  assert.deepEqual((backend.reviews[0]!['spec'] as { containers: unknown }).containers, [{ image: 'debugger' }]);
  await plugin.validate!(attributes({ subresource: 'status', object: withDebug }));
  await plugin.validate!(attributes({ resource: { group: 'apps', resource: 'deployments' }, object: withDebug }));
  assert.equal(backend.reviews.length, 1);
});

test('ImagePolicyWebhook retries a failing back end, then refuses, or admits with defaultAllow and a failed-open audit mark', async (t) => {
  const backend = await startBackend(t, () => ({ status: 500, body: {} }));
  const closed = imagePolicyWebhookPlugin(testDeps(), { imagePolicy: { kubeConfigFile: backend.kubeConfigFile, retryBackoff: 1 } });
  await rejectsWith(closed.validate!(attributes({ object: structuredClone(podWithImages) })), 403, 'pods "web" is forbidden: Error contacting webhook: 500');
  assert.equal(backend.reviews.length, 5);
  const open = imagePolicyWebhookPlugin(testDeps(), { imagePolicy: { kubeConfigFile: backend.kubeConfigFile, retryBackoff: 1, defaultAllow: true } });
  const a = attributes({ object: structuredClone(podWithImages) });
  await open.validate!(a);
  assert.equal(a.annotations.get('imagepolicywebhook.image-policy.k8s.io/failed-open'), 'true');
});

test('ImagePolicyWebhook retries a reset connection and uses the answer that follows', async (t) => {
  let calls = 0;
  const backend = await startBackend(t, () => (++calls === 1 ? 'hang-up' : review(true)));
  const plugin = imagePolicyWebhookPlugin(testDeps(), { imagePolicy: { kubeConfigFile: backend.kubeConfigFile, retryBackoff: 1 } });
  await plugin.validate!(attributes({ object: structuredClone(podWithImages) }));
  assert.equal(calls, 2);
});

test('ImagePolicyWebhook refuses a malformed configuration with kube messages', async (t) => {
  const backend = await startBackend(t, () => review(true));
  const deps = testDeps();
  const make = (imagePolicy: Record<string, unknown>) => () => imagePolicyWebhookPlugin(deps, { imagePolicy: { kubeConfigFile: backend.kubeConfigFile, ...imagePolicy } });
  assert.throws(() => imagePolicyWebhookPlugin(deps, undefined), { message: 'no config specified' });
  assert.throws(make({ allowTTL: 45 * 60 }), { message: 'valid value is between 1s and 30m0s, got 45m0s' });
  assert.throws(make({ denyTTL: 1 }), { message: 'valid value is between 1s and 30m0s, got 1s' });
  assert.throws(make({ retryBackoff: 6 * 60 * 1000 }), { message: 'valid value is between 1ns and 5m0s, got 6m0s' });
  assert.throws(make({ defaultAllow: 'yes' }), /defaultAllow must be a boolean/);
  assert.throws(make({ kubeConfigFile: '' }), /kubeConfigFile is required/);
  const plain = path.join(backend.dir, 'plain.yaml');
  writeFileSync(plain, 'clusters:\n- name: c\n  cluster: {server: "http://127.0.0.1:1"}\n');
  assert.throws(make({ kubeConfigFile: plain }), /must use https/);
  // The versioned form is accepted too; -1 disables a TTL.
  imagePolicyWebhookPlugin(deps, { apiVersion: 'imagepolicy.admission.k8s.io/v1alpha1', kind: 'ImagePolicyWebhookConfiguration', imagePolicy: { kubeConfigFile: backend.kubeConfigFile, allowTTL: -1 } });
  assert.equal(formatGoDuration(3_600_000_000_000 + 1_500_000_000), '1h0m1.5s');
  assert.equal(formatGoDuration(500_000_000), '500ms');
});
