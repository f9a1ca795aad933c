// kubectl's everyday commands against a 3-replica cluster started as `make run` starts it, each
// step through a different replica than the previous one, all seeing each other's writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlPath, kubectlTarget } from '../support/kubectl-runner.ts';

const run = promisify(execFile);

/** Runs kubectl through the next replica in turn; returns stdout, or throws with stderr. */
function kubectlRotating(fixture: ClusterFixture): (args: string[], input?: string) => Promise<string> {
  let turn = 0;
  return async (args, input) => {
    const context = fixture.cluster.replicas[turn++ % fixture.cluster.replicas.length]?.spec.name ?? 'orch-1';
    const child = run(kubectlPath, [...kubectlTarget(fixture.cluster.kubeconfigPath, context), ...args], { timeout: 60_000 });
    if (input !== undefined) {
      child.child.stdin?.end(input);
    }
    try {
      const { stdout } = await child;
      return stdout;
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`kubectl --context ${context} ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
    }
  };
}

const deployment = (replicas: number, image: string): string => JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image }] } },
  },
});

test('kubectl works against every replica and each sees the others\' writes', { timeout: 600_000 }, async (t) => {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  const kubectl = kubectlRotating(fixture);

  assert.match(await kubectl(['create', 'configmap', 'settings', '--from-literal=color=blue']), /configmap\/settings created/);
  assert.match(await kubectl(['get', 'configmap', 'settings', '-o', 'yaml']), /color: blue/);
  const json = JSON.parse(await kubectl(['get', 'configmap', 'settings', '-o', 'json'])) as { data: Record<string, string>; metadata: { uid: string } };
  assert.equal(json.data.color, 'blue');
  assert.match(await kubectl(['get', 'configmaps', '-o', 'wide']), /settings/);
  assert.match(await kubectl(['describe', 'configmap', 'settings']), /color/);

  const manifest = join(fixture.dataDir, 'web.json');
  writeFileSync(manifest, deployment(2, 'nginx:1.25'));
  assert.match(await kubectl(['apply', '-f', manifest]), /deployment.apps\/web created/);
  writeFileSync(manifest, deployment(2, 'nginx:1.26'));
  assert.match(await kubectl(['apply', '-f', manifest]), /deployment.apps\/web configured/);
  assert.match(await kubectl(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']), /nginx:1.26/);

  const current = JSON.parse(await kubectl(['get', 'configmap', 'settings', '-o', 'json'])) as Record<string, unknown> & { data: Record<string, string> };
  current.data.size = 'large';
  const replaceFile = join(fixture.dataDir, 'settings.json');
  writeFileSync(replaceFile, JSON.stringify(current));
  assert.match(await kubectl(['replace', '-f', replaceFile]), /configmap\/settings replaced/);
  assert.match(await kubectl(['patch', 'configmap', 'settings', '--type=json', '-p', '[{"op":"replace","path":"/data/color","value":"green"}]']), /patched/);
  assert.match(await kubectl(['patch', 'configmap', 'settings', '--type=merge', '-p', '{"data":{"shape":"round"}}']), /patched/);
  const patched = JSON.parse(await kubectl(['get', 'configmap', 'settings', '-o', 'json'])) as { data: Record<string, string> };
  assert.deepEqual(patched.data, { color: 'green', size: 'large', shape: 'round' });

  assert.match(await kubectl(['label', 'configmap', 'settings', 'tier=backend']), /labeled/);
  assert.match(await kubectl(['annotate', 'configmap', 'settings', 'owner=team-a']), /annotated/);
  assert.match(await kubectl(['get', 'configmaps', '-l', 'tier=backend', '-o', 'name']), /configmap\/settings/);
  assert.match(await kubectl(['scale', 'deployment', 'web', '--replicas=5']), /scaled/);
  assert.equal(await kubectl(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']), '5');

  assert.match(await kubectl(['create', 'configmap', 'dry', '--from-literal=a=b', '--dry-run=server']), /configmap\/dry created \(server dry run\)/);
  await assert.rejects(kubectl(['get', 'configmap', 'dry']), /NotFound|not found/);

  const resources = await kubectl(['api-resources']);
  for (const row of [/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m, /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m]) assert.match(resources, row);
  assert.match(await kubectl(['api-versions']), /^apps\/v1$/m);
  assert.match(await kubectl(['explain', 'deployment.spec.replicas']), /replicas/);
  assert.match(await kubectl(['get', '--raw', '/readyz?verbose']), /\[\+\]raft-quorum ok/);
  assert.match(await kubectl(['get', '--raw', '/livez']), /ok/);
  const metrics = await kubectl(['get', '--raw', '/metrics']);
  assert.match(metrics, /^orch_raft_term \d+$/m);
  // Every replica appends and applies the writes above, whichever of them kubectl reached.
  assert.match(metrics, /^orch_raft_log_fsync_duration_seconds_count [1-9]\d*$/m);
  assert.match(metrics, /^orch_raft_apply_duration_seconds_count [1-9]\d*$/m);
  assert.match(metrics, /^orch_raft_proposal_commit_duration_seconds_bucket\{le="0.0001"\} \d+$/m);

  assert.match(await kubectl(['delete', 'configmap', 'settings']), /deleted/);
  await assert.rejects(kubectl(['get', 'configmap', 'settings']), /NotFound|not found/);
});
