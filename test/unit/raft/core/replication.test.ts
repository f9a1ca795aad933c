import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, enc } from './net.ts';
import { RawNode, index, makeMessage, term } from '../../../../raft/core/index.ts';
import type { Entry, Message, Ready } from '../../../../raft/core/index.ts';

const entry = (i: number, t: number, data = ''): Entry => ({ index: index(i), term: term(t), type: 'normal', data: enc(data) });

/** Replaces each node's durable state, then restarts it (as after a crash). */
function plant(net: Net, logs: Record<string, number[]>, hsTerm: number): void {
  for (const [id, terms] of Object.entries(logs)) {
    const p = net.peer(id);
    p.storage.append(terms.map((t, k) => entry(k + 1, t, `t${t}i${k + 1}`)));
    p.storage.setHardState({ term: term(hsTerm), vote: '', commit: index(1) });
    p.applied = [];
    p.appliedIndex = 0;
    net.restart(id);
  }
}

test('committed entries reach every follower and are applied in order (Raft §5.3)', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  for (const x of ['1', '2', '3']) net.node('a').propose(enc(x));
  net.settle();
  for (const id of ['a', 'b', 'c']) assert.deepEqual(net.appliedData(id), ['1', '2', '3']);
});

test('a follower forwards a proposal to the leader', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('c').propose(enc('via-c'));
  net.settle();
  assert.deepEqual(net.appliedData('a'), ['via-c']);
});

test('an entry is not committed without a majority of replicas', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('a');
  net.node('a').propose(enc('lonely'));
  net.settle();
  assert.equal(net.node('a').status().commit, 1);
  net.heal();
  net.tickAll(1);
  assert.deepEqual(net.appliedData('b'), ['lonely']);
});

test('a follower with a divergent log is repaired, skipping a whole conflicting term per round trip', () => {
  const net = new Net(['a', 'b', 'c']);
  // b holds many uncommitted entries of term 2 that the leader (term 3 entries) never had.
  plant(net, { a: [1, 3, 3], b: [1, 2, 2, 2, 2, 2, 2, 2], c: [1, 3, 3] }, 3);
  net.elect('a');
  net.node('a').propose(enc('z'));
  net.settle();
  const rejects = net.sent.filter((m) => m.type === 'appResp' && m.from === 'b' && m.reject);
  // etcd-style findConflictByTerm: one rejection is enough to jump below all of b's term-2 entries.
  assert.ok(rejects.length <= 2, `too many rejections: ${rejects.length}`);
  assert.deepEqual(
    net.peer('b').storage.entries(index(1), index(net.peer('b').storage.lastIndex() + 1), Infinity).map((e) => e.term),
    net.peer('a').storage.entries(index(1), index(net.peer('a').storage.lastIndex() + 1), Infinity).map((e) => e.term),
  );
  assert.deepEqual(net.appliedData('b'), net.appliedData('a'));
});

test('in replicate mode at most maxInflightMsgs app messages are outstanding per follower', () => {
  const net = new Net(['a', 'b'], { maxInflightMsgs: 2, maxSizePerMsgBytes: 1 });
  net.elect('a');
  net.filter = (m) => !(m.type === 'appResp' && m.from === 'b');
  for (let i = 0; i < 10; i++) net.node('a').propose(enc(`${i}`));
  net.settle();
  const apps = net.sent.filter((m) => m.type === 'app' && m.to === 'b' && m.entries.length > 0 && m.entries[0]!.data.byteLength > 0);
  assert.equal(apps.length, 2);
});

test('app messages carry at most maxSizePerMsgBytes of entry data (but at least one entry)', () => {
  const net = new Net(['a', 'b'], { maxSizePerMsgBytes: 10 });
  net.elect('a');
  net.isolate('a');
  for (let i = 0; i < 6; i++) net.node('a').propose(enc('12345'));
  net.settle();
  net.heal();
  net.tickAll(1);
  const apps = net.sent.filter((m) => m.type === 'app' && m.to === 'b' && m.entries.length > 0);
  for (const m of apps) assert.ok(m.entries.reduce((n, e) => n + e.data.byteLength, 0) <= 10);
  assert.equal(net.appliedData('b').length, 6);
});

test('a heartbeat carries commit = min(match, commit) so a lagging follower never commits what it lacks', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.cutLink('a', 'c');
  net.node('a').propose(enc('x'));
  net.settle();
  net.heal();
  net.filter = (m) => m.type !== 'app';
  net.node('a').tick();
  net.settle();
  const hb = net.sent.filter((m) => m.type === 'heartbeat' && m.to === 'c');
  assert.ok(hb.length > 0);
  assert.equal(hb[hb.length - 1]!.commit, 1);
  assert.equal(net.node('a').status().commit, 2);
});

test('Figure 8: a leader does not commit an entry of an earlier term by counting replicas (Raft §5.4.2)', () => {
  for (const bug of [false, true]) {
    const net = new Net(['s1', 's2', 's3', 's4', 's5'], bug ? { bugs: { commitPriorTermByCounting: true } } : {});
    plant(net, { s1: [1, 2], s2: [1, 2], s3: [1], s4: [1], s5: [1, 3] }, 3);
    // Let index 2 (term 2) reach s3, but no entry of the new term reach anyone.
    net.transform = (m) => (m.type === 'app' ? { ...m, entries: m.entries.filter((e) => e.term < 4) } : m);
    assert.equal(net.elect('s1'), 'leader');
    assert.equal(net.node('s1').status().term, 4);
    net.settle();
    assert.equal(net.node('s3').status().commit >= 1, true);
    // "Raft never commits log entries from previous terms by counting replicas."
    assert.equal(net.node('s1').status().commit, bug ? 2 : 1, `bug=${bug}`);
  }
});

test('reportUnreachable moves a replicating follower back to probe', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  assert.equal(net.node('a').status().progress['b']?.state, 'replicate');
  net.node('a').reportUnreachable('b');
  assert.equal(net.node('a').status().progress['b']?.state, 'probe');
});

test('a Ready hands out at most maxCommittedSizePerReadyBytes of committed entries (at least one)', () => {
  const net = new Net(['a']);
  net.elect('a');
  const p = net.peer('a');
  p.node = new RawNode({
    ...net.config('a', p.storage, p.appliedIndex),
    maxCommittedSizePerReadyBytes: 4,
  });
  net.elect('a');
  for (const x of ['aaa', 'bbb', 'ccc']) net.node('a').propose(enc(x));
  const sizes: number[] = [];
  while (net.node('a').hasReady()) {
    const rd = net.node('a').ready();
    p.storage.append(rd.entries);
    if (rd.hardState) p.storage.setHardState(rd.hardState);
    const data = rd.committedEntries.filter((e) => e.data.byteLength > 0);
    if (data.length > 0) sizes.push(data.length);
    net.node('a').advance(rd);
  }
  assert.deepEqual(sizes, [1, 1, 1]);
});

test('local-only message types are refused from the network', () => {
  const net = new Net(['a', 'b']);
  for (const type of ['hup', 'beat', 'unreachable', 'snapStatus', 'checkQuorum', 'forgetLeader'] as const) {
    assert.throws(() => net.node('a').step(makeMessage({ type, from: 'b', to: 'a' })), /local message/);
  }
});

/** A 3-node group whose leader `a` proposed `data` and took its Ready without persisting it: the appends it sends and the entry's index. */
function leaderReadyNotPersisted(data: string): { net: Net; rd: Ready; appends: Message[]; target: number } {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc(data));
  const rd = net.node('a').ready();
  const appends = rd.messages.filter((m) => m.type === 'app' && m.entries.length > 0);
  return { net, rd, appends, target: rd.entries[rd.entries.length - 1]!.index };
}

/** Persists `rd` on `id`'s disk the way the driver does, then advances the node. */
function persistAndAdvance(net: Net, id: string, rd: Ready): void {
  const p = net.peer(id);
  if (rd.entries.length > 0) p.storage.append(rd.entries);
  if (rd.hardState) p.storage.setHardState(rd.hardState);
  net.node(id).advance(rd);
}

/** Delivers `m` to its follower, which persists and acks; returns the follower's ack. */
function followerAcks(net: Net, m: Message): Message {
  net.node(m.to).step(m);
  const rd = net.node(m.to).ready();
  persistAndAdvance(net, m.to, rd);
  const ack = rd.messages.find((x) => x.type === 'appResp' && !x.reject);
  assert.ok(ack, `${m.to} acks the append`);
  return ack;
}

test('a leader sending its appends before persisting them does not count its own unpersisted entry: one follower\'s ack does not commit (Raft thesis §10.2.1)', () => {
  const { net, rd, appends, target } = leaderReadyNotPersisted('x');
  const toB = appends.find((m) => m.to === 'b');
  assert.ok(toB);
  net.node('a').step(followerAcks(net, toB));
  assert.ok(net.node('a').status().commit < target, 'one durable copy (b) is not a quorum');
  // Once the leader's own write is durable, leader + b are a quorum.
  persistAndAdvance(net, 'a', rd);
  assert.equal(net.node('a').status().commit, target);
});

test('a quorum of followers commits an entry the leader has not persisted yet (Raft thesis §10.2.1)', () => {
  const { net, rd, appends, target } = leaderReadyNotPersisted('y');
  for (const m of appends) net.node('a').step(followerAcks(net, m));
  assert.equal(net.node('a').status().commit, target, 'b and c persisted it: a majority');
  persistAndAdvance(net, 'a', rd);
  assert.equal(net.node('a').status().commit, target);
});

test('a restart whose state machine applied past the commit index on disk takes the applied index as committed', () => {
  // A Ready that only moves the commit index is written without an fsync, so after a power loss the
  // log may hold an older commit than the state machine made durable. Whatever was applied was
  // committed, and is in the log (entries are fsynced before they count).
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  for (const x of ['x', 'y', 'z']) net.node('a').propose(enc(x));
  net.settle();
  const b = net.peer('b');
  const applied = b.appliedIndex;
  const { hardState } = b.storage.initialState();
  assert.equal(hardState.commit, applied);
  b.storage.setHardState({ ...hardState, commit: index(applied - 2) }); // the commit-only writes lost
  net.restart('b');
  assert.equal(net.node('b').status().commit, applied);
  const rd = net.node('b').hasReady() ? net.node('b').ready() : null;
  assert.deepEqual(rd?.committedEntries ?? [], [], 'nothing applied is handed out again');
  net.settle();
  for (const id of ['a', 'b', 'c']) assert.equal(net.node(id).status().commit, net.node('a').status().commit);
});
