import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, dec, enc } from './net.ts';
import type { Message } from '../../../../raft/core/index.ts';

test('a leader answers a read after a heartbeat round confirms it still leads (thesis §6.4)', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  net.node('a').readIndex(enc('r1'));
  // Nothing yet: the read waits for a quorum of heartbeat answers.
  const rd = net.node('a').ready();
  assert.equal(rd.readStates.length, 0);
  assert.ok(rd.messages.some((m) => m.type === 'heartbeat' && m.context.byteLength > 0));
  net.node('a').advance(rd);
  net.queue.push(...rd.messages);
  net.settle();
  const rs = net.peer('a').readStates;
  assert.equal(rs.length, 1);
  assert.equal(dec(rs[0]!.requestContext), 'r1');
  assert.equal(rs[0]!.index, 2);
});

test('a partitioned leader cannot answer a read', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('a');
  net.node('a').readIndex(enc('r'));
  net.settle();
  assert.equal(net.peer('a').readStates.length, 0);
});

test('reads issued together share one heartbeat round', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  const before = net.sent.filter((m) => m.type === 'heartbeat').length;
  for (const c of ['r1', 'r2', 'r3']) net.node('a').readIndex(enc(c));
  net.settle();
  const rounds = net.sent.filter((m) => m.type === 'heartbeat').length - before;
  assert.equal(rounds, 2, 'one heartbeat per follower');
  assert.deepEqual(net.peer('a').readStates.map((r) => dec(r.requestContext)), ['r1', 'r2', 'r3']);
});

test('two reads with the same context both get an answer', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').readIndex(enc('same'));
  net.node('a').readIndex(enc('same'));
  net.settle();
  assert.equal(net.peer('a').readStates.length, 2);
});

test('a follower forwards a read to the leader and emits the ReadState from its answer', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  net.node('b').readIndex(enc('fr'));
  net.settle();
  assert.ok(net.sent.some((m) => m.type === 'readIndex' && m.from === 'b' && m.to === 'a'));
  assert.ok(net.sent.some((m) => m.type === 'readIndexResp' && m.to === 'b'));
  const rs = net.peer('b').readStates;
  assert.equal(rs.length, 1);
  assert.equal(dec(rs[0]!.requestContext), 'fr');
  assert.equal(rs[0]!.index, 2);
});

test('a new leader delays reads until an entry of its term is committed', () => {
  const net = new Net(['a', 'b', 'c']);
  // Hold back every app so the leader's no-op cannot commit.
  net.filter = (m) => m.type !== 'app';
  net.elect('a');
  net.node('a').readIndex(enc('early'));
  net.settle();
  assert.equal(net.peer('a').readStates.length, 0);
  net.filter = () => true;
  net.tickAll(1);
  const rs = net.peer('a').readStates;
  assert.equal(rs.length, 1);
  assert.equal(rs[0]!.index, 1);
});

test('a single-voter cluster answers a read at once', () => {
  const net = new Net(['a']);
  net.elect('a');
  net.node('a').readIndex(enc('now'));
  const rd = net.node('a').ready();
  assert.equal(rd.readStates.length, 1);
  assert.equal(rd.readStates[0]!.index, 1);
  net.node('a').advance(rd);
});

/** Reads `id` asks, then the heartbeats with a read round's context the network saw meanwhile. */
function readRoundsFor(net: Net, id: string, context: string): number {
  const before = net.sent.length;
  net.node(id).readIndex(enc(context));
  net.settle();
  return net.sent.slice(before).filter((m) => m.type === 'heartbeat' && m.context.byteLength > 0).length;
}

test('with three voters a follower\'s read is answered without a heartbeat round: its request acknowledges the leader', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  assert.equal(readRoundsFor(net, 'b', 'rb'), 0);
  const rs = net.peer('b').readStates.at(-1);
  assert.equal(dec(rs!.requestContext), 'rb');
  assert.equal(rs!.index, net.node('a').status().commit);
  assert.equal(readRoundsFor(net, 'a', 'ra'), 2, 'the leader\'s own read still takes a round');
});

test('with five voters, or from a learner, a follower\'s read still takes a heartbeat round', () => {
  const five = new Net(['a', 'b', 'c', 'd', 'e']);
  five.elect('a');
  assert.equal(readRoundsFor(five, 'b', 'r5'), 4, 'a leader and one follower are no quorum of five');
  assert.equal(five.peer('b').readStates.length, 1);
  const withLearner = new Net(['a', 'b', 'c', 'd'], { learners: ['d'] });
  withLearner.elect('a');
  assert.equal(readRoundsFor(withLearner, 'd', 'rl'), 3, 'a learner acknowledges nothing');
  assert.equal(withLearner.peer('d').readStates.length, 1);
});

test('a follower\'s read that reaches its old leader late is answered at once but dropped by the follower, now in a newer term', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  const held: Message[] = [];
  net.filter = (m) => {
    if (m.type !== 'readIndex') return true;
    held.push(m);
    return false;
  };
  net.node('b').readIndex(enc('late'));
  net.settle();
  assert.equal(held.length, 1);
  net.isolate('a');
  assert.equal(net.elect('c'), 'leader');
  net.node('c').propose(enc('w'));
  net.settle();
  net.heal();
  net.cutLink('a', 'c');
  net.filter = () => true;
  // a still leads term 1 (no check-quorum here) and answers below w, which committed after b voted.
  net.node('a').step(held[0]!);
  net.settle();
  assert.equal(net.peer('b').readStates.length, 0, 'b, in term 2, drops the term-1 answer');
});

test('a read relayed to a leader of an older term is never accepted below a newer commit', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  net.isolate('a');
  assert.equal(net.elect('c'), 'leader');
  net.node('c').propose(enc('w'));
  net.settle();
  const floor = net.node('c').status().commit;
  net.heal();
  net.cutLink('a', 'c');
  // As a relay with a stale leader pointer would (a still leads term 1): the answer's term guards it.
  net.transform = (m) => (m.type === 'readIndex' && m.from === 'b' ? { ...m, to: 'a' } : m);
  net.node('b').readIndex(enc('rb'));
  net.settle();
  for (const rs of net.peer('b').readStates) assert.ok(rs.index >= floor, `b accepted ${rs.index} < ${floor}, committed before it asked`);
});

test('a follower that missed a newer term follows the leader whose read answer brings it', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  net.filter = (m) => m.to !== 'b' || m.type === 'readIndexResp'; // b hears nothing else, but can send
  assert.equal(net.elect('c'), 'leader');
  assert.equal(net.elect('a'), 'leader');
  assert.equal(net.node('b').status().term, 1);
  net.node('b').readIndex(enc('rb'));
  net.settle();
  assert.equal(net.peer('b').readStates.length, 1, 'answered at once');
  const s = net.node('b').status();
  assert.equal(s.term, net.node('a').status().term);
  assert.equal(s.lead, 'a', 'no leaderless spell until the next heartbeat');
});
