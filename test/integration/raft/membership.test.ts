import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { ensureClusterPki } from '../../../internal/certificates/index.ts';
import { RaftNodeError } from '../../../raft/errors.ts';
import { askMembership } from '../../../raft/membership-client.ts';
import { RaftNode } from '../../../raft/node.ts';
import { ToyCluster, until } from './toy-cluster.ts';
import type { Member } from './toy-cluster.ts';
import { ToyStateMachine } from './toy-state-machine.ts';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

async function write(via: RaftNode, prefix: string, count: number): Promise<number> {
  const results = await Promise.all(Array.from({ length: count }, (_, i) => via.forwardToLeader(text(`${prefix}-${i}`), 10_000)));
  return Math.max(...results.map((r) => Number(new TextDecoder().decode(r))));
}

const isCode = (code: string, message?: RegExp) => (e: unknown): boolean => e instanceof RaftNodeError && e.code === code && (message === undefined || message.test(e.message));

/** The cluster's PKI (the toy cluster keeps it next to the members' data directories). */
function pkiOf(cluster: ToyCluster, names: string[]) {
  return ensureClusterPki(join(dirname(cluster.dataDir('n1')), 'pki'), names);
}

test('a node joining through a follower is sent to the leader, catches up from a snapshot, is promoted, and the group goes on after removing its leader, whose data cannot restart', async (t) => {
  const cluster = await ToyCluster.start({ spares: 1, snapshotEveryEntries: 8, snapshotCatchUpEntries: 2 });
  let joiner: { node: RaftNode; sm: ToyStateMachine } | null = null;
  t.after(async () => {
    await joiner?.node.stop();
    joiner?.sm.close();
    await cluster.close();
  });
  const leader = await cluster.leader();
  const follower = cluster.members.find((m) => m.node !== null && m !== leader)!;
  const written = await write(leader.node!, 'a', 30);
  await cluster.allApplied(written);
  await until(() => leader.node!.status().firstIndex > 4, 'the founding entries compacted away');

  // A learner that never answered (not running) is refused promotion, saying how far behind it is.
  await leader.node!.addMember('ghost', '127.0.0.1:1', { learner: true });
  await assert.rejects(leader.node!.promoteMember('ghost'), isCode('LearnerBehind', /learner ghost has acknowledged no entry to this leader yet/));
  await assert.rejects(leader.node!.addMember('ghost', '127.0.0.1:1', { learner: true }), isCode('AlreadyMember'));
  await leader.node!.removeMember('ghost');
  await assert.rejects(leader.node!.removeMember('ghost'), isCode('NotMember'));

  const pki = await pkiOf(cluster, ['n4']);
  const dataDir = cluster.dataDir('n4');
  await mkdir(dataDir, { recursive: true });
  const sm = new ToyStateMachine(dataDir);
  const progress: string[] = [];
  const address = cluster.address('n4');
  const node = await RaftNode.start({
    id: 'n4', dataDir, peers: { n4: address }, listen: address, joinSeeds: [cluster.address(follower.id)],
    tls: { ca: pki.ca.cert, cert: pki.replicas.n4!.cert, key: pki.replicas.n4!.key },
    stateMachine: sm, tickMs: 20, electionTicks: 10, heartbeatTicks: 1, snapshotEveryEntries: 0,
    onJoinProgress: (message) => progress.push(message),
  });
  sm.node = node;
  joiner = { node, sm };
  await Promise.race([node.joined(), new Promise((_, reject) => setTimeout(() => reject(new Error(`not joined: ${progress.join(' | ')}`)), 20_000).unref())]);
  assert.ok(progress.some((p) => p.includes(`is not the leader: asking the leader ${leader.id}`)), progress.join(' | '));
  assert.ok(progress.some((p) => p.startsWith('added as a learner')), progress.join(' | '));
  assert.ok(sm.restores >= 1, 'caught up from a snapshot');
  assert.deepEqual(leader.node!.members().map((m) => [m.id, m.role]), [['n1', 'voter'], ['n2', 'voter'], ['n3', 'voter'], ['n4', 'voter']]);
  assert.equal(node.clusterId(), leader.node!.clusterId());
  assert.notEqual(node.clusterId(), '');
  const more = await write(node, 'b', 10);
  await until(() => node.appliedIndex() >= more && leader.node!.appliedIndex() >= more, 'the joiner applied its writes');
  assert.deepEqual(sm.items(), leader.sm!.items());

  // The leader removes itself: it applies its removal and steps down; the others elect a leader and commit.
  await leader.node!.removeMember(leader.id);
  assert.equal(leader.node!.isLeader(), false);
  await cluster.stopMember(leader.id);
  // Its data cannot rejoin (etcd's removed member stops the same way): a restart is refused, saying what to do.
  await assert.rejects(cluster.startMember(leader.id), isCode('Removed', /was removed from cluster \w+ .*start it with an empty data directory and --join/));
  const rest: RaftNode[] = [...cluster.running().map((m: Member) => m.node!), node];
  await until(() => rest.some((n) => n.isLeader()), 'a new leader among the remaining voters', 10_000);
  const after = await write(node, 'c', 10);
  await until(() => rest.every((n) => n.appliedIndex() >= after), 'the remaining voters applied', 10_000);
  const newLeader = rest.find((n) => n.isLeader())!;
  assert.deepEqual(newLeader.members().map((m) => m.id), ['n1', 'n2', 'n3', 'n4'].filter((id) => id !== leader.id));

  // Restarted with its data, a member ignores the join seeds (and still knows where the others are).
  await node.stop();
  sm.close();
  const sm2 = new ToyStateMachine(dataDir);
  progress.length = 0;
  const again = await RaftNode.start({
    id: 'n4', dataDir, peers: { n4: address }, listen: address, joinSeeds: [cluster.address(follower.id)],
    tls: { ca: pki.ca.cert, cert: pki.replicas.n4!.cert, key: pki.replicas.n4!.key },
    stateMachine: sm2, tickMs: 20, electionTicks: 10, heartbeatTicks: 1, snapshotEveryEntries: 0,
    onJoinProgress: (message) => progress.push(message),
  });
  sm2.node = again;
  joiner = { node: again, sm: sm2 };
  assert.deepEqual(progress, ['the Raft log is not empty (a voter): the join seeds are ignored']);
  const last = await write(again, 'd', 3);
  await until(() => again.appliedIndex() >= last, 'the restarted member applied its writes');
});

test('Join is refused (PERMISSION_DENIED) unless the certificate names the node it asks for', async (t) => {
  const cluster = await ToyCluster.start();
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const pki = await pkiOf(cluster, ['mallory']);
  const tls = { ca: pki.ca.cert, cert: pki.replicas.mallory!.cert, key: pki.replicas.mallory!.key };
  const at = cluster.address(leader.id);
  await assert.rejects(askMembership(tls, at, { kind: 'join', name: 'n9', peerAddress: '127.0.0.1:1' }), isCode('PermissionDenied'));
  await assert.rejects(askMembership(tls, at, { kind: 'promote', name: 'n1' }), isCode('PermissionDenied'));
  assert.equal(leader.node!.members().length, 3);
  const answer = await askMembership(tls, at, { kind: 'join', name: 'mallory', peerAddress: '127.0.0.1:1' });
  assert.equal(answer.done, true);
  assert.equal(answer.clusterId, leader.node!.clusterId());
  // Asking again is harmless; from another address it is refused.
  assert.equal((await askMembership(tls, at, { kind: 'join', name: 'mallory', peerAddress: '127.0.0.1:1' })).done, true);
  await assert.rejects(askMembership(tls, at, { kind: 'join', name: 'mallory', peerAddress: '127.0.0.1:2' }), isCode('AlreadyMember'));
  assert.deepEqual(leader.node!.members().find((m) => m.id === 'mallory')?.role, 'learner');
});

test('a learner added by an operator learns the cluster id and answers read-index rounds; a follower refuses changes naming the leader; the last voter cannot be removed', async (t) => {
  const cluster = await ToyCluster.start({ spares: 1 });
  t.after(() => cluster.close());
  const leader = await cluster.leader();
  const follower = cluster.members.find((m) => m.node !== null && m !== leader)!;
  await assert.rejects(follower.node!.addMember('n4', cluster.address('n4'), { learner: true }), isCode('NotLeader', new RegExp(`the leader is ${leader.id}`)));
  const learner = await cluster.startMember('n4');
  await leader.node!.addMember('n4', cluster.address('n4'), { learner: true });
  const written = await write(leader.node!, 'r', 5);
  await until(() => learner.appliedIndex() >= written, 'the learner applied');
  assert.ok((await learner.readIndex()) >= written);
  // Added by an operator, not through Join: it asks the leader for the cluster id.
  await until(() => learner.clusterId() === leader.node!.clusterId(), 'the learner learnt the cluster id', 5_000);
  assert.equal(learner.members().find((m) => m.id === 'n4')?.role, 'learner');
  const view = leader.node!.members().find((m) => m.id === 'n4')!;
  assert.equal(typeof view.lag, 'number');
  assert.equal(learner.members().find((m) => m.id === 'n4')?.lag, undefined);

  const single = await ToyCluster.start({ size: 1 });
  t.after(() => single.close());
  const only = await single.leader();
  await assert.rejects(only.node!.removeMember('n1'), isCode('LastVoter'));
});
