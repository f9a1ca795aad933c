// A follower commits on its leader's word: told that the leader's log is durable through an index
// (Message.leaderDurable), with the two of them a quorum, it commits the entries of the leader's
// term it holds durably up to there, without waiting for the leader's commit. The leader then owes
// such a follower no commit-only append, and its reads wait for what it told.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, enc } from './net.ts';
import type { ConfChange, Message, NodeId } from '../../../../raft/core/index.ts';

const isAppend = (m: Message, to: NodeId): boolean => m.type === 'app' && m.to === to;

/** Steps the queued messages to `to` (only those), in order. */
function deliverTo(net: Net, to: NodeId): Message[] {
  const mine = net.queue.filter((m) => m.to === to);
  net.queue = net.queue.filter((m) => m.to !== to);
  for (const m of mine) net.node(to).step(m);
  return mine;
}

test('a relayed write commits at its follower on the leader\'s durable notice, and no commit-only append follows', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  const before = net.sent.length;
  net.node('c').propose(enc('x'));
  net.settle();
  const sent = net.sent.slice(before);
  const xIndex = net.node('a').status().commit;
  for (const f of ['b', 'c']) {
    const empty = sent.filter((m) => isAppend(m, f) && m.entries.length === 0);
    assert.equal(empty.length, 1, `one empty append to ${f}: the notice`);
    assert.equal(empty[0]!.leaderDurable, xIndex, 'it tells the leader\'s durable index');
    assert.deepEqual([...empty[0]!.context], [1], 'and asks no answer');
    assert.equal(sent.filter((m) => m.type === 'appResp' && m.from === f).length, 1, `${f} answers the entry only`);
    assert.deepEqual([...sent.find((m) => m.type === 'appResp' && m.from === f)!.context], [2], `${f} says it infers commits`);
    assert.deepEqual(net.appliedData(f), ['x']);
  }
});

test('followers commit an entry held by them and the leader even when no acknowledgement reaches the leader', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.filter = (m) => m.type !== 'appResp';
  net.node('a').propose(enc('x'));
  net.settle();
  const leader = net.node('a').status();
  assert.equal(leader.progress['b']?.match, leader.commit, 'the leader never heard of x from b');
  assert.deepEqual(net.appliedData('a'), [], 'nor committed it');
  // x is on a quorum (a and b, a and c): committed, whoever knows it.
  assert.deepEqual(net.appliedData('b'), ['x']);
  assert.deepEqual(net.appliedData('c'), ['x']);
  // A read must not miss it: the leader's read index covers what it told.
  net.filter = () => true;
  net.node('a').readIndex(enc('r'));
  net.settle();
  const read = net.peer('a').readStates.at(-1);
  assert.equal(read?.index, net.node('b').status().commit, 'the read waits for x');
});

test('a follower infers nothing past what it made durable itself', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.handleReady('a'); // the entry goes out; a persists it
  deliverTo(net, 'b'); // b holds x, not yet persisted
  assert.ok(net.node('a').hasReady(), 'a has its durable index to tell');
  net.handleReady('a');
  const notice = deliverTo(net, 'b');
  assert.equal(notice.length, 1);
  const xIndex = notice[0]!.leaderDurable;
  assert.ok(xIndex > 0);
  assert.ok(net.node('b').status().commit < xIndex, 'told, but x is not on b\'s disk yet');
  net.handleReady('b'); // persists x, answers, advances: now it knows
  assert.equal(net.node('b').status().commit, xIndex);
  net.handleReady('b');
  assert.deepEqual(net.appliedData('b'), ['x']);
});

test('with five voters no durable index is told: a leader and one follower are no quorum', () => {
  const net = new Net(['a', 'b', 'c', 'd', 'e']);
  net.elect('a');
  const before = net.sent.length;
  net.filter = (m) => !(m.type === 'appResp' && m.from !== 'b');
  net.node('a').propose(enc('x'));
  net.settle();
  const sent = net.sent.slice(before);
  assert.ok(sent.filter((m) => m.type === 'app').every((m) => m.leaderDurable === 0));
  assert.deepEqual(net.appliedData('b'), [], 'b holds x with a: two of five, not committed');
});

test('no durable index is told while a membership change is not applied', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  const cc: ConfChange = { changes: [{ type: 'addLearner', nodeId: 'd' }], context: new Uint8Array(0) };
  net.node('a').proposeConfChange(cc);
  net.node('a').propose(enc('x'));
  net.handleReady('a');
  const appends = net.queue.filter((m) => m.type === 'app');
  assert.equal(appends.length, 2);
  assert.ok(appends.every((m) => m.leaderDurable === 0), 'the membership may change under the entries: no notice');
  net.settle();
  net.node('a').propose(enc('y'));
  net.handleReady('a');
  assert.ok(net.queue.filter((m) => m.type === 'app' && m.to === 'b').every((m) => m.leaderDurable > 0), 'applied: notices again');
});

test('a follower of an earlier version, which says nothing of inferring, is told no durable index and gets every commit in an append', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.asEarlierVersion(['b']);
  net.node('a').propose(enc('x')); // b's first plain answer marks it
  net.settle();
  const before = net.sent.length;
  net.node('a').propose(enc('y'));
  net.settle();
  const sent = net.sent.slice(before);
  const commit = net.node('a').status().commit;
  assert.ok(sent.some((m) => isAppend(m, 'b') && m.entries.length === 0 && m.commit === commit), 'b is sent the commit');
  assert.ok(!sent.some((m) => isAppend(m, 'c') && m.entries.length === 0 && m.commit === commit), 'c infers it');
  assert.ok(sent.filter((m) => isAppend(m, 'b')).every((m) => m.leaderDurable === 0), 'b is told nothing it would ignore (it would only raise the read index)');
  assert.deepEqual(net.appliedData('b'), ['x', 'y']);
});
