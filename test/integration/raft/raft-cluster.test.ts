import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { RaftNodeError } from '../../../raft/errors.ts';
import { compactionStepEntries } from '../../../raft/limits.ts';
import { ToyCluster, until } from './toy-cluster.ts';
import type { Member } from './toy-cluster.ts';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Sends `count` commands through the leader from every running member (forwarding on followers), concurrently. */
async function writeFromAll(cluster: ToyCluster, prefix: string, count: number, size = 0): Promise<number> {
  const running = cluster.running();
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const m = running[i % running.length]!;
      return m.node!.forwardToLeader(text(`${prefix}-${i}-${'x'.repeat(size)}`), 10_000);
    }),
  );
  return Math.max(...results.map((r) => Number(new TextDecoder().decode(r))));
}

function itemsOf(m: Member): string[] {
  return m.sm!.items();
}

test('three nodes elect a leader and replicate 200 commands sent from every node, identically everywhere', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const last = await writeFromAll(cluster, 'a', 200);
  await cluster.allApplied(last);
  const expected = itemsOf(leader);
  assert.equal(expected.length, 200);
  for (const m of cluster.members) assert.deepEqual(itemsOf(m), expected);
  const metrics = leader.node!.metrics();
  assert.ok(metrics.isLeader);
  assert.ok(metrics.persistedEntries >= 200);
  t.diagnostic(`group commit on the leader: ${metrics.persistedEntries} entries in ${metrics.persistTransactions} transactions`);
  const follower = cluster.members.find((m) => m !== leader)!;
  await assert.rejects(follower.node!.propose(text('direct')), (e: unknown) => e instanceof RaftNodeError && e.code === 'NotLeader');
});

test('a read index on a follower covers every write acknowledged before it', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const follower = cluster.members.find((m) => m !== leader)!;
  const written = await writeFromAll(cluster, 'r', 30);
  const reads = await Promise.all(Array.from({ length: 20 }, () => follower.node!.readIndex()));
  for (const r of reads) assert.ok(r >= written, `read index ${r} < write ${written}`);
  assert.ok(follower.node!.appliedIndex() >= written);
  assert.equal(itemsOf(follower).length, 30);
});

test('a read index sent to a leader that died is asked again of the next leader, not left to time out', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const follower = cluster.members.find((m) => m !== leader)!;
  const written = await writeFromAll(cluster, 'before', 10);
  await cluster.stopMember(leader.id);
  // The follower still believes in the stopped leader: the round goes to it and is lost.
  const read = follower.node!.readIndex();
  assert.equal(follower.node!.leaderId(), leader.id);
  const index = await read;
  assert.ok(index >= written, `read index ${index} < write ${written}`);
  assert.notEqual(follower.node!.leaderId(), leader.id, 'answered under the next leader');
});

test('a restarted follower resumes from its disk and catches up on what it missed', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const follower = cluster.members.find((m) => m !== leader)!;
  await writeFromAll(cluster, 'before', 20);
  await cluster.allApplied(leader.node!.appliedIndex());
  const appliedBefore = follower.node!.appliedIndex();
  await cluster.stopMember(follower.id);
  const last = await writeFromAll(cluster, 'during', 20);
  const node = await cluster.startMember(follower.id);
  assert.ok(node.appliedIndex() >= appliedBefore, 'applied index comes back from the state machine');
  await cluster.allApplied(last);
  assert.deepEqual(itemsOf(follower), itemsOf(leader));
  assert.equal(itemsOf(follower).length, 40);
});

test('when the leader stops, the others elect a new leader and keep accepting writes', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const old = await cluster.leader();
  await writeFromAll(cluster, 'one', 10);
  await cluster.stopMember(old.id);
  const fresh = await cluster.leader();
  assert.notEqual(fresh.id, old.id);
  const last = await writeFromAll(cluster, 'two', 10);
  await cluster.allApplied(last);
  for (const m of cluster.running()) assert.equal(itemsOf(m).length, 20);
  await cluster.startMember(old.id);
  await cluster.allApplied(last);
  assert.deepEqual(itemsOf(cluster.member(old.id)), itemsOf(fresh));
});

test('leadership moves to the node it is transferred to', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const target = cluster.members.find((m) => m !== leader)!;
  await leader.node!.transferLeadership(target.id);
  assert.equal((await cluster.leader()).id, target.id);
  // Asked on a follower, the request travels to the leader.
  const third = cluster.members.find((m) => m !== leader && m !== target)!;
  await leader.node!.transferLeadership(third.id);
  assert.equal((await cluster.leader()).id, third.id);
  await third.node!.transferLeadership(target.id);
  assert.equal((await cluster.leader()).id, target.id);
  await target.node!.stop({ handOffMs: 2000 });
  const others = cluster.members.filter((m) => m !== target);
  assert.ok(others.some((m) => m.node!.isLeader()), 'a stopping leader hands leadership over first');
});

test('a follower behind the compacted log catches up through a chunked snapshot', async (t) => {
  const cluster = await ToyCluster.start({ snapshotEveryEntries: 0, snapshotCatchUpEntries: 5 });
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const lagging = cluster.members.find((m) => m !== leader)!;
  await cluster.stopMember(lagging.id);
  // ~3 MB of commands so the snapshot travels in several 1 MiB chunks.
  const last = await writeFromAll(cluster, 'big', 300, 10_000);
  await cluster.allApplied(last);
  for (const m of cluster.running()) {
    const meta = await m.node!.compact();
    assert.ok(meta && meta.index >= last - 1, `snapshot on ${m.id}`);
    assert.ok(m.node!.status().firstIndex > 1, `log compacted on ${m.id}`);
  }
  const node = await cluster.startMember(lagging.id);
  await cluster.allApplied(last);
  const status = node.status();
  assert.ok(status.snapshotIndex >= last - 1, `installed snapshot ${status.snapshotIndex}`);
  assert.deepEqual(itemsOf(lagging), itemsOf(leader));
  assert.equal(itemsOf(lagging).length, 300);
  // Still a working member: it applies new writes too.
  const after = await writeFromAll(cluster, 'after', 5);
  await cluster.allApplied(after);
  await until(() => itemsOf(lagging).length === 305, 'new writes on the caught-up node');
});

test('every node snapshots once the bytes applied since its last snapshot pass the limit, long before the entry count', async (t) => {
  const cluster = await ToyCluster.start({ snapshotEveryEntries: 1_000_000, snapshotEveryBytes: 64 * 1024, snapshotCatchUpEntries: 0 });
  t.after(() => cluster.close());
  await cluster.leader();
  const small = await writeFromAll(cluster, 'small', 20);
  await cluster.allApplied(small);
  for (const m of cluster.members) assert.equal(m.node!.status().snapshotIndex, 0, `no snapshot yet on ${m.id}`);
  // 40 commands of 4 KiB: 160 KiB, past the 64 KiB limit.
  const last = await writeFromAll(cluster, 'big', 40, 4096);
  await cluster.allApplied(last);
  for (const m of cluster.members) await until(() => m.node!.status().snapshotIndex > small, `a snapshot on ${m.id}`);
});

test('the bytes applied before a restart count towards the next snapshot', async (t) => {
  // Logs kept whole behind snapshots: the restarted node can only get one by taking it itself.
  const cluster = await ToyCluster.start({ snapshotEveryEntries: 1_000_000, snapshotEveryBytes: 64 * 1024, snapshotCatchUpEntries: 1_000 });
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const restarted = cluster.members.find((m) => m !== leader)!;
  // 12 commands of 4 KiB: 48 KiB, under the 64 KiB limit.
  const before = await writeFromAll(cluster, 'before', 12, 4096);
  await cluster.allApplied(before);
  await cluster.stopMember(restarted.id);
  await cluster.startMember(restarted.id);
  await cluster.allApplied(before);
  assert.equal(restarted.node!.status().snapshotIndex, 0, 'no snapshot before the limit');
  // 6 more: 24 KiB since the restart, 72 KiB since the start of the log.
  const after = await writeFromAll(cluster, 'after', 6, 4096);
  await cluster.allApplied(after);
  await until(() => restarted.node!.status().snapshotIndex > before, `a snapshot on the restarted ${restarted.id}`);
  assert.equal(restarted.sm!.restores, 0, 'its own snapshot, not the leader\'s');
});

test('a compaction longer than one step keeps exactly the entries behind the snapshot, which a follower a little behind catches up from', async (t) => {
  const catchUp = 7;
  const cluster = await ToyCluster.start({ snapshotCatchUpEntries: catchUp });
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const follower = cluster.members.find((m) => m !== leader)!;
  const written = await writeFromAll(cluster, 'c', compactionStepEntries * 2 + 100);
  await cluster.allApplied(written);
  await cluster.stopMember(follower.id);
  const last = await writeFromAll(cluster, 'd', 3);
  await cluster.allApplied(last);
  const meta = await leader.node!.compact();
  assert.ok(meta !== null && meta.index >= last);
  assert.equal(leader.node!.status().firstIndex, meta.index - catchUp + 1);
  await cluster.startMember(follower.id);
  await cluster.allApplied(last);
  assert.deepEqual(itemsOf(follower), itemsOf(leader));
  assert.equal(follower.node!.status().snapshotIndex, 0, 'caught up from the log, not a snapshot');
});

test('a snapshot from the leader that arrives while a local snapshot is being copied is installed once that copy ends', async (t) => {
  const cluster = await ToyCluster.start({ snapshotCatchUpEntries: 0 });
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const lagging = cluster.members.find((m) => m !== leader)!;
  const first = await writeFromAll(cluster, 'a', 20);
  await cluster.allApplied(first);
  await cluster.stopMember(lagging.id);
  const last = await writeFromAll(cluster, 'b', 30);
  await cluster.allApplied(last);
  for (const m of cluster.running()) assert.ok(await m.node!.compact(), `snapshot on ${m.id}`);
  await cluster.startMember(lagging.id);
  let release!: () => void;
  lagging.sm!.snapshotGate = new Promise((resolve) => (release = resolve));
  const local = lagging.node!.compact();
  try {
    // The leader's snapshot arrives meanwhile; it must not replace the files the local copy reads.
    await until(() => lagging.node!.status().lead !== '' && lagging.sm!.snapshotsAsked === 1, 'the local snapshot started');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(lagging.sm!.restores, 0, 'no restore while the local copy runs');
  } finally {
    release(); // else stopping the node would wait for the copy forever
  }
  const meta = await local;
  assert.ok(meta === null || meta.index <= first, 'the local snapshot covers only what the node had');
  await cluster.allApplied(last);
  assert.equal(lagging.sm!.restores, 1);
  assert.deepEqual(itemsOf(lagging), itemsOf(leader));
});

test('a failed snapshot leaves no partial file and is not retried on every Ready', async (t) => {
  const cluster = await ToyCluster.start({ snapshotEveryEntries: 20, snapshotCatchUpEntries: 0 });
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  for (const m of cluster.members) m.sm!.snapshotFailure = new Error('disk full');
  const last = await writeFromAll(cluster, 'f', 20);
  await cluster.allApplied(last);
  await until(() => leader.sm!.snapshotsAsked >= 1, 'a snapshot attempt');
  // Heartbeats keep producing Readies; with no new entries applied, no new attempt is made.
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const m of cluster.members) {
    assert.ok(m.sm!.snapshotsAsked <= 1, `${m.id} tried ${m.sm!.snapshotsAsked} times`);
    assert.deepEqual(readdirSync(join(cluster.dataDir(m.id), 'snapshots')), [], `no partial file on ${m.id}`);
  }
  // Once the disk is fine again, a later attempt succeeds.
  for (const m of cluster.members) m.sm!.snapshotFailure = null;
  const more = await writeFromAll(cluster, 'g', 10);
  await cluster.allApplied(more);
  await until(() => cluster.members.every((m) => m.node!.status().snapshotIndex > 0), 'a snapshot on every node');
});

test('a node whose state machine lost its data restarts from its own snapshot and replays the log after it', async (t) => {
  const cluster = await ToyCluster.start({ snapshotCatchUpEntries: 0 });
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const victim = cluster.members.find((m) => m !== leader)!;
  await writeFromAll(cluster, 's', 20);
  await cluster.allApplied(leader.node!.appliedIndex());
  const meta = await victim.node!.compact();
  assert.ok(meta && meta.index > 0);
  const last = await writeFromAll(cluster, 't', 10);
  await cluster.allApplied(last);
  await cluster.stopMember(victim.id);
  for (const suffix of ['', '-wal', '-shm']) await rm(join(cluster.dataDir(victim.id), `sm.db${suffix}`), { force: true });
  const node = await cluster.startMember(victim.id);
  assert.ok(node.appliedIndex() >= meta.index, 'restored from the snapshot at start');
  await cluster.allApplied(last);
  assert.deepEqual(itemsOf(victim), itemsOf(leader));
  assert.equal(itemsOf(victim).length, 30);
});

test('a single-node group elects itself, commits alone and answers reads and forwards locally', async (t) => {
  const cluster = await ToyCluster.start({ size: 1 });
  t.after(() => cluster.close());
  const only = await cluster.leader();
  const i = await only.node!.propose(text('solo'));
  assert.ok((await only.node!.readIndex()) >= i);
  assert.equal(new TextDecoder().decode(await only.node!.forwardToLeader(text('fwd'))), String(i + 1));
  assert.deepEqual(itemsOf(only), ['solo', 'fwd']);
});

test('a new node joins as a learner, catches up from the founding log, and is promoted to voter', async (t) => {
  const cluster = await ToyCluster.start({ spares: 1 });
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const written = await writeFromAll(cluster, 'j', 20);
  const joiner = await cluster.startMember('n4');
  assert.equal(joiner.isLeader(), false);
  const context = text(cluster.address('n4'));
  await leader.node!.proposeConfChange({ changes: [{ type: 'addLearner', nodeId: 'n4' }], context });
  await cluster.allApplied(written);
  assert.deepEqual(itemsOf(cluster.member('n4')), itemsOf(leader));
  await leader.node!.proposeConfChange({ changes: [{ type: 'addVoter', nodeId: 'n4' }], context });
  assert.deepEqual([...leader.node!.status().confState.voters].sort(), ['n1', 'n2', 'n3', 'n4']);
  const last = await writeFromAll(cluster, 'k', 8);
  await cluster.allApplied(last);
  assert.deepEqual([...joiner.status().confState.voters].sort(), ['n1', 'n2', 'n3', 'n4']);
  assert.equal(itemsOf(cluster.member('n4')).length, 28);
});
