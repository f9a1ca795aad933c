import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, enc } from './net.ts';

test('leadership moves to an up-to-date target via timeoutNow (thesis §3.10)', () => {
  const net = new Net(['a', 'b', 'c'], { preVote: true, checkQuorum: true });
  net.elect('a');
  const t = net.node('a').status().term;
  net.node('a').transferLeadership('b');
  net.settle();
  assert.ok(net.sent.some((m) => m.type === 'timeoutNow' && m.to === 'b'));
  // The target campaigns at once, bypassing pre-vote and the voters' leader lease.
  assert.ok(!net.sent.some((m) => m.type === 'preVote' && m.from === 'b'));
  assert.equal(net.node('b').status().role, 'leader');
  assert.equal(net.node('b').status().term, t + 1);
  assert.equal(net.node('a').status().lead, 'b');
});

test('the leader first brings a lagging target up to date, then sends timeoutNow', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('c');
  for (const x of ['1', '2']) net.node('a').propose(enc(x));
  net.settle();
  net.heal();
  net.node('a').transferLeadership('c');
  net.settle();
  assert.equal(net.node('c').status().role, 'leader');
  assert.deepEqual(net.appliedData('c'), ['1', '2']);
});

test('a leader refuses proposals while a transfer is in progress', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('b');
  net.node('a').transferLeadership('b');
  net.settle();
  assert.throws(() => net.node('a').propose(enc('x')), { code: 'ProposalDropped' });
  assert.equal(net.node('a').status().leadTransferee, 'b');
});

test('a transfer that does not finish within an election timeout is aborted', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('b');
  net.node('a').transferLeadership('b');
  net.settle();
  for (let i = 0; i < 10; i++) {
    net.node('a').tick();
    net.settle();
  }
  assert.equal(net.node('a').status().leadTransferee, '');
  assert.equal(net.node('a').status().role, 'leader');
  net.node('a').propose(enc('after'));
  net.settle();
  assert.deepEqual(net.appliedData('c'), ['after']);
});

test('a follower forwards a transfer request to the leader', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('b').transferLeadership('c');
  net.settle();
  assert.equal(net.node('c').status().role, 'leader');
});
