// The storage conformance suite against the real thing: a follower of a 3-replica Raft group.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runStorageTests, type StorageFactoryOptions } from '../../unit/storage/conformance.ts';
import { bytes, text } from '../../unit/storage/conformance-support.ts';
import { RaftStorageCluster } from './raft-storage-cluster.ts';

runStorageTests('replicated storage on a follower of a real 3-replica Raft group', async (options: StorageFactoryOptions = {}) => {
  const cluster = await RaftStorageCluster.start(options);
  const follower = await cluster.followerIndex();
  const current = (): NonNullable<(typeof cluster.replicas)[number]> => {
    const replica = cluster.replicas[follower];
    if (replica === null || replica === undefined) throw new Error('follower is stopped');
    return replica;
  };
  return {
    storage: current().storage,
    restart: async () => {
      await cluster.stopReplica(follower);
      return (await cluster.startReplica(follower)).storage;
    },
    cleanup: () => cluster.close(),
  };
});

describe('replicated storage over Raft', () => {
  it('a follower relays a write to the leader on the Raft stream (no ForwardBatch call) and answers from its own apply', async () => {
    const cluster = await RaftStorageCluster.start();
    try {
      const replica = cluster.replicas[await cluster.followerIndex()];
      assert.ok(replica !== null && replica !== undefined);
      const before = replica.node.metrics();
      const kvs = await Promise.all(Array.from({ length: 20 }, (_, i) => replica.storage.create(`/relayed/${i}`, bytes(`${i}`))));
      const after = replica.node.metrics();
      assert.ok(after.relayedProposals - before.relayedProposals >= 20, 'every write was relayed');
      assert.equal(after.forwardBatches, before.forwardBatches, 'no ForwardBatch call');
      for (const [i, kv] of kvs.entries()) {
        // Read-your-writes: the answer came after this replica applied it.
        assert.equal(text((await replica.storage.get(`/relayed/${i}`, { consistency: 'local' }))?.value ?? bytes('')), `${i}`);
        assert.equal(kv.createRevision, kv.modRevision);
      }
      assert.equal(new Set(kvs.map((kv) => kv.modRevision)).size, 20, 'one revision per write');
    } finally {
      await cluster.close();
    }
  });

  it('a replica that missed writes while stopped catches up from a snapshot and serves them', async () => {
    const cluster = await RaftStorageCluster.start({ snapshotEveryEntries: 20 });
    try {
      const follower = await cluster.followerIndex();
      await cluster.stopReplica(follower);
      const leader = cluster.replicas[await cluster.leaderIndex()]?.storage;
      assert.ok(leader !== undefined);
      for (let i = 0; i < 60; i += 1) await leader.create(`/s/${i}`, bytes(`${i}`));
      const revision = await leader.currentRevision();
      const back = (await cluster.startReplica(follower)).storage;
      await back.waitForRevision(revision, 10_000);
      const list = await back.list({ prefix: '/s/', consistency: 'local' });
      assert.equal(list.items.length, 60);
      assert.equal(text(list.items[0]?.value ?? bytes('')), '0');
      const kv = await back.update('/s/0', bytes('after'));
      assert.equal(kv.modRevision, revision + 1);
    } finally {
      await cluster.close();
    }
  });
});
