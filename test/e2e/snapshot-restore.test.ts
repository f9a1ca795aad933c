// Issue 27, second acceptance item: `orchctl snapshot save` while writes run, then `orchctl
// snapshot restore` three times into fresh data directories of a new 3-replica cluster on other
// ports, with the old cluster's certificates (as an operator restoring their cluster would). The
// new cluster serves every object exactly as the old one listed it at the snapshot's revision
// (same resourceVersions), accepts writes, and has a cluster id of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrchClient } from '../../internal/client/client.ts';
import { replicaNames, startLocalCluster, type LocalCluster } from '../../internal/cluster/local-cluster.ts';
import { TestApiClient } from '../support/api-client.ts';
import { fastRaftArgs } from '../support/cluster-fixture.ts';
import { freePorts } from '../support/free-ports.ts';
import { orchctlOk } from '../support/orchctl-runner.ts';
import { replicaReadyTimeoutMs, startLoggedCluster } from '../support/logged-cluster.ts';
import { ReplicaLogBuffer, withReplicaLogs } from '../support/replica-log-buffer.ts';
import { storedOn } from '../support/replica-objects.ts';
import { WriteLoad } from '../support/write-load.ts';

const label = 'snapshot';

/** The snapshot file's header, as `orchctl snapshot save -o json` prints it under `header`. */
interface SnapshotHeader {
  readonly revision: number;
  readonly raftIndex: number;
  readonly clusterId: string;
  readonly sha256: string;
}

/** Collections compared between the old cluster at the snapshot's revision and the restored one. */
const comparedCollections = ['/api/v1/configmaps', '/api/v1/namespaces', '/api/v1/serviceaccounts', '/apis/rbac.authorization.k8s.io/v1/clusterroles'];

/** namespace/name -> resourceVersion and content (without managedFields' timestamps: none change) of a list. */
async function listed(client: TestApiClient, collection: string, query: string): Promise<Map<string, string>> {
  const res = await client.call('GET', `${collection}${query}`);
  assert.equal(res.status, 200, `GET ${collection}${query}: ${res.text}`);
  const list = res.json as { items: { metadata: { namespace?: string; name: string; resourceVersion: string } }[] };
  return new Map(list.items.map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name}`, JSON.stringify(o)]));
}

/** `orchctl status -o json`'s cluster ids and member names. */
async function clusterIds(kubeconfig: string): Promise<{ ids: string[]; voters: string[] }> {
  const report = JSON.parse(await orchctlOk(['status', '-o', 'json'], { kubeconfig })) as {
    replicas: { reachable: boolean; status?: { clusterId: string } }[];
    membership: { members: { name: string; role: string }[] } | null;
  };
  return {
    ids: report.replicas.map((r) => (r.reachable ? r.status?.clusterId ?? '' : 'unreachable')),
    voters: (report.membership?.members ?? []).filter((m) => m.role === 'voter').map((m) => m.name).sort(),
  };
}

test('a snapshot saved during writes restores into a new cluster with every object at its resourceVersion, a new cluster id, and accepting writes', { timeout: 400_000 }, async (t) => {
  const fixture = await startLoggedCluster();
  const old = fixture.cluster;
  const newRoot = mkdtempSync(join(tmpdir(), 'orch-e2e-restored-'));
  // Set once the restored cluster runs: the cleanup stops it.
  const started: { restored?: LocalCluster } = {};
  const client = new OrchClient({ servers: old.replicas.map((r) => r.apiUrl), caPem: old.caPem, token: old.adminToken });
  const load = new WriteLoad({ client, writers: 4, label, updatesPerObject: 3 });
  t.after(async () => {
    await load.stop();
    await client.close();
    await started.restored?.stop();
    await fixture.close();
    rmSync(newRoot, { recursive: true, force: true });
  });
  await load.waitForProgress(60);

  const file = join(newRoot, 'backup.snap');
  const saved = JSON.parse(await orchctlOk(['snapshot', 'save', file, '-o', 'json'], { kubeconfig: old.kubeconfigPath })) as { file: string; from: string; header: SnapshotHeader };
  const { header } = saved;
  assert.ok(Number.isSafeInteger(header.revision) && header.revision > 0, `snapshot save names the revision: ${JSON.stringify(saved)}`);
  await load.waitForProgress(30);
  const result = await load.stop();
  assert.deepEqual(result.failures, [], 'no write failed while the snapshot was taken');
  const acknowledgedAfter = [...result.acknowledged.values()].filter((a) => a.resourceVersion > header.revision);
  assert.ok(acknowledgedAfter.length > 0, `writes went on after the snapshot (revision ${header.revision})`);

  // The old cluster's objects at the snapshot's revision: what the restored cluster must hold.
  const oldReader = new TestApiClient(old.replicas[0]?.apiUrl ?? '', old.caPem, old.adminToken);
  t.after(() => oldReader.close());
  const atRevision = `?resourceVersion=${header.revision}&resourceVersionMatch=Exact`;
  const expected = await Promise.all(comparedCollections.map((c) => listed(oldReader, c, atRevision)));
  const acknowledgedBefore = [...result.acknowledged.values()].filter((a) => a.resourceVersion <= header.revision).length;
  t.diagnostic(`snapshot at revision ${header.revision} (raft index ${header.raftIndex}) from ${saved.from}; ${acknowledgedBefore} acknowledged objects before it, ${acknowledgedAfter.length} after; ${expected.reduce((n, m) => n + m.size, 0)} objects compared`);

  // Restore each member of the new cluster from the same file, on new ports, with the old certificates.
  const names = replicaNames(3);
  const ports = await freePorts(6);
  const peers = names.map((n, i) => `${n}=127.0.0.1:${ports[3 + i]}`).join(',');
  for (const name of names) {
    await orchctlOk(['snapshot', 'restore', file, '--data-dir', join(newRoot, name), '--name', name, '--peers', peers]);
  }
  cpSync(join(fixture.dataDir, 'pki'), join(newRoot, 'pki'), { recursive: true });
  cpSync(join(fixture.dataDir, 'admin-token'), join(newRoot, 'admin-token'));
  // Its own log buffer: its replicas have the old ones' names.
  const restoredLogs = new ReplicaLogBuffer();
  const restored = await withReplicaLogs(restoredLogs, names, () => startLocalCluster({
    dataDir: newRoot, host: '127.0.0.1', apiPorts: ports.slice(0, 3), peerPorts: ports.slice(3),
    kubeconfigPath: join(newRoot, 'kubeconfig'), output: restoredLogs, readyTimeoutMs: replicaReadyTimeoutMs, extraArgs: fastRaftArgs,
  }));
  started.restored = restored;

  // Every object as of the snapshot, on every restored replica, with the same resourceVersion and content.
  for (const replica of restored.replicas) {
    const reader = new TestApiClient(replica.apiUrl, restored.caPem, restored.adminToken);
    try {
      for (const [i, collection] of comparedCollections.entries()) {
        const now = await listed(reader, collection, '');
        for (const [key, object] of expected[i] ?? new Map<string, string>()) {
          assert.equal(now.get(key), object, `${replica.spec.name}: ${collection} ${key} as of revision ${header.revision}`);
        }
      }
    } finally {
      await reader.close();
    }
    const { objects } = await storedOn(replica.apiUrl, restored.caPem, restored.adminToken, label);
    for (const ack of result.acknowledged.values()) {
      if (ack.resourceVersion <= header.revision) assert.deepEqual(objects.get(ack.name), { resourceVersion: ack.resourceVersion, value: ack.value }, `${replica.spec.name}: acknowledged ${ack.name}`);
    }
    assert.ok([...objects.values()].every((o) => o.resourceVersion <= header.revision), `${replica.spec.name}: nothing written after the snapshot`);
  }

  // The restored cluster accepts writes, after the snapshot's revision.
  const restoredClient = new OrchClient({ servers: restored.replicas.map((r) => r.apiUrl), caPem: restored.caPem, token: restored.adminToken });
  t.after(() => restoredClient.close());
  const created = await restoredClient.create<{ metadata: { resourceVersion: string } }>('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-restore' }, data: { v: '1' } });
  assert.ok(Number(created.metadata.resourceVersion) > header.revision, 'a write after the restore gets a later revision');

  const before = await clusterIds(old.kubeconfigPath);
  const after = await clusterIds(restored.kubeconfigPath);
  assert.deepEqual(new Set(after.ids).size, 1, `every restored replica answers with one cluster id: ${after.ids.join(', ')}`);
  assert.notEqual(after.ids[0], header.clusterId, 'the restored cluster has a new cluster id');
  assert.ok(before.ids.includes(header.clusterId), 'the snapshot names the old cluster id');
  assert.deepEqual(after.voters, names, 'the restored membership is --peers');
});
