// Diagnostic: how many writes one leader commits per Raft persist transaction under concurrency.
import { RaftStorageCluster } from '../test/integration/storage/raft-storage-cluster.ts';

const concurrency = Number(process.argv[2] ?? 256);
const total = Number(process.argv[3] ?? 2000);
const onLeaderOnly = process.argv[4] === 'leader';
const cluster = await RaftStorageCluster.start();
try {
  const replicas = cluster.replicas.filter((r) => r !== null);
  const leader = replicas.find((r) => r?.node.isLeader()) ?? replicas[0];
  const value = new TextEncoder().encode('x'.repeat(1024));
  const before = leader?.node.metrics();
  const forwardsOf = () => replicas.reduce((sum, r) => ({ batches: sum.batches + (r?.node.metrics().forwardBatches ?? 0), commands: sum.commands + (r?.node.metrics().forwardedCommands ?? 0) }), { batches: 0, commands: 0 });
  const forwardsBefore = forwardsOf();
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < total; i = next++) {
      const r = onLeaderOnly ? leader : replicas[i % replicas.length];
      await r?.storage.create(`/probe/${i}`, value);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const after = leader?.node.metrics();
  const forwardsAfter = forwardsOf();
  console.log(JSON.stringify({ concurrency, total, onLeaderOnly, opsPerSecond: Math.round(total / seconds), persistTransactions: (after?.persistTransactions ?? 0) - (before?.persistTransactions ?? 0), persistedEntries: (after?.persistedEntries ?? 0) - (before?.persistedEntries ?? 0), forwardBatches: forwardsAfter.batches - forwardsBefore.batches, forwardedCommands: forwardsAfter.commands - forwardsBefore.commands }));
} finally {
  await cluster.close();
}
