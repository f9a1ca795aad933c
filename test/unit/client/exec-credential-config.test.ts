// The exec stanza's validation (as clientcmd validates it) and the checks on a plugin's answer
// (as client-go's exec authenticator checks it), without a server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExecPluginError, KubeconfigError } from '../../../internal/client/errors.ts';
import type { ExecConfig } from '../../../internal/client/exec-config.ts';
import { runExecPlugin } from '../../../internal/client/exec-plugin.ts';
import { parseKubeconfig } from '../../../internal/client/kubeconfig.ts';
import { PluginDir, clientCertificate, startAuthServer } from './exec-plugin-harness.ts';

const v1 = 'client.authentication.k8s.io/v1';

function userWith(user: Record<string, unknown>, baseDir = '/home/me/.kube') {
  const text = JSON.stringify({ users: [{ name: 'u', user }] });
  return parseKubeconfig(text, baseDir).users.get('u');
}

function refused(exec: Record<string, unknown>, pattern: RegExp, extra: Record<string, unknown> = {}): void {
  assert.throws(() => userWith({ exec, ...extra }), (error: unknown) => error instanceof KubeconfigError && pattern.test(error.message));
}

test('an exec stanza without command or apiVersion, or with a removed or unknown apiVersion, is refused naming the field', () => {
  refused({ apiVersion: v1, interactiveMode: 'Never' }, /user u\.exec\.command must be specified/);
  refused({ command: 'login' }, /user u\.exec\.apiVersion must be specified/);
  refused({ command: 'login', apiVersion: 'client.authentication.k8s.io/v1alpha1' }, /exec\.apiVersion client\.authentication\.k8s\.io\/v1alpha1 is no longer supported \(removed in Kubernetes 1\.24\)/);
  refused({ command: 'login', apiVersion: 'example.com/v1' }, /exec\.apiVersion "example\.com\/v1" is invalid/);
});

test('interactiveMode is required in v1, defaults to IfAvailable in v1beta1, and must be a known mode', () => {
  refused({ command: 'login', apiVersion: v1 }, /exec\.interactiveMode must be specified/);
  refused({ command: 'login', apiVersion: v1, interactiveMode: 'Sometimes' }, /exec\.interactiveMode "Sometimes" is invalid/);
  assert.equal(userWith({ exec: { command: 'login', apiVersion: 'client.authentication.k8s.io/v1beta1' } })?.exec?.interactiveMode, 'IfAvailable');
  assert.equal(userWith({ exec: { command: 'login', apiVersion: v1, interactiveMode: 'Always' } })?.exec?.interactiveMode, 'Always');
});

test('env entries need a name, args must be strings, and exec does not mix with fixed credentials', () => {
  refused({ command: 'login', apiVersion: v1, interactiveMode: 'Never', env: [{ value: 'x' }] }, /exec\.env\[0\]\.name must be specified/);
  refused({ command: 'login', apiVersion: v1, interactiveMode: 'Never', args: ['ok', 3] }, /exec\.args must be a list of strings/);
  refused({ command: 'login', apiVersion: v1, interactiveMode: 'Never' }, /exec cannot be combined with a token/, { token: 'abc' });
});

test('a command with a path separator is made absolute against the kubeconfig directory; a bare name is left for PATH', () => {
  const exec = (command: string) => userWith({ exec: { command, apiVersion: v1, interactiveMode: 'Never' } })?.exec?.command;
  assert.equal(exec('bin/login'), '/home/me/.kube/bin/login');
  assert.equal(exec('../tools/login'), '/home/me/tools/login');
  assert.equal(exec('/usr/local/bin/login'), '/usr/local/bin/login');
  assert.equal(exec('kubelogin'), 'kubelogin');
});

function configFor(plugin: PluginDir, overrides: Partial<ExecConfig> = {}): ExecConfig {
  return { command: `${plugin.pluginDir}/credential-plugin`, args: [], env: [], apiVersion: v1, provideClusterInfo: false, interactiveMode: 'Never', ...overrides };
}

async function answerRefused(plugin: PluginDir, answer: unknown, pattern: RegExp, raw?: string): Promise<string> {
  plugin.behave(raw === undefined ? { answer } : { raw });
  let message = '';
  await assert.rejects(runExecPlugin(configFor(plugin)), (error: unknown) => {
    assert.ok(error instanceof ExecPluginError, String(error));
    assert.match(error.message, pattern);
    message = error.message;
    return true;
  });
  return message;
}

test('unusable answers are refused with client-go\'s reasons, and the answer itself (a secret) is never echoed', async (t) => {
  const plugin = new PluginDir();
  t.after(() => plugin.remove());
  await answerRefused(plugin, undefined, /decoding stdout/, 'token: secret-in-yaml');
  const mismatch = await answerRefused(plugin, { apiVersion: 'client.authentication.k8s.io/v1beta1', status: { token: 'secret-xyz' } }, /configured to use API version/);
  assert.doesNotMatch(mismatch, /secret-xyz/);
  await answerRefused(plugin, { apiVersion: v1, kind: 'ExecCredential' }, /didn't return a status field/);
  await answerRefused(plugin, { apiVersion: v1, status: {} }, /didn't return a token or cert\/key pair/);
  await answerRefused(plugin, { apiVersion: v1, status: { clientCertificateData: 'x' } }, /returned only certificate or key, not both/);
  await answerRefused(plugin, { apiVersion: v1, status: { token: 't', expirationTimestamp: 'tomorrow' } }, /expirationTimestamp "tomorrow" is not an RFC 3339 time/);
});

test('a certificate whose key does not match is refused; a good pair and its expiry are returned', async (t) => {
  const plugin = new PluginDir();
  const server = await startAuthServer();
  t.after(async () => {
    plugin.remove();
    await server.stop();
  });
  const one = await clientCertificate(server, 'one');
  const two = await clientCertificate(server, 'two');
  await answerRefused(plugin, { apiVersion: v1, status: { clientCertificateData: one.cert, clientKeyData: two.key } }, /key does not match the certificate/);
  plugin.behave({ answer: { apiVersion: v1, kind: 'ExecCredential', status: { clientCertificateData: one.cert, clientKeyData: one.key, expirationTimestamp: '2031-02-03T04:05:06Z' } } });
  const answer = await runExecPlugin(configFor(plugin));
  assert.equal(answer.clientCertPem, one.cert);
  assert.equal(answer.expiresAtMs, Date.parse('2031-02-03T04:05:06Z'));
  assert.equal(answer.token, undefined);
});

test('interactiveMode Always fails without running the plugin: orch clients never give it a terminal', async (t) => {
  const plugin = new PluginDir();
  t.after(() => plugin.remove());
  await assert.rejects(runExecPlugin(configFor(plugin, { interactiveMode: 'Always' })), /interactiveMode is Always but standard input is not a terminal/);
  assert.equal(plugin.runs().length, 0);
});

test('a plugin that does not answer in time is killed and the request fails', async (t) => {
  const plugin = new PluginDir();
  t.after(() => plugin.remove());
  plugin.behave({ answer: { apiVersion: v1, status: { token: 't' } }, delayMs: 5000 });
  await assert.rejects(runExecPlugin(configFor(plugin), { timeoutMs: 200 }), /did not answer within 200 ms/);
});
