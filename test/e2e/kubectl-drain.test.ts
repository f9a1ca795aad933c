// `kubectl drain` of a (fake) node against a 3-replica cluster: pods bound through pods/binding,
// made Ready through pods/status, covered by PodDisruptionBudgets whose status the disruption
// controller computes on the leader; evictions go through pods/eviction on any replica.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import type { TestApiClient } from '../support/api-client.ts';
import { kubectlPath, kubectlTarget } from '../support/kubectl-runner.ts';

const run = promisify(execFile);

/** Runs kubectl through replica `replica`; resolves with its exit code and output (never throws for a failing command). */
async function kubectl(fixture: ClusterFixture, args: string[], replica = 0, timeoutMs = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  const context = fixture.cluster.replicas[replica]?.spec.name ?? 'orch-1';
  try {
    const { stdout, stderr } = await run(kubectlPath, [...kubectlTarget(fixture.cluster.kubeconfigPath, context), ...args], { timeout: timeoutMs });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

async function ok(client: TestApiClient, method: string, path: string, body: unknown, contentType?: string): Promise<Record<string, unknown>> {
  const res = await client.call(method, path, { body, ...(contentType ? { contentType } : {}) });
  assert.ok(res.status === 200 || res.status === 201, `${method} ${path}: ${res.status} ${res.text}`);
  return res.json as Record<string, unknown>;
}

/** A pod owned by the ReplicaSet `owner`, bound to `node` through pods/binding and made Running and Ready through pods/status. */
async function readyPod(fixture: ClusterFixture, name: string, app: string, node: string, owner: { name: string; uid: string }): Promise<void> {
  const [a, b, c] = fixture.clients as [TestApiClient, TestApiClient, TestApiClient];
  const pods = '/api/v1/namespaces/default/pods';
  const ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }];
  await ok(a, 'POST', pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app }, ownerReferences }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } });
  await ok(b, 'POST', `${pods}/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
  await ok(c, 'PATCH', `${pods}/${name}/status`, { status: { phase: 'Running', podIP: '10.244.0.10', conditions: [{ type: 'Ready', status: 'True' }] } }, 'application/merge-patch+json');
}

async function replicaSet(client: TestApiClient, app: string): Promise<{ name: string; uid: string }> {
  const rs = await ok(client, 'POST', '/apis/apps/v1/namespaces/default/replicasets', {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: app },
    spec: { replicas: 0, selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } } },
  });
  return { name: app, uid: String((rs.metadata as { uid: string }).uid) };
}

/** Waits until the budget's status says `allowed` disruptions for its generation (the controller runs on the leader). */
async function budgetAllows(fixture: ClusterFixture, name: string, allowed: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = '';
  while (Date.now() < deadline) {
    const res = await fixture.clients[1]?.call('GET', `/apis/policy/v1/namespaces/default/poddisruptionbudgets/${name}`);
    const pdb = res?.json as { metadata: { generation: number }; status?: { disruptionsAllowed?: number; observedGeneration?: number } } | undefined;
    last = res?.text ?? '';
    if (pdb?.status?.observedGeneration === pdb?.metadata.generation && pdb?.status?.disruptionsAllowed === allowed) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`budget ${name} never allowed ${allowed}: ${last}`);
}

async function podExists(fixture: ClusterFixture, name: string): Promise<boolean> {
  return (await fixture.clients[2]?.call('GET', `/api/v1/namespaces/default/pods/${name}`))?.status === 200;
}

test('kubectl drain evicts the pods a budget lets go, and retries on 429 until its timeout while a budget forbids it', { timeout: 600_000 }, async (t) => {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  const [client] = fixture.clients as [TestApiClient];
  for (const node of ['drain-node', 'other-node']) await ok(client, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } });

  // cordon and uncordon flip spec.unschedulable.
  assert.match((await kubectl(fixture, ['cordon', 'drain-node'], 1)).stdout, /node\/drain-node cordoned/);
  assert.match((await kubectl(fixture, ['get', 'node', 'drain-node'], 2)).stdout, /SchedulingDisabled/);
  assert.match((await kubectl(fixture, ['uncordon', 'drain-node'], 2)).stdout, /node\/drain-node uncordoned/);
  assert.doesNotMatch((await kubectl(fixture, ['get', 'node', 'drain-node'], 0)).stdout, /SchedulingDisabled/);

  // Three ready pods, two on the node to drain; the budget keeps one: two disruptions allowed.
  const web = await replicaSet(client, 'web');
  for (const [name, node] of [['web-1', 'drain-node'], ['web-2', 'drain-node'], ['web-3', 'other-node']] as const) await readyPod(fixture, name, 'web', node, web);
  assert.match((await kubectl(fixture, ['create', 'pdb', 'web-pdb', '--selector=app=web', '--min-available=1'], 1)).stdout, /poddisruptionbudget.policy\/web-pdb created/);
  await budgetAllows(fixture, 'web-pdb', 2);

  const drained = await kubectl(fixture, ['drain', 'drain-node', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=60s'], 2);
  assert.equal(drained.code, 0, `${drained.stdout}\n${drained.stderr}`);
  assert.match(drained.stdout, /pod\/web-1 evicted/);
  assert.match(drained.stdout, /pod\/web-2 evicted/);
  assert.match(drained.stdout, /node\/drain-node drained/);
  assert.equal(await podExists(fixture, 'web-1'), false);
  assert.equal(await podExists(fixture, 'web-2'), false);
  assert.equal(await podExists(fixture, 'web-3'), true);
  assert.match((await kubectl(fixture, ['get', 'node', 'drain-node'], 0)).stdout, /SchedulingDisabled/);
  assert.match((await kubectl(fixture, ['uncordon', 'drain-node'], 0)).stdout, /uncordoned/);

  // A budget that must keep its only pod: drain retries the eviction on 429 and gives up at its timeout.
  const solo = await replicaSet(client, 'solo');
  await readyPod(fixture, 'solo-1', 'solo', 'drain-node', solo);
  assert.match((await kubectl(fixture, ['create', 'pdb', 'solo-pdb', '--selector=app=solo', '--min-available=1'], 0)).stdout, /created/);
  await budgetAllows(fixture, 'solo-pdb', 0);
  const blocked = await kubectl(fixture, ['drain', 'drain-node', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=12s'], 1);
  assert.notEqual(blocked.code, 0, `${blocked.stdout}\n${blocked.stderr}`);
  const output = `${blocked.stdout}\n${blocked.stderr}`;
  assert.match(output, /error when evicting pods\/"solo-1" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./);
  assert.match(output, /drain did not complete within 12s|global timeout reached/);
  assert.equal(await podExists(fixture, 'solo-1'), true);
});
