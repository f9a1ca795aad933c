import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, enc } from './net.ts';

test('a pre-candidate does not bump its term, and a partitioned node does not disrupt the cluster on rejoin (thesis §9.6)', () => {
  const net = new Net(['a', 'b', 'c'], { preVote: true, checkQuorum: true });
  net.elect('a');
  const t = net.node('a').status().term;
  net.isolate('c');
  net.tickAll(50);
  assert.equal(net.node('c').status().term, t, 'pre-votes never reached a quorum, so the term stayed');
  assert.equal(net.node('c').status().role, 'preCandidate');
  net.heal();
  net.tickAll(3);
  assert.equal(net.node('a').status().role, 'leader');
  assert.equal(net.node('a').status().term, t);
  assert.equal(net.node('c').status().lead, 'a');
});

test('without pre-vote a rejoining partitioned node forces a new term', () => {
  const net = new Net(['a', 'b', 'c'], { preVote: false });
  net.elect('a');
  const t = net.node('a').status().term;
  net.isolate('c');
  net.tickAll(50);
  assert.ok(net.node('c').status().term > t);
  net.heal();
  net.tickAll(30);
  assert.ok(net.node('a').status().term > t);
});

test('pre-vote wins and then runs a real election in term + 1', () => {
  const net = new Net(['a', 'b', 'c'], { preVote: true });
  assert.equal(net.elect('a'), 'leader');
  assert.equal(net.node('a').status().term, 1);
  assert.ok(net.sent.some((m) => m.type === 'preVote' && m.term === 1));
});

test('with checkQuorum a voter that heard from its leader within the election timeout ignores vote requests (thesis §4.2.3)', () => {
  const net = new Net(['a', 'b', 'c'], { checkQuorum: true });
  net.elect('a');
  net.cutLink('a', 'c');
  net.node('c').campaign();
  net.settle();
  // b heard from a recently: it ignores c's request entirely, so c cannot win.
  assert.equal(net.node('a').status().role, 'leader');
  assert.equal(net.node('b').status().lead, 'a');
  assert.ok(!net.sent.some((m) => m.type === 'voteResp' && m.from === 'b' && m.to === 'c'));
});

test('with checkQuorum a leader that does not hear from a quorum for an election timeout steps down', () => {
  const net = new Net(['a', 'b', 'c'], { checkQuorum: true });
  net.elect('a');
  net.isolate('a');
  for (let i = 0; i < 25; i++) {
    net.node('a').tick();
    net.settle();
  }
  assert.equal(net.node('a').status().role, 'follower');
  assert.throws(() => net.node('a').propose(enc('x')), { code: 'ProposalDropped' });
});

test('with checkQuorum a leader that hears from a quorum stays leader', () => {
  const net = new Net(['a', 'b', 'c'], { checkQuorum: true });
  net.elect('a');
  net.isolate('c');
  for (let i = 0; i < 25; i++) {
    net.node('a').tick();
    net.node('b').tick();
    net.settle();
  }
  assert.equal(net.node('a').status().role, 'leader');
});

test('planted bug voteWithoutLogCheck lets a stale candidate win', () => {
  for (const bug of [false, true]) {
    const net = new Net(['a', 'b', 'c'], bug ? { bugs: { voteWithoutLogCheck: true } } : {});
    net.elect('a');
    net.isolate('c');
    net.node('a').propose(enc('x'));
    net.settle();
    net.heal();
    net.isolate('a');
    net.elect('c');
    assert.equal(net.node('c').status().role === 'leader', bug, `bug=${bug}`);
  }
});

test('planted bug voteNotPersisted: the new vote is missing from the persisted hard state', () => {
  for (const bug of [false, true]) {
    const net = new Net(['a', 'b', 'c'], bug ? { bugs: { voteNotPersisted: true } } : {});
    net.elect('a');
    assert.equal(net.node('b').status().vote, 'a');
    const hs = net.peer('b').storage.initialState().hardState;
    assert.equal(hs.term, 1);
    assert.equal(hs.vote, bug ? '' : 'a', `bug=${bug}`);
    net.restart('b');
    assert.equal(net.node('b').status().vote, bug ? '' : 'a');
  }
});

/** a leads b and c with pre-vote and check-quorum; then a is cut off, as if its process died. */
function deadLeader(): Net {
  const net = new Net(['a', 'b', 'c'], { preVote: true, checkQuorum: true });
  net.elect('a');
  net.isolate('a');
  return net;
}

/** Ticks b and c (not the cut-off a) `n` times, settling after each. */
function tickFollowers(net: Net, n: number): void {
  for (let i = 0; i < n; i++) {
    net.node('b').tick();
    net.node('c').tick();
    net.settle();
  }
}

test('followers that both forget a dead leader elect the next within an election timeout', () => {
  const net = deadLeader();
  net.node('b').forgetLeader();
  net.node('c').forgetLeader();
  assert.equal(net.node('b').status().lead, '');
  tickFollowers(net, 9);
  const next = [net.node('b').status(), net.node('c').status()].find((s) => s.role === 'leader');
  assert.ok(next !== undefined, 'b or c leads after 9 ticks (election timeout 10)');
  assert.equal(next.term, 2);
});

test('followers that forget a dead leader campaign in id order: the first leads after one tick, unopposed', () => {
  const net = deadLeader();
  net.node('b').forgetLeader();
  net.node('c').forgetLeader();
  tickFollowers(net, 1);
  assert.equal(net.node('b').status().role, 'leader');
  // c never campaigned: it granted b's pre-vote and vote while waiting its turn.
  assert.deepEqual([net.node('b').status().term, net.node('c').status().term], [2, 2]);
  assert.equal(net.node('c').status().lead, 'b');
});

test('a follower behind in the log is passed over: the next in id order leads in its turn', () => {
  const net = new Net(['a', 'b', 'c'], { preVote: true, checkQuorum: true });
  net.elect('a');
  net.cutLink('a', 'b');
  net.node('a').propose(enc('only a and c have this'));
  net.settle();
  net.isolate('a');
  net.node('b').forgetLeader();
  net.node('c').forgetLeader();
  tickFollowers(net, 1);
  // b ran first and c refused it on its log; c runs a quarter of an election timeout later.
  assert.notEqual(net.node('b').status().role, 'leader');
  tickFollowers(net, 3);
  assert.equal(net.node('c').status().role, 'leader');
  assert.equal(net.node('b').status().lead, 'c');
});

test('followers that do not forget a dead leader elect nobody within an election timeout', () => {
  const net = deadLeader();
  tickFollowers(net, 9);
  assert.equal(net.node('b').status().lead, 'a');
  assert.equal(net.node('c').status().lead, 'a');
});

test('a lone follower that forgets a live leader deposes nobody, and hears from the leader again', () => {
  const net = new Net(['a', 'b', 'c'], { preVote: true, checkQuorum: true });
  net.elect('a');
  net.node('c').forgetLeader();
  net.node('c').campaign();
  net.settle();
  // b still holds a's lease: it ignores c's pre-vote, so no term moves.
  assert.equal(net.node('a').status().role, 'leader');
  assert.deepEqual(['a', 'b', 'c'].map((id) => net.node(id).status().term), [1, 1, 1]);
  net.node('a').tick();
  net.settle();
  assert.equal(net.node('c').status().role, 'follower');
  assert.equal(net.node('c').status().lead, 'a');
});

test('a leader ignores forgetLeader', () => {
  const net = new Net(['a', 'b', 'c'], { preVote: true, checkQuorum: true });
  net.elect('a');
  net.node('a').forgetLeader();
  assert.equal(net.node('a').status().role, 'leader');
  assert.equal(net.node('a').status().lead, 'a');
});
