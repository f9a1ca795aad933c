// Service webhooks and client credentials: a service reference reaches the first ready endpoint
// under the service's DNS name, with the credentials of the kubeconfig user named after it; a
// service without endpoints fails in kube's words; the WebhookAdmission configuration is checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WebhookCredentials, webhookKubeconfigFile } from '../../../../internal/admission/webhook/client-credentials.ts';
import { WebhookConfigurationSource } from '../../../../internal/admission/webhook/configuration-source.ts';
import { validatingWebhookPlugin } from '../../../../internal/admission/webhook/plugins.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { answerV1, configuration, memoryObjects, nsObject, podAttributes, startWebhook, testDeps, webhookSpec } from './fixtures.ts';

function kubeconfig(users: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-kubeconfig-'));
  const file = path.join(dir, 'kubeconfig.json');
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'Config', users: Object.entries(users).map(([name, user]) => ({ name, user })), ...extra }));
  return file;
}

const service = (port: number): KObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'webhook', namespace: 'ns' }, spec: { ports: [{ name: 'https', port, targetPort: 9443 }] } });
const endpoints = (port: number, addresses: string[]): KObject => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'webhook', namespace: 'ns' }, subsets: [{ addresses: addresses.map((ip) => ({ ip })), ports: [{ name: 'https', port }] }] });

test('a service webhook is called at its endpoint as https://webhook.ns.svc:<port><path> with the token of the user named after it', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: false, status: { message: 'via service' } }));
  const file = kubeconfig({ 'webhook.ns.svc:8443': { token: 'service-token' }, '*': { token: 'default-token' } });
  const objects = memoryObjects([nsObject, [{ group: '', resource: 'services' }, service(8443)], [{ group: '', resource: 'endpoints' }, endpoints(hook.port, ['127.0.0.1'])]]);
  const source = new WebhookConfigurationSource('ValidatingWebhookConfiguration');
  source.replace([configuration('ValidatingWebhookConfiguration', 'c', [webhookSpec(hook, 'svc.example.com', { clientConfig: { service: { namespace: 'ns', name: 'webhook', path: '/validate', port: 8443 }, caBundle: hook.caBundle } })])]);
  const plugin = validatingWebhookPlugin({ source })(testDeps(objects), { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: file });
  await assert.rejects(plugin.validate!(podAttributes()), { message: 'admission webhook "svc.example.com" denied the request: via service' });
  const [call] = hook.received;
  assert.equal(call?.url, '/validate?timeout=10s');
  assert.equal(call?.headers.host, 'webhook.ns.svc:8443');
  assert.equal(call?.headers.authorization, 'Bearer service-token');
});

test('a service without ready endpoints fails the call: "no endpoints available for service"', async (t) => {
  const hook = await startWebhook(t, (review) => answerV1(review, { allowed: true }));
  const objects = memoryObjects([nsObject, [{ group: '', resource: 'services' }, service(443)], [{ group: '', resource: 'endpoints' }, endpoints(hook.port, [])]]);
  const source = new WebhookConfigurationSource('ValidatingWebhookConfiguration');
  source.replace([configuration('ValidatingWebhookConfiguration', 'c', [webhookSpec(hook, 'svc.example.com', { clientConfig: { service: { namespace: 'ns', name: 'webhook' } } })])]);
  const plugin = validatingWebhookPlugin({ source })(testDeps(objects), undefined);
  const err = await plugin.validate!(podAttributes()).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 500);
  assert.equal(err.message, 'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://webhook.ns.svc:443/?timeout=10s": no endpoints available for service "webhook"');
});

test('credentials by host: exact, *.suffix wildcards, without :443, then "*", then the current context\'s user', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-token-'));
  writeFileSync(path.join(dir, 'token'), 'from-file\n');
  const file = kubeconfig({
    'exact.example.com:8443': { tokenFile: path.join(dir, 'token') },
    '*.example.com': { username: 'u', password: 'p' },
    'svc-a.ns.svc': { 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') },
    '*': { token: 'star' },
  });
  const credentials = WebhookCredentials.fromKubeconfigFile(file);
  assert.deepEqual(credentials.forHostPort('exact.example.com:8443'), { token: 'from-file' });
  assert.deepEqual(credentials.forHostPort('x.y.example.com:443'), { username: 'u', password: 'p' });
  assert.deepEqual(credentials.forHostPort('x.example.com:9443'), { token: 'star' }, 'a wildcard without a port matches only port 443');
  assert.deepEqual(credentials.forService('svc-a', 'ns', 443), { clientCertificate: 'CERT', clientKey: 'KEY' });
  assert.deepEqual(credentials.forService('svc-a', 'ns', 8443), { token: 'star' });
  const current = WebhookCredentials.fromKubeconfigFile(kubeconfig({ me: { token: 'mine' } }, { 'current-context': 'ctx', contexts: [{ name: 'ctx', context: { user: 'me' } }] }));
  assert.deepEqual(current.forHostPort('anything:443'), { token: 'mine' });
  assert.deepEqual(WebhookCredentials.none().forHostPort('anything:443'), {});
});

test('the WebhookAdmission configuration must name an absolute kubeconfig path', () => {
  assert.equal(webhookKubeconfigFile(undefined, 'k8s.io'), undefined);
  assert.equal(webhookKubeconfigFile({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: '/etc/k/webhook.yaml' }, 'k8s.io'), '/etc/k/webhook.yaml');
  assert.equal(webhookKubeconfigFile({ apiVersion: 'apiserver.config.k8s.io/v1alpha1', kind: 'WebhookAdmission', kubeConfigFile: '/x' }, 'k8s.io'), '/x');
  assert.throws(() => webhookKubeconfigFile({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: 'rel.yaml' }, 'k8s.io'), { message: 'kubeConfigFile: Invalid value: "rel.yaml": must be an absolute file path' });
  assert.throws(() => webhookKubeconfigFile({ apiVersion: 'v1', kind: 'Config' }, 'k8s.io'), /must be kind WebhookAdmissionConfiguration/);
});
