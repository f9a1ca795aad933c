import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, enc } from './net.ts';

test('a campaigning node wins a majority, bumps its term and appends a no-op entry', () => {
  const net = new Net(['a', 'b', 'c']);
  assert.equal(net.elect('a'), 'leader');
  const s = net.node('a').status();
  assert.equal(s.term, 1);
  assert.equal(s.vote, 'a');
  // Raft §8: "each leader commit a blank no-op entry into the log at the start of its term".
  assert.equal(s.commit, 1);
  for (const id of ['b', 'c']) {
    assert.equal(net.node(id).status().lead, 'a');
    assert.equal(net.peer(id).applied.length, 1);
  }
});

test('the election timeout is randomized in [electionTicks, 2*electionTicks) and a follower campaigns after it', () => {
  const net = new Net(['a', 'b', 'c']);
  net.tickAll(9);
  assert.equal(net.leader(), null, 'no one campaigns before electionTicks');
  net.tickAll(12);
  assert.notEqual(net.leader(), null, 'someone campaigns before 2*electionTicks');
});

test('a node grants at most one vote per term (Raft §5.2: "at most one candidate in a given term")', () => {
  const net = new Net(['a', 'b', 'c']);
  net.node('a').campaign();
  net.node('b').campaign();
  net.settle();
  const leaders = ['a', 'b', 'c'].filter((id) => net.node(id).status().role === 'leader');
  assert.ok(leaders.length <= 1);
});

test('a vote is denied to a candidate whose log is less up-to-date (Raft §5.4.1)', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('c');
  net.node('a').propose(enc('x'));
  net.settle();
  net.heal();
  // c's log lacks 'x': a and b must refuse it, so it cannot win.
  net.isolate('a');
  net.elect('c');
  assert.notEqual(net.node('c').status().role, 'leader');
  const refusals = net.sent.filter((m) => m.type === 'voteResp' && m.to === 'c' && m.from === 'b');
  assert.ok(refusals.length > 0 && refusals.every((m) => m.reject));
});

test('a node restarted from storage recovers term, vote and commit', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  const before = net.node('b').status();
  net.restart('b');
  const after = net.node('b').status();
  assert.equal(after.term, before.term);
  assert.equal(after.vote, before.vote);
  assert.equal(after.commit, before.commit);
  assert.equal(after.applied, before.applied);
  assert.equal(after.role, 'follower');
});

test('a restarted leader re-applies nothing below config.applied and continues the log', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').propose(enc('x'));
  net.settle();
  net.restart('a');
  assert.equal(net.node('a').hasReady(), false);
  net.elect('a');
  net.node('a').propose(enc('y'));
  net.settle();
  assert.deepEqual(net.appliedData('a'), ['x', 'y']);
  assert.deepEqual(net.appliedData('b'), ['x', 'y']);
});

test('a leader that hears of a higher term steps down (Raft §5.1)', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('a');
  net.elect('b');
  net.heal();
  net.tickAll(1);
  assert.equal(net.node('a').status().role, 'follower');
  assert.equal(net.node('a').status().lead, 'b');
});

test('a single-node cluster elects itself and commits alone', () => {
  const net = new Net(['a']);
  net.tickAll(20);
  assert.equal(net.node('a').status().role, 'leader');
  net.node('a').propose(enc('solo'));
  net.settle();
  assert.deepEqual(net.appliedData('a'), ['solo']);
});

test('proposals without a known leader are refused with ProposalDropped', () => {
  const net = new Net(['a', 'b', 'c']);
  assert.throws(() => net.node('a').propose(enc('x')), { name: 'RaftError', code: 'ProposalDropped' });
});
