import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOrchctl } from '../../../internal/ctl/dispatcher.ts';
import { recordingIo, sendJson, startStubCluster } from './stub-replicas.ts';

test('every client orchctl builds, per replica and balanced, presents the kubeconfig user\'s exec plugin credential', async () => {
  const credential = { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'token-from-plugin' } };
  const cluster = await startStubCluster(2, {
    user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: ['-e', `process.stdout.write(${JSON.stringify(JSON.stringify(credential))})`], interactiveMode: 'Never' } },
  });
  try {
    for (const replica of cluster.replicas) {
      replica.handler = (req, res) =>
        req.headers.authorization === 'Bearer token-from-plugin' ? sendJson(res, 200, { leader: null, members: [] }) : sendJson(res, 401, { kind: 'Status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    }
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'list', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    const status = recordingIo(cluster.dir);
    await runOrchctl(['status', '-o', 'json', '--kubeconfig', cluster.kubeconfigPath], status);
    for (const replica of cluster.replicas) {
      assert.ok(replica.received.some((r) => r.url === '/orch/v1/status'), replica.url);
      assert.ok(replica.received.every((r) => r.headers.authorization === 'Bearer token-from-plugin'), replica.url);
    }
  } finally {
    await cluster.close();
  }
});
