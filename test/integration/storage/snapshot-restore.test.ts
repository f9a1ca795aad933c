// Disaster recovery end to end, in process: a snapshot file of a running 3-replica store restored
// into 3 fresh data directories (other names, other ports) makes a new cluster that serves every
// object with its resourceVersion and goes on writing above it.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ensureClusterPki } from '../../../internal/certificates/index.ts';
import { openRaftStorage, type RaftStorage } from '../../../internal/storage/raft-storage.ts';
import { restoreDataDir } from '../../../internal/storage/restore-data-dir.ts';
import { snapshotHeaderFor, writeSnapshotFile } from '../../../internal/storage/snapshot-file.ts';
import type { KeyValue } from '../../../internal/storage/storage.ts';
import { SqliteLogStorage } from '../../../raft/sqlite-log-storage.ts';
import { bytes, text } from '../../unit/storage/conformance-support.ts';
import { freePorts } from '../../support/free-ports.ts';
import { RaftStorageCluster } from './raft-storage-cluster.ts';

/** Starts (or restarts) restored replica `name` from `<dir>/<name>`, without --join. */
async function startReplica(dir: string, name: string, peers: Record<string, string>): Promise<RaftStorage> {
  const pki = await ensureClusterPki(join(dir, 'pki'), Object.keys(peers));
  const pair = pki.replicas[name];
  assert.ok(pair !== undefined);
  return openRaftStorage({
    dataDir: join(dir, name), replicaName: name,
    raft: { id: name, peers, listen: peers[name] as string, tls: { ca: pki.ca.cert, cert: pair.cert, key: pair.key }, tickMs: 20, electionTicks: 10, heartbeatTicks: 1, snapshotEveryEntries: 0 },
  });
}

/** Starts the restored replicas `names` and waits for a leader. */
async function startRestored(dir: string, names: string[], peers: Record<string, string>, started: RaftStorage[]): Promise<void> {
  for (const name of names) started.push(await startReplica(dir, name, peers));
  const deadline = Date.now() + 10_000;
  while (!started.some((r) => r.node.isLeader())) {
    if (Date.now() > deadline) throw new Error('the restored cluster elected no leader');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function byKey(items: readonly KeyValue[]): Map<string, { value: string; create: number; mod: number }> {
  return new Map(items.map((kv) => [kv.key, { value: text(kv.value), create: kv.createRevision, mod: kv.modRevision }]));
}

describe('snapshot and restore', () => {
  it('a cluster restored from a snapshot file into fresh data dirs serves every object with its revision and writes above it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orch-restore-'));
    const source = await RaftStorageCluster.start();
    const restored: RaftStorage[] = [];
    try {
      const leader = source.replicas[await source.leaderIndex()];
      assert.ok(leader !== null && leader !== undefined);
      for (let i = 0; i < 12; i += 1) await leader.storage.create(`/o/${i}`, bytes(`v${i}`));
      for (let i = 0; i < 4; i += 1) await leader.storage.update(`/o/${i}`, bytes(`u${i}`));
      await leader.storage.delete('/o/11');
      const before = await leader.storage.list({ prefix: '/o/' });
      const revisionBefore = await leader.storage.currentRevision();

      // What GET /orch/v1/snapshot serves: a consistent copy, its header read from the copy.
      const follower = source.replicas[await source.followerIndex()];
      assert.ok(follower !== null && follower !== undefined);
      await follower.storage.waitForRevision(revisionBefore, 5_000);
      const copy = join(dir, 'copy.db');
      await follower.storage.stateMachine.snapshotTo(copy);
      const header = await snapshotHeaderFor(copy, { raftTerm: follower.node.status().term, clusterId: 'source', replica: 'n2' });
      const file = join(dir, 'orch.snapshot');
      await writeSnapshotFile(file, header, copy);
      assert.equal(header.revision, revisionBefore);
      await source.close();

      const names = ['r1', 'r2', 'r3'];
      const ports = await freePorts(names.length);
      const peers = Object.fromEntries(names.map((name, i) => [name, `127.0.0.1:${ports[i]}`]));
      const results = await Promise.all(names.map((name) => restoreDataDir({ snapshotFile: file, dataDir: join(dir, name), name, peers })));
      for (const result of results) assert.deepEqual(result, results[0]);
      assert.equal(results[0]?.revision, revisionBefore);
      assert.equal(results[0]?.raftIndex, header.raftIndex);
      assert.notEqual(results[0]?.clusterId, 'source');
      const log = new SqliteLogStorage(join(dir, 'r1', 'raft'));
      assert.equal(log.clusterId(), results[0]?.clusterId);
      assert.deepEqual(log.initialState().confState.voters, names);
      log.close();

      await startRestored(dir, names, peers, restored);
      for (const replica of restored) {
        assert.equal(replica.node.status().snapshotIndex, header.raftIndex);
        assert.ok(replica.storage.stateMachine.appliedIndex() >= header.raftIndex);
      }
      const newLeader = restored.find((r) => r.node.isLeader());
      assert.ok(newLeader !== undefined);
      const after = await newLeader.storage.list({ prefix: '/o/' });
      assert.deepEqual(byKey(after.items), byKey(before.items));
      assert.equal(after.items.length, 11);
      const written = await newLeader.storage.update('/o/5', bytes('after restore'));
      assert.equal(written.modRevision, revisionBefore + 1);
      const created = await newLeader.storage.create('/o/new', bytes('new'));
      assert.equal(created.createRevision, revisionBefore + 2);
      // Every restored member replicates the new writes.
      for (const replica of restored) {
        await replica.storage.waitForRevision(created.modRevision, 5_000);
        assert.equal(text((await replica.storage.get('/o/5', { consistency: 'local' }))?.value ?? bytes('')), 'after restore');
      }
      // A restored replica restarts from its own data (the snapshot file its log records is kept).
      const follower1 = restored.findIndex((r) => !r.node.isLeader());
      const name = names[follower1] as string;
      await restored[follower1]?.close();
      restored[follower1] = await startReplica(dir, name, peers);
      await restored[follower1]?.storage.waitForRevision(created.modRevision, 5_000);
      assert.equal((await restored[follower1]?.storage.get('/o/0', { consistency: 'local' }))?.modRevision, byKey(before.items).get('/o/0')?.mod);
    } finally {
      for (const replica of restored) await replica.close().catch(() => {});
      await source.close().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  });
});
