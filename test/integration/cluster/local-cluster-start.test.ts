import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster } from '../../../internal/cluster/local-cluster.ts';
import { freePorts } from '../../support/free-ports.ts';

test('a cluster whose replicas exit while starting fails at once, naming them, instead of waiting out its timeout', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-local-cluster-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const ports = await freePorts(4);
  await assert.rejects(
    startLocalCluster({
      dataDir: join(dir, 'data'), host: '127.0.0.1', apiPorts: ports.slice(0, 2), peerPorts: ports.slice(2), kubeconfigPath: join(dir, 'kubeconfig'),
      // Far longer than the replicas take to fail: only giving up early matches the message below.
      output: 'ignore', readyTimeoutMs: 20_000,
      // Refused by every replica's flag parser: they exit with code 2 before serving.
      extraArgs: ['--tick-ms', 'soon'],
    }),
    /replica orch-\d \(exit code 2\).* exited before the cluster was ready/,
  );
});

test('a start on a port something already listens on fails before writing anything, naming the port', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-local-cluster-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const ports = await freePorts(2);
  const other = createServer();
  await new Promise<void>((resolve) => other.listen(ports[1], '127.0.0.1', resolve));
  t.after(() => other.close());
  await assert.rejects(
    startLocalCluster({
      dataDir: join(dir, 'data'), host: '127.0.0.1', apiPorts: ports.slice(0, 1), peerPorts: ports.slice(1), kubeconfigPath: join(dir, 'kubeconfig'),
      output: 'ignore', readyTimeoutMs: 20_000,
    }),
    new RegExp(`cannot listen on 127\\.0\\.0\\.1:${ports[1]} \\(EADDRINUSE\\): is another cluster running on these ports\\?`),
  );
  assert.equal(existsSync(join(dir, 'data')), false, 'the data directory was written');
});
