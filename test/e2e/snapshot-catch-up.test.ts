// A replica that was down while the log was compacted past it catches up from a snapshot
// (streamed over the peer transport) and then serves exactly the same data as the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startClusterFixture } from '../support/cluster-fixture.ts';
import type { TestApiClient } from '../support/api-client.ts';

const namespacePath = '/api/v1/namespaces/default/configmaps';

async function gauge(client: TestApiClient, name: string): Promise<number> {
  const res = await client.call('GET', '/metrics');
  const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(res.text);
  assert.ok(match, `${name} missing from /metrics`);
  return Number(match[1]);
}

async function listNamesAndVersions(client: TestApiClient): Promise<string[]> {
  const res = await client.call('GET', namespacePath);
  assert.equal(res.status, 200, res.text);
  return (res.json as { items: { metadata: { name: string; resourceVersion: string } }[] }).items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`);
}

test('a replica behind the compacted log catches up by snapshot and serves identical data', { timeout: 300_000 }, async (t) => {
  const fixture = await startClusterFixture({ extraArgs: ['--snapshot-every-entries', '100', '--snapshot-catch-up-entries', '20'] });
  t.after(() => fixture.close());
  const leader = await fixture.leader();
  assert.ok(leader);
  const down = fixture.cluster.replicas.find((r) => r.spec.name !== leader);
  assert.ok(down?.process);
  const downIndex = fixture.cluster.replicas.indexOf(down);
  const downClient = fixture.clients[downIndex];
  const leaderClient = fixture.clients[fixture.cluster.replicas.findIndex((r) => r.spec.name === leader)];
  assert.ok(downClient && leaderClient);
  const appliedBefore = await gauge(downClient, 'orch_raft_applied_index');

  const exited = new Promise((resolve) => down.process?.once('exit', resolve));
  fixture.cluster.signal(down.spec.name, 'SIGKILL');
  await exited;
  for (let i = 0; i < 400; i += 1) {
    const res: { status: number; text: string } = await leaderClient.call('POST', namespacePath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `s${i}` }, data: { i: String(i) } } });
    assert.equal(res.status, 201, res.text);
  }
  let snapshotIndex = 0;
  for (let i = 0; i < 50 && snapshotIndex <= appliedBefore + 20; i += 1) {
    snapshotIndex = await gauge(leaderClient, 'orch_raft_snapshot_index');
    if (snapshotIndex <= appliedBefore + 20) await sleep(100);
  }
  assert.ok(snapshotIndex > appliedBefore + 20, `the leader compacted its log (snapshot at ${snapshotIndex}) past the stopped replica (applied ${appliedBefore})`);

  fixture.cluster.restart(down.spec.name);
  await fixture.cluster.waitReady([down.spec.name], 60_000);
  const expected = await listNamesAndVersions(leaderClient);
  // Beside the test's 400, the namespace holds kube-root-ca.crt from the controllers.
  assert.equal(expected.filter((e) => /^s\d+@/.test(e)).length, 400);
  assert.deepEqual(await listNamesAndVersions(downClient), expected);
  assert.ok((await gauge(downClient, 'orch_raft_snapshot_index')) >= snapshotIndex, 'the restarted replica installed a snapshot');
});
