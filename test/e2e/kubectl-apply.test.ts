// kubectl apply against a 3-replica cluster: client-side apply (strategic merge patch and the
// last-applied annotation) and server-side apply with field managers, conflicts and diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlPath, kubectlTarget } from '../support/kubectl-runner.ts';

const run = promisify(execFile);

interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs kubectl through the next replica in turn; never throws for a non-zero exit. */
function kubectlRotating(fixture: ClusterFixture): (args: string[]) => Promise<KubectlResult> {
  let turn = 0;
  return async (args) => {
    const context = fixture.cluster.replicas[turn++ % fixture.cluster.replicas.length]?.spec.name ?? 'orch-1';
    try {
      const { stdout, stderr } = await run(kubectlPath, [...kubectlTarget(fixture.cluster.kubeconfigPath, context), ...args], { timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string; message: string };
      return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
    }
  };
}

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed: ${r.stderr}`);
  return r.stdout;
}

interface Deployment {
  metadata: { annotations?: Record<string, string>; managedFields?: { manager: string; operation: string; fieldsV1: Record<string, unknown> }[] };
  spec: { replicas: number; template: { spec: { containers: { name: string; image: string; env?: { name: string; value: string }[] }[] } } };
}

const deployment = (spec: { replicas?: number; image: string; env?: Record<string, string>; sidecar?: boolean }): string =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      ...(spec.replicas !== undefined ? { replicas: spec.replicas } : {}),
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'nginx', image: spec.image, ...(spec.env ? { env: Object.entries(spec.env).map(([name, value]) => ({ name, value })) } : {}) },
            ...(spec.sidecar ? [{ name: 'sidecar', image: 'busybox:1' }] : []),
          ],
        },
      },
    },
  });

test('kubectl apply (client-side and server-side) merges, tracks owners, conflicts and diffs', { timeout: 600_000 }, async (t) => {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  const kubectl = kubectlRotating(fixture);
  const get = async (name: string): Promise<Deployment> => JSON.parse(ok(await kubectl(['get', 'deployment', name, '-o', 'json', '--show-managed-fields']), 'get')) as Deployment;
  const manifest = join(fixture.dataDir, 'web.json');

  // Client-side apply twice with edits: the second computes a strategic merge patch from the
  // last-applied annotation, so a container the manifest drops is removed and env merges by name.
  writeFileSync(manifest, deployment({ replicas: 2, image: 'nginx:1.25', env: { A: '1' }, sidecar: true }));
  assert.match(ok(await kubectl(['apply', '-f', manifest]), 'apply 1'), /deployment.apps\/web created/);
  writeFileSync(manifest, deployment({ replicas: 3, image: 'nginx:1.26', env: { A: '1', B: '2' } }));
  assert.match(ok(await kubectl(['apply', '-f', manifest]), 'apply 2'), /deployment.apps\/web configured/);
  const web = await get('web');
  assert.equal(web.spec.replicas, 3);
  assert.deepEqual(web.spec.template.spec.containers.map((c) => [c.name, c.image]), [['nginx', 'nginx:1.26']]);
  assert.deepEqual(web.spec.template.spec.containers[0]?.env, [{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
  assert.match(web.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '', /nginx:1\.26/);
  assert.ok(web.metadata.managedFields?.some((m) => m.manager === 'kubectl-client-side-apply' && m.operation === 'Update'));

  // Server-side apply by two managers: the second conflicts on the field the first owns.
  const ssa = join(fixture.dataDir, 'api.json');
  writeFileSync(ssa, deployment({ replicas: 2, image: 'nginx:1.25' }).replace('"web"', '"api"'));
  assert.match(ok(await kubectl(['apply', '--server-side', '--field-manager=alice', '-f', ssa]), 'ssa alice'), /deployment.apps\/api serverside-applied/);
  writeFileSync(ssa, deployment({ replicas: 5, image: 'nginx:1.25' }).replace('"web"', '"api"'));
  const conflict = await kubectl(['apply', '--server-side', '--field-manager=bob', '-f', ssa]);
  assert.notEqual(conflict.code, 0);
  assert.match(conflict.stderr, /conflict/i);
  assert.match(conflict.stderr, /\.spec\.replicas/);
  assert.match(conflict.stderr, /alice/);
  assert.equal((await get('api')).spec.replicas, 2, 'the conflicting apply wrote nothing');

  // kubectl diff --server-side shows what bob's forced apply would change.
  const diff = await kubectl(['diff', '--server-side', '--force-conflicts', '--field-manager=bob', '-f', ssa]);
  assert.equal(diff.code, 1, `diff exits 1 when there are differences: ${diff.stderr}`);
  assert.match(diff.stdout, /-\s+replicas: 2/);
  assert.match(diff.stdout, /\+\s+replicas: 5/);

  // --force-conflicts moves the field to bob.
  ok(await kubectl(['apply', '--server-side', '--force-conflicts', '--field-manager=bob', '-f', ssa]), 'forced apply');
  let api = await get('api');
  assert.equal(api.spec.replicas, 5);
  const owners = (field: string) => (api.metadata.managedFields ?? []).filter((m) => field in ((m.fieldsV1['f:spec'] as Record<string, unknown> | undefined) ?? {})).map((m) => m.manager).sort();
  assert.deepEqual(owners('f:replicas'), ['bob']);

  // Alice gives up replicas by dropping it from her configuration: bob still owns it, so it stays.
  writeFileSync(ssa, deployment({ image: 'nginx:1.25' }).replace('"web"', '"api"'));
  ok(await kubectl(['apply', '--server-side', '--field-manager=alice', '-f', ssa]), 'alice without replicas');
  api = await get('api');
  assert.equal(api.spec.replicas, 5);
  // Bob gives up replicas too: nobody owns it, so it is reset to its default.
  ok(await kubectl(['apply', '--server-side', '--field-manager=bob', '-f', ssa]), 'bob without replicas');
  api = await get('api');
  assert.equal(api.spec.replicas, 1);
  assert.deepEqual(owners('f:replicas'), []);
  const noDiff = await kubectl(['diff', '--server-side', '--field-manager=bob', '-f', ssa]);
  assert.equal(noDiff.code, 0, `no differences left: ${noDiff.stdout}${noDiff.stderr}`);
});
