// orchctl as a process against a real 3-replica cluster: status, objects (apply, get, delete,
// watch) and snapshots, through the admin kubeconfig the cluster writes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { repoRoot } from '../../internal/cluster/build-layout.ts';
import { moduleInBuild } from '../support/fork-entry-point.ts';

interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const orchctl = moduleInBuild('cmd/orchctl.ts');
let fixture: ClusterFixture;

before(async () => {
  fixture = await startClusterFixture();
});

after(async () => {
  await fixture?.close();
});

/** Runs orchctl with the cluster's kubeconfig (through $KUBECONFIG); never throws for a non-zero exit. */
// The working directory is the repository (a child run through tsx resolves it from there); files are absolute.
function run(args: readonly string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...orchctl.execArgv, orchctl.path, ...args], { timeout: 60_000, cwd: repoRoot, env: { ...process.env, KUBECONFIG: fixture.cluster.kubeconfigPath } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

function ok(result: RunResult, what: string): string {
  assert.equal(result.code, 0, `${what} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** Whether the replicas serve the maintenance API yet (docs/operations.md). */
async function maintenanceApiServed(): Promise<boolean> {
  const answer = await fixture.clients[0]?.call('GET', '/orch/v1/status').catch(() => null);
  return answer?.status === 200;
}

const manifests = `apiVersion: v1
kind: Namespace
metadata:
  name: orchctl-e2e
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: orchctl-e2e
  labels: { app: web }
data:
  mode: fast
`;

test('apply, get (table, json, name, selector) and delete objects as a process', async () => {
  const file = join(fixture.dataDir, 'objects.yaml');
  writeFileSync(file, manifests);
  assert.equal(ok(await run(['apply', '-f', file]), 'apply'), 'namespace/orchctl-e2e serverside-applied\nconfigmap/settings serverside-applied\n');

  const table = ok(await run(['get', 'cm', '-n', 'orchctl-e2e']), 'get table');
  assert.match(table, /^NAME\s+DATA\s+AGE\n/);
  assert.match(table, /^settings\s+1\s+\S+$/m);
  const all = ok(await run(['get', 'configmaps', '-A', '-l', 'app=web']), 'get -A');
  assert.match(all, /^NAMESPACE\s+NAME\s+DATA\s+AGE\norchctl-e2e\s+settings\s+1\s/);
  const object = JSON.parse(ok(await run(['get', 'configmap', 'settings', '-n', 'orchctl-e2e', '-o', 'json']), 'get json')) as { data: Record<string, string>; metadata: { managedFields: { manager: string; operation: string }[] } };
  assert.deepEqual(object.data, { mode: 'fast' });
  assert.ok(object.metadata.managedFields.some((f) => f.manager === 'orchctl' && f.operation === 'Apply'));
  assert.match(ok(await run(['get', 'namespaces', 'orchctl-e2e', '-o', 'name']), 'get name'), /^namespace\/orchctl-e2e\n$/);

  // Another manager takes data.mode: orchctl's apply is refused with a hint, --force-conflicts takes it back.
  const other = await fixture.clients[0]?.call('PATCH', '/api/v1/namespaces/orchctl-e2e/configmaps/settings?fieldManager=other&force=true', {
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'orchctl-e2e' }, data: { mode: 'other' } }),
    contentType: 'application/apply-patch+yaml',
  });
  assert.equal(other?.status, 200, other?.text);
  writeFileSync(file, manifests.replace('fast', 'slow'));
  const conflict = await run(['apply', '-f', file]);
  assert.equal(conflict.code, 1);
  assert.match(conflict.stderr, /^error: configmap\/settings \([^)]*\): [^\n]*; apply with --force-conflicts to take over those fields\n$/);
  ok(await run(['apply', '-f', file, '--force-conflicts']), 'apply --force-conflicts');
  assert.match(ok(await run(['get', 'cm', 'settings', '-n', 'orchctl-e2e', '-o', 'yaml']), 'get yaml'), /^ {2}mode: slow$/m);

  assert.equal(ok(await run(['delete', 'cm', 'settings', '-n', 'orchctl-e2e']), 'delete'), 'configmap/settings deleted\n');
  const gone = await run(['get', 'cm', 'settings', '-n', 'orchctl-e2e']);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /^error: [^\n]*404 NotFound[^\n]*\n$/);
  const unknown = await run(['get', 'widgets']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^error: the server doesn't have a resource type "widgets"/);
});

test('watch prints one line per change and stops on SIGINT', async () => {
  const child = spawn(process.execPath, [...orchctl.execArgv, orchctl.path, 'watch', 'configmaps', '-n', 'default', '--kubeconfig', fixture.cluster.kubeconfigPath], { stdio: ['ignore', 'pipe', 'pipe'], cwd: repoRoot });
  try {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const file = join(fixture.dataDir, 'watched.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: watched, namespace: default }\ndata: { a: "1" }\n');
    const deadline = Date.now() + 30_000;
    // Apply until the watch reports it: the watch may still be starting when the first apply lands.
    while (!/ADDED configmap\/watched -n default resourceVersion=\d+/.test(out) && Date.now() < deadline) {
      ok(await run(['apply', '-f', file]), 'apply watched');
      await new Promise((r) => setTimeout(r, 300));
    }
    assert.match(out, /ADDED configmap\/watched -n default resourceVersion=\d+/, err);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    assert.equal(await exited, 0, err);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

test('status shows the three replicas, one leader, and the membership', async (t) => {
  if (!(await maintenanceApiServed())) return t.todo('the replicas do not serve /orch/v1/status yet (maintenance API not wired)');
  const json = JSON.parse(ok(await run(['status', '-o', 'json']), 'status -o json')) as { replicas: { reachable: boolean; status?: { role: string; clusterId: string } }[]; membership: { members: unknown[] } };
  assert.equal(json.replicas.length, 3);
  assert.ok(json.replicas.every((r) => r.reachable));
  assert.equal(json.replicas.filter((r) => r.status?.role === 'leader').length, 1);
  assert.equal(new Set(json.replicas.map((r) => r.status?.clusterId)).size, 1);
  assert.equal(json.membership.members.length, 3);
  const table = ok(await run(['status']), 'status');
  assert.match(table, /^ENDPOINT\s+NAME\s+ROLE/);
  assert.match(table, /^MEMBER\s+ROLE\s+PEER ADDRESS/m);
  const members = ok(await run(['member', 'list']), 'member list');
  assert.equal(members.match(/^orch-\d\s+voter\s/gm)?.length, 3, members);
});

test('leader transfer hands leadership to a follower', async (t) => {
  if (!(await maintenanceApiServed())) return t.todo('the replicas do not serve /orch/v1/leader yet (maintenance API not wired)');
  const before = await fixture.leader();
  const target = ['orch-1', 'orch-2', 'orch-3'].find((n) => n !== before) ?? 'orch-1';
  assert.equal(ok(await run(['leader', 'transfer', target]), 'leader transfer'), `leader: ${target}\n`);
  const json = JSON.parse(ok(await run(['status', '-o', 'json']), 'status after transfer')) as { replicas: { status?: { name: string; role: string } }[] };
  assert.equal(json.replicas.find((r) => r.status?.role === 'leader')?.status?.name, target);
});

test('snapshot save writes a verified file that snapshot status accepts', async (t) => {
  if (!(await maintenanceApiServed())) return t.todo('the replicas do not serve /orch/v1/snapshot yet (maintenance API not wired)');
  const file = join(fixture.dataDir, 'backup.snap');
  const saved = ok(await run(['snapshot', 'save', file]), 'snapshot save');
  assert.match(saved, /^saved .*backup\.snap from https:\/\/127\.0\.0\.1:\d+\n/);
  const revision = /revision:\s+(\d+)/.exec(saved)?.[1];
  assert.ok(revision !== undefined && Number(revision) > 0, saved);
  const status = ok(await run(['snapshot', 'status', file]), 'snapshot status');
  assert.match(status, /backup\.snap: valid\n/);
  assert.match(status, new RegExp(`revision:\\s+${revision}\\n`));
  const dataDir = join(fixture.dataDir, 'restored-orch-1');
  const restored = ok(await run(['snapshot', 'restore', file, '--data-dir', dataDir, '--name', 'orch-1', '--peers', 'orch-1=127.0.0.1:7001,orch-2=127.0.0.1:7002']), 'snapshot restore');
  assert.match(restored, new RegExp(`^restored ${dataDir} from ${file}: revision ${revision}, raft index \\d+, new cluster id \\S+\\n`));
  assert.match(restored, /orch-apiserver --name orch-1 --data-dir \S+ --peer-address 127\.0\.0\.1:7001 --peers orch-1=127\.0\.0\.1:7001,orch-2=127\.0\.0\.1:7002/);
  const again = await run(['snapshot', 'restore', file, '--data-dir', dataDir, '--name', 'orch-1', '--peers', 'orch-1=127.0.0.1:7001']);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /^error: [^\n]*not empty[^\n]*\n$/);
});
