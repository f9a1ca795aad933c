// The Debian python3-kubernetes client's Watch().stream against every replica of a real 3-process
// cluster (issue 20's acceptance): each replica's watch sees the writes made through another one.
// The Python side is python/watch_stream.py; this test gives it a kubeconfig per replica.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { startClusterFixture } from '../support/cluster-fixture.ts';
import { pythonClientMissing, pythonPath } from '../support/python-client.ts';

const scriptPath = fileURLToPath(new URL('./python/watch_stream.py', import.meta.url));

interface Kubeconfig {
  clusters: { name: string; cluster: { server: string } }[];
  contexts: { name: string; context: { cluster: string } }[];
  'current-context': string;
}

/** A copy of `kubeconfig` whose current context's cluster is served at `server`. */
function pointedAt(kubeconfig: string, server: string): string {
  const config = parse(kubeconfig) as Kubeconfig;
  const clusterName = config.contexts.find((c) => c.name === config['current-context'])?.context.cluster;
  const cluster = config.clusters.find((c) => c.name === clusterName);
  assert.ok(cluster, 'the kubeconfig\'s current context names a cluster');
  cluster.cluster.server = server;
  return stringify(config);
}

interface ReplicaResult {
  watched: number;
  written: number;
  events: [type: string, name: string, value: string | null][];
  bookmarks: string[];
  failure: string[];
}

const missing = pythonClientMissing();

test('python3-kubernetes Watch().stream through each replica sees ADDED, MODIFIED, DELETED of writes through another, and bookmarks', { skip: missing ?? false, timeout: 180_000 }, async (t) => {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  const kubeconfig = readFileSync(fixture.cluster.kubeconfigPath, 'utf8');
  const kubeconfigs = fixture.cluster.replicas.map((replica, i) => {
    const path = join(fixture.dataDir, `kubeconfig-replica-${i + 1}`);
    writeFileSync(path, pointedAt(kubeconfig, replica.apiUrl));
    return path;
  });
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(pythonPath, [scriptPath, 'py-watch', ...kubeconfigs], { timeout: 120_000 }, (error, out, err) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout: out, stderr: err });
    });
  });
  const results = stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as ReplicaResult);
  assert.deepEqual(results.map((r) => [r.watched, r.written]), [[1, 2], [2, 3], [3, 1]], `${stdout}\n${stderr}`);
  for (const result of results) {
    assert.deepEqual(result.failure, [], `replica ${result.watched}`);
    assert.deepEqual(result.events, [['ADDED', 'seed', 'seed'], ['ADDED', 'probe', 'v1'], ['MODIFIED', 'probe', 'v2'], ['DELETED', 'probe', 'v2']], `replica ${result.watched}'s watch`);
    assert.ok(result.bookmarks.length > 0 && result.bookmarks.every((rv) => /^[1-9]\d*$/.test(rv)), `replica ${result.watched} sent a bookmark before the watch's deadline: ${JSON.stringify(result.bookmarks)}`);
  }
  assert.equal(code, 0, stderr);
});
