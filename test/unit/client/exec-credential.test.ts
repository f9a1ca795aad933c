// The exec credential plugin end to end: a real plugin script, a real HTTPS server that checks
// bearer tokens and client certificates, and OrchClient over a kubeconfig that names the plugin.
import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { OrchClient } from '../../../internal/client/client.ts';
import { ExecPluginError } from '../../../internal/client/errors.ts';
import { ExecCredentialProvider } from '../../../internal/client/exec-credential.ts';
import { loadKubeconfig } from '../../../internal/client/kubeconfig.ts';
import { watch } from '../../../internal/client/watch.ts';
import { PluginDir, clientCertificate, startAuthServer, type AuthServer } from './exec-plugin-harness.ts';

const v1 = 'client.authentication.k8s.io/v1';
const v1beta1 = 'client.authentication.k8s.io/v1beta1';

let server: AuthServer;
let plugin: PluginDir;
const clients: OrchClient[] = [];

before(async () => {
  server = await startAuthServer();
});
after(async () => {
  await server.stop();
});
beforeEach(() => {
  server.reset();
  plugin = new PluginDir();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  plugin.remove();
});

function tokenAnswer(token: string, extra: Record<string, unknown> = {}, apiVersion = v1): unknown {
  return { apiVersion, kind: 'ExecCredential', status: { token, ...extra } };
}

function clientFor(exec: Record<string, unknown>, clusterExtra: Record<string, unknown> = {}): OrchClient {
  const client = OrchClient.fromKubeconfig(plugin.writeKubeconfig(server, { apiVersion: v1, interactiveMode: 'Never', command: plugin.relativeCommand, ...exec }, clusterExtra));
  clients.push(client);
  return client;
}

test('the token the plugin answers is sent as the bearer token, and many requests run the plugin once', async () => {
  server.validTokens.add('tok-1');
  plugin.behave({ answer: tokenAnswer('tok-1') });
  const client = clientFor({});
  for (let i = 0; i < 5; i += 1) await client.get('/api/v1/namespaces/default/configmaps/one');
  assert.equal(plugin.runs().length, 1);
  assert.deepEqual(server.seen.map((r) => r.token), ['tok-1', 'tok-1', 'tok-1', 'tok-1', 'tok-1']);
});

test('clients built from the same kubeconfig user share one credential, as client-go does per process', async () => {
  server.validTokens.add('shared');
  plugin.behave({ answer: tokenAnswer('shared') });
  const one = clientFor({});
  const two = clientFor({});
  await Promise.all([one.get('/x'), two.get('/x')]);
  await two.get('/x');
  assert.equal(plugin.runs().length, 1);
});

test('concurrent requests share one plugin run (single flight)', async () => {
  server.validTokens.add('tok-slow');
  plugin.behave({ answer: tokenAnswer('tok-slow'), delayMs: 300 });
  const client = clientFor({});
  await Promise.all(Array.from({ length: 12 }, () => client.get('/x')));
  assert.equal(plugin.runs().length, 1);
  assert.equal(server.seen.length, 12);
});

test('an expired credential makes the next request run the plugin again', async () => {
  server.validTokens.add('tok-a');
  server.validTokens.add('tok-b');
  let nowMs = Date.parse('2030-01-01T00:00:00Z');
  plugin.behave({ answer: tokenAnswer('tok-a', { expirationTimestamp: '2030-01-01T00:10:00Z' }) });
  const config = loadKubeconfig(plugin.writeKubeconfig(server, { apiVersion: v1, interactiveMode: 'Never', command: plugin.relativeCommand }));
  const exec = config.users.get('u')?.exec;
  assert.ok(exec !== undefined);
  const client = new OrchClient({ servers: [server.url], caPem: server.ca.cert, credentials: new ExecCredentialProvider(exec, { now: () => nowMs }) });
  clients.push(client);
  await client.get('/x');
  nowMs += 9 * 60_000;
  await client.get('/x');
  assert.equal(plugin.runs().length, 1, 'still valid nine minutes later');
  plugin.behave({ answer: tokenAnswer('tok-b', { expirationTimestamp: '2030-01-01T01:00:00Z' }) });
  nowMs += 2 * 60_000;
  await client.get('/x');
  assert.equal(plugin.runs().length, 2);
  assert.deepEqual(server.seen.map((r) => r.token), ['tok-a', 'tok-a', 'tok-b']);
});

test('a 401 forces a new plugin run and the request, even a write, succeeds on its one retry', async () => {
  server.validTokens.add('old');
  plugin.behave({ answer: tokenAnswer('old') });
  const client = clientFor({});
  await client.get('/x');
  server.validTokens.delete('old');
  server.validTokens.add('new');
  plugin.behave({ answer: tokenAnswer('new') });
  const created = await client.create<{ metadata: { name: string } }>('/api/v1/namespaces/default/configmaps', { metadata: { name: 'one' } });
  assert.equal(created.metadata.name, 'one');
  assert.equal(plugin.runs().length, 2);
  assert.deepEqual(server.seen.map((r) => `${r.method} ${r.token ?? ''}`), ['GET old', 'POST old', 'POST new']);
});

test('a credential the server keeps refusing fails with 401 after exactly one fresh run', async () => {
  plugin.behave({ answer: tokenAnswer('never-valid') });
  const client = clientFor({});
  await assert.rejects(client.get('/x'), (error: unknown) => (error as { status?: number }).status === 401);
  assert.equal(plugin.runs().length, 2);
  assert.equal(server.seen.length, 2);
});

test('a watch authenticates with the plugin credential and retries its 401 the same way', async () => {
  server.validTokens.add('watch-old');
  plugin.behave({ answer: tokenAnswer('watch-old') });
  const client = clientFor({});
  await client.get('/x');
  server.validTokens.delete('watch-old');
  server.validTokens.add('watch-new');
  plugin.behave({ answer: tokenAnswer('watch-new') });
  const controller = new AbortController();
  for await (const event of watch(client, { path: '/api/v1/configmaps', resourceVersion: '1', signal: controller.signal, timeoutSeconds: 5 })) {
    assert.equal(event.type, 'ADDED');
    controller.abort();
  }
  const watches = server.seen.filter((r) => r.path.includes('watch=1'));
  assert.deepEqual(watches.map((r) => r.token), ['watch-old', 'watch-new']);
  assert.equal(plugin.runs().length, 2);
});

test('a new client certificate from the plugin is presented on a new TLS handshake', async () => {
  const first = await clientCertificate(server, 'user-1');
  const second = await clientCertificate(server, 'user-2');
  server.validUsers.add('user-1');
  plugin.behave({ answer: { apiVersion: v1, kind: 'ExecCredential', status: { clientCertificateData: first.cert, clientKeyData: first.key } } });
  const client = clientFor({});
  await client.get('/x');
  await client.get('/x');
  assert.deepEqual(server.seen.map((r) => r.user), ['user-1', 'user-1']);
  // The server stops trusting user-1; the plugin now answers user-2's certificate.
  server.validUsers.delete('user-1');
  server.validUsers.add('user-2');
  plugin.behave({ answer: { apiVersion: v1, kind: 'ExecCredential', status: { clientCertificateData: second.cert, clientKeyData: second.key } } });
  await client.get('/x');
  assert.deepEqual(server.seen.map((r) => r.user), ['user-1', 'user-1', 'user-1', 'user-2']);
  assert.equal(server.handshakes.at(-1), 'user-2');
  assert.equal(plugin.runs().length, 2);
});

test('an answer that arrives already expired is still presented once, certificate included', async () => {
  const cert = await clientCertificate(server, 'late-user');
  server.validUsers.add('late-user');
  plugin.behave({ answer: { apiVersion: v1, status: { clientCertificateData: cert.cert, clientKeyData: cert.key, expirationTimestamp: '2001-01-01T00:00:00Z' } } });
  const client = clientFor({});
  await client.get('/x');
  await client.get('/x');
  assert.deepEqual(server.seen.map((r) => r.user), ['late-user', 'late-user']);
  assert.equal(plugin.runs().length, 2);
});

test('a plugin that is not found fails the request with its installHint', async () => {
  const client = clientFor({ command: 'orch-test-no-such-plugin', installHint: 'Install it with: apt-get install orch-login' });
  await assert.rejects(client.get('/x'), (error: unknown) => {
    assert.ok(error instanceof ExecPluginError);
    assert.match(error.message, /executable orch-test-no-such-plugin not found/);
    assert.match(error.message, /Install it with: apt-get install orch-login/);
    return true;
  });
  assert.equal(server.seen.length, 0, 'nothing is sent without a credential');
});

test('a failing plugin fails the request with its exit code and stderr tail, and a watch gives up at once', async () => {
  plugin.behave({ exitCode: 3, stderr: 'error: cannot reach the identity provider\n' });
  const client = clientFor({});
  await assert.rejects(client.get('/x'), (error: unknown) => {
    assert.ok(error instanceof ExecPluginError);
    assert.match(error.message, /exit code 3/);
    assert.match(error.message, /cannot reach the identity provider/);
    return true;
  });
  const runsBefore = plugin.runs().length;
  await assert.rejects(async () => {
    for await (const event of watch(client, { path: '/api/v1/configmaps', resourceVersion: '1' })) assert.fail(`unexpected ${event.type}`);
  }, ExecPluginError);
  assert.equal(plugin.runs().length, runsBefore + 1, 'the watch does not keep rerunning a failing plugin');
});

test('without provideClusterInfo the plugin gets KUBERNETES_EXEC_INFO without a cluster, plus env and args', async () => {
  server.validTokens.add('t');
  plugin.behave({ answer: tokenAnswer('t') });
  const client = clientFor({ env: [{ name: 'ORCH_TEST_VAR', value: 'hello' }], args: ['get-token', '--audience', 'orch'] });
  await client.get('/x');
  const [run] = plugin.runs();
  assert.deepEqual(run?.info, { apiVersion: v1, kind: 'ExecCredential', spec: { interactive: false } });
  assert.equal(run?.testVar, 'hello');
  assert.equal(run?.args, 'get-token --audience orch');
});

test('with provideClusterInfo the plugin gets the server, CA data and the exec extension of the cluster', async () => {
  server.validTokens.add('t');
  plugin.behave({ answer: tokenAnswer('t') });
  const extensions = [{ name: 'client.authentication.k8s.io/exec', extension: { audience: 'orch', region: 'eu' } }, { name: 'other', extension: { x: 1 } }];
  const client = clientFor({ provideClusterInfo: true }, { extensions });
  await client.get('/x');
  const [run] = plugin.runs();
  assert.deepEqual(run?.info, {
    apiVersion: v1,
    kind: 'ExecCredential',
    spec: {
      interactive: false,
      cluster: { server: server.url, 'certificate-authority-data': Buffer.from(server.ca.cert).toString('base64'), config: { audience: 'orch', region: 'eu' } },
    },
  });
});

test('v1beta1 and v1 plugins are both accepted, and an answer in the other version is refused', async () => {
  server.validTokens.add('beta');
  plugin.behave({ answer: tokenAnswer('beta', {}, v1beta1) });
  // v1beta1 defaults interactiveMode to IfAvailable.
  const beta = OrchClient.fromKubeconfig(plugin.writeKubeconfig(server, { apiVersion: v1beta1, command: plugin.relativeCommand }));
  clients.push(beta);
  await beta.get('/x');
  assert.equal(plugin.runs()[0]?.info?.['apiVersion'], v1beta1);

  const mismatched = clientFor({});
  await assert.rejects(mismatched.get('/x'), /configured to use API version client.authentication.k8s.io\/v1, plugin returned version client.authentication.k8s.io\/v1beta1/);
});

test('a relative command path is resolved against the kubeconfig directory, not the working directory', async () => {
  server.validTokens.add('rel');
  plugin.behave({ answer: tokenAnswer('rel') });
  const config = loadKubeconfig(plugin.writeKubeconfig(server, { apiVersion: v1, interactiveMode: 'Never', command: plugin.relativeCommand }));
  assert.equal(config.users.get('u')?.exec?.command, `${plugin.pluginDir}/credential-plugin`);
  assert.notEqual(process.cwd(), plugin.dir);
  const client = OrchClient.fromKubeconfig(config);
  clients.push(client);
  await client.get('/x');
  assert.equal(plugin.runs().length, 1);
});
