// The replicated store over a fake 3-replica log: the conformance suite on a follower, and what
// replication adds (relaying, read-your-writes, at-most-once retries, identical replicas, snapshots).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openReplicatedStorage } from '../../../internal/storage/open-replicated-storage.ts';
import type { Storage } from '../../../internal/storage/storage.ts';
import { runStorageTests, type StorageFactoryOptions } from './conformance.ts';
import { bytes, collect, eventRevision, rejectsWithCode, text } from './conformance-support.ts';
import { FakeCluster } from './fake-replication.ts';

runStorageTests('replicated storage on a follower of a fake 3-replica log', async (options: StorageFactoryOptions = {}) => {
  const cluster = await FakeCluster.start(options);
  return {
    storage: cluster.storage(1),
    restart: () => cluster.restart(1),
    cleanup: () => cluster.stop(),
  };
});

/** Every replica's full state: all live keys with revisions, at the same revision. */
async function dump(storage: Storage): Promise<string> {
  const list = await storage.list({ prefix: '', consistency: 'local' });
  return JSON.stringify([list.revision, storage.compactedRevision(), list.items.map((kv) => [kv.key, text(kv.value), kv.createRevision, kv.modRevision])]);
}

async function withCluster(body: (cluster: FakeCluster) => Promise<void>, lagMs = 1): Promise<void> {
  const cluster = await FakeCluster.start({ followerLagMs: lagMs });
  try {
    await body(cluster);
  } finally {
    await cluster.stop();
  }
}

describe('replicated storage', () => {
  it('writes through any replica leave every replica with the same state', () =>
    withCluster(async (cluster) => {
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 30; i += 1) writes.push(cluster.storage(i % 3).create(`/k/${i}`, bytes(`${i}`)));
      await Promise.all(writes);
      await cluster.storage(2).update('/k/1', bytes('u'));
      await cluster.storage(0).delete('/k/2');
      await cluster.storage(1).compact(await cluster.storage(1).currentRevision());
      for (let id = 0; id < 3; id += 1) await cluster.storage(id).currentRevision(); // ReadIndex: caught up
      const states = await Promise.all([0, 1, 2].map((id) => dump(cluster.storage(id))));
      assert.equal(states[1], states[0]);
      assert.equal(states[2], states[0]);
    }));

  it('a write acknowledged by a follower is visible in its local reads and watchers at once', () =>
    withCluster(async (cluster) => {
      const follower = cluster.storage(2);
      const watcher = follower.watch({ prefix: '/', afterRevision: follower.localRevision() });
      try {
        const kv = await follower.create('/mine', bytes('x'));
        assert.equal((await follower.get('/mine', { consistency: 'local' }))?.modRevision, kv.modRevision);
        const [event] = await collect(watcher, (events) => events.length >= 1);
        assert.equal(event === undefined ? -1 : eventRevision(event), kv.modRevision);
      } finally {
        watcher.stop();
      }
    }, 30));

  it('a proposal retried after a lost answer applies once and returns the original result', () =>
    withCluster(async (cluster) => {
      cluster.dropNextAnswer = true;
      const kv = await cluster.storage(0).create('/once', bytes('x'));
      assert.equal(cluster.log.length, 2, 'the retry reached the log too');
      assert.equal(await cluster.storage(0).currentRevision(), kv.modRevision, 'but used one revision');
      cluster.dropNextAnswer = true;
      const deleted = await cluster.storage(1).delete('/once');
      assert.equal(text(deleted.value), 'x');
      assert.equal(await cluster.storage(1).currentRevision(), kv.modRevision + 1);
    }));

  it('a write whose every relay was refused before reaching the log fails with Unavailable (safe to repeat)', () =>
    withCluster(async (cluster) => {
      cluster.refuseRelays = true;
      await rejectsWithCode(() => cluster.storage(1).create('/refused', bytes('x')), 'Unavailable');
      assert.equal(cluster.log.length, 0);
    }));

  it('a write whose every relay was lost on the way fails with Indeterminate: it may still apply', () =>
    withCluster(async (cluster) => {
      cluster.relaysToLose = Number.POSITIVE_INFINITY;
      await rejectsWithCode(() => cluster.storage(1).create('/unknown', bytes('x')), 'Indeterminate');
      assert.equal(cluster.log.length, 0);
    }));

  it('a relay lost on the way to the leader is relayed again and the write succeeds', () =>
    withCluster(async (cluster) => {
      cluster.relaysToLose = 1;
      const kv = await cluster.storage(1).create('/lost-once', bytes('x'));
      assert.equal(cluster.log.length, 1);
      assert.equal(text((await cluster.storage(1).get('/lost-once', { consistency: 'local' }))?.value ?? bytes('')), 'x');
      assert.equal(kv.modRevision, await cluster.storage(0).currentRevision());
    }));

  it('a relay the follower was slow to apply is relayed again, and the duplicates apply once with the first result', () =>
    withCluster(async (cluster) => {
      // Followers apply 200 ms after the leader: each 50 ms attempt times out and relays again.
      const kv = await cluster.storage(1).create('/slow-follower', bytes('x'));
      assert.ok(cluster.log.length > 1, 'the command reached the log more than once');
      assert.equal(await cluster.storage(1).currentRevision(), kv.modRevision, 'but used one revision');
      assert.equal(kv.createRevision, kv.modRevision);
    }, 200));

  it('a follower retries a write on the new leader after a leader change', () =>
    withCluster(async (cluster) => {
      cluster.leader = 2;
      const kv = await cluster.storage(1).create('/after-change', bytes('x'));
      cluster.leader = 0;
      const updated = await cluster.storage(2).update('/after-change', bytes('y'), { expectedRevision: kv.modRevision });
      assert.equal(updated.modRevision, kv.modRevision + 1);
    }));

  it('without a log attached, writes and linearizable reads fail with Unavailable', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orch-unattached-'));
    const storage = await openReplicatedStorage({ dataDir, replicaName: 'lonely' });
    try {
      await rejectsWithCode(() => storage.create('/k', bytes('x')), 'Unavailable');
      await rejectsWithCode(() => storage.get('/k'), 'Unavailable');
      assert.equal(await storage.get('/k', { consistency: 'local' }), null);
    } finally {
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a snapshot restores a replica to the same state, and its watchers continue without a gap', () =>
    withCluster(async (cluster) => {
      const leader = cluster.storage(0);
      const start = leader.localRevision();
      for (let i = 0; i < 10; i += 1) await leader.create(`/s/${i}`, bytes(`${i}`));
      const dir = mkdtempSync(join(tmpdir(), 'orch-snapshot-'));
      try {
        const file = join(dir, 'snap.db');
        const { appliedIndex } = await leader.stateMachine.snapshotTo(file);
        assert.equal(appliedIndex, cluster.log.length);
        const fresh = await openReplicatedStorage({ dataDir: join(dir, 'fresh'), replicaName: 'fresh' });
        try {
          const watcher = fresh.watch({ prefix: '/s/', afterRevision: start });
          const early = collect(watcher, (events) => events.length >= 10);
          fresh.stateMachine.restoreFrom(file);
          assert.equal(fresh.stateMachine.appliedIndex(), appliedIndex);
          assert.equal(await dump(fresh), await dump(leader));
          const events = await early;
          assert.deepEqual(events.map(eventRevision), Array.from({ length: 10 }, (_, i) => start + i + 1));
          watcher.stop();
        } finally {
          await fresh.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }));

  it('only the leader compacts for retention, and every replica follows', async () => {
    const cluster = await FakeCluster.start({ retentionMs: 100 });
    try {
      await cluster.storage(1).create('/k', bytes('1'));
      const kv = await cluster.storage(2).update('/k', bytes('2'));
      const deadline = Date.now() + 15_000;
      while ([0, 1, 2].some((id) => cluster.storage(id).compactedRevision() < kv.modRevision)) {
        assert.ok(Date.now() < deadline, 'retention compaction did not reach every replica');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const compactions = cluster.log.filter((data) => data.length > 0 && text(data).includes('compact'));
      assert.ok(compactions.length >= 1);
    } finally {
      await cluster.stop();
    }
  });
});
