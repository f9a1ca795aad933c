import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RaftNodeError } from '../../../raft/errors.ts';
import { ToyCluster } from './toy-cluster.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

test('many concurrent writes from followers are forwarded in batches, commit once each, and each gets its own result', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const followers = cluster.members.filter((m) => m !== leader);
  // Every member refuses commands marked "reject" in its handler: a per-command failure.
  for (const m of cluster.members) {
    const sm = m.sm!;
    const original = sm.onForward.bind(sm);
    sm.onForward = async (data: Uint8Array) => {
      if (text(data).startsWith('reject')) throw new Error(`refused ${text(data)}`);
      return original(data);
    };
  }
  const perFollower = 200;
  const commands = followers.flatMap((f) => Array.from({ length: perFollower }, (_, i) => ({ from: f, command: i % 50 === 7 ? `reject-${f.id}-${i}` : `w-${f.id}-${i}` })));
  const before = leader.node!.metrics();
  const outcomes = await Promise.allSettled(commands.map(({ from, command }) => from.node!.forwardToLeader(enc(command), 20_000)));

  const indexes = new Map<string, number>();
  outcomes.forEach((o, i) => {
    const { command } = commands[i]!;
    if (command.startsWith('reject')) {
      assert.ok(o.status === 'rejected' && o.reason instanceof RaftNodeError && o.reason.code === 'Remote', `${command} fails on its own`);
      assert.equal((o.reason as Error).message, `refused ${command}`);
    } else {
      assert.equal(o.status, 'fulfilled', `${command}: ${o.status === 'rejected' ? String(o.reason) : ''}`);
      if (o.status === 'fulfilled') indexes.set(command, Number(text(o.value)));
    }
  });
  const accepted = commands.filter((c) => !c.command.startsWith('reject')).length;
  assert.equal(indexes.size, accepted);
  assert.equal(new Set(indexes.values()).size, accepted, 'every write got its own log index');

  const last = Math.max(...indexes.values());
  await cluster.allApplied(last);
  for (const m of cluster.members) {
    const items = m.sm!.items();
    assert.equal(items.length, accepted, `${m.id} applied each accepted write once`);
    assert.deepEqual(new Set(items), new Set(indexes.keys()));
  }
  // The result of each write names the index the write applied at.
  const atIndex = new Map([...indexes].map(([command, i]) => [i, command]));
  assert.equal(atIndex.size, accepted);

  for (const f of followers) {
    const s = f.node!.metrics();
    assert.ok(s.forwardedCommands >= perFollower, 'retries after a leader change may forward a command again');
    assert.ok(s.forwardBatches < s.forwardedCommands, `${f.id} coalesced ${s.forwardedCommands} forwards into ${s.forwardBatches} calls`);
    t.diagnostic(`${f.id}: ${s.forwardedCommands} forwards in ${s.forwardBatches} ForwardBatch calls`);
  }
  const after = leader.node!.metrics();
  t.diagnostic(`leader: ${after.persistedEntries - before.persistedEntries} entries in ${after.persistTransactions - before.persistTransactions} persist transactions`);
});

test('after the leader stops, a follower forwards its writes to the new leader and they commit', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const follower = cluster.members.find((m) => m !== leader)!;
  const writes = Array.from({ length: 20 }, (_, i) => follower.node!.forwardToLeader(enc(`before-stop-${i}`), 20_000));
  await Promise.all(writes);
  await cluster.stopMember(leader.id);
  // The follower's forwards now go to the new leader, through a peer client that never batched before.
  const newLeader = await cluster.leader();
  const from = cluster.running().find((m) => m !== newLeader) ?? newLeader;
  const after = await Promise.all(Array.from({ length: 20 }, (_, i) => from.node!.forwardToLeader(enc(`after-stop-${i}`), 20_000)));
  const indexes = after.map((r) => Number(text(r)));
  assert.equal(new Set(indexes).size, 20);
  await cluster.allApplied(Math.max(...indexes));
  for (const m of cluster.running()) assert.equal(m.sm!.items().length, 40);
});
