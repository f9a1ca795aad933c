import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, enc } from './net.ts';
import { MemoryStorage, decodeConfChange, encodeConfChange } from '../../../../raft/core/index.ts';
import type { ConfChange, ConfState, NodeId } from '../../../../raft/core/index.ts';

const cc = (changes: ConfChange['changes'], transition?: ConfChange['transition']): ConfChange => ({
  changes,
  context: new Uint8Array(0),
  ...(transition ? { transition } : {}),
});

/** Adds an empty node that starts with the cluster's current membership (as a joining server is told). */
function join(net: Net, id: NodeId, leader: NodeId): void {
  net.addPeer(id);
  const p = net.peer(id);
  p.storage = new MemoryStorage({ confState: net.node(leader).status().confState });
  net.restart(id);
}

function voters(net: Net, id: NodeId): readonly NodeId[] {
  return net.node(id).status().confState.voters;
}

test('adding a voter: the new node catches up and counts in the quorum', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  join(net, 'd', 'a');
  net.node('a').proposeConfChange(cc([{ type: 'addVoter', nodeId: 'd' }]));
  net.settle();
  net.tickAll(2);
  for (const id of ['a', 'b', 'c', 'd']) assert.deepEqual(voters(net, id), ['a', 'b', 'c', 'd'], id);
  net.isolate('c');
  net.isolate('d');
  net.node('a').propose(enc('needs-3-of-4'));
  net.settle();
  assert.deepEqual(net.appliedData('a'), [], 'a and b alone are not a majority of four');
  net.heal();
  net.tickAll(1);
  assert.deepEqual(net.appliedData('d'), ['needs-3-of-4']);
});

test('only one conf change may be pending at a time', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').proposeConfChange(cc([{ type: 'addLearner', nodeId: 'x' }]));
  assert.throws(() => net.node('a').proposeConfChange(cc([{ type: 'addLearner', nodeId: 'y' }])), { code: 'ConfChangePending' });
  net.settle();
  net.node('a').proposeConfChange(cc([{ type: 'addLearner', nodeId: 'y' }]));
  net.settle();
  assert.deepEqual(net.node('a').status().confState.learners, ['x', 'y']);
});

test('removing a voter shrinks the quorum', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').proposeConfChange(cc([{ type: 'removeNode', nodeId: 'c' }]));
  net.settle();
  assert.deepEqual(voters(net, 'a'), ['a', 'b']);
  net.isolate('c');
  net.node('a').propose(enc('two-of-two'));
  net.settle();
  assert.deepEqual(net.appliedData('b'), ['two-of-two']);
});

test('a removed leader steps down once the change is applied, and the rest elect a new leader', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.node('a').proposeConfChange(cc([{ type: 'removeNode', nodeId: 'a' }]));
  net.settle();
  assert.equal(net.node('a').status().role, 'follower');
  net.isolate('a');
  net.tickAll(30);
  const l = net.leader();
  assert.ok(l === 'b' || l === 'c', `leader ${l}`);
  net.node(l).propose(enc('after'));
  net.settle();
  assert.deepEqual(net.appliedData('b'), ['after']);
});

test('a learner is replicated to but never votes, campaigns or counts toward commit', () => {
  const net = new Net(['a', 'b', 'c', 'l'], { learners: ['l'] });
  net.elect('a');
  net.node('a').propose(enc('1'));
  net.settle();
  assert.deepEqual(net.appliedData('l'), ['1']);
  net.isolate('b');
  net.isolate('c');
  net.node('a').propose(enc('2'));
  net.settle();
  assert.deepEqual(net.appliedData('a'), ['1'], 'a + learner is not a quorum of {a,b,c}');
  net.heal();
  net.isolate('a');
  for (let i = 0; i < 40; i++) {
    net.node('l').tick();
    net.settle();
  }
  assert.equal(net.node('l').status().role, 'follower');
  assert.ok(!net.sent.some((m) => (m.type === 'vote' || m.type === 'preVote') && m.from === 'l'));
});

test('a learner is promoted to voter by addVoter', () => {
  const net = new Net(['a', 'b', 'l'], { learners: ['l'] });
  net.elect('a');
  net.node('a').proposeConfChange(cc([{ type: 'addVoter', nodeId: 'l' }]));
  net.settle();
  const cs: ConfState = net.node('l').status().confState;
  assert.deepEqual(cs.voters, ['a', 'b', 'l']);
  assert.deepEqual(cs.learners, []);
  net.isolate('a');
  net.tickAll(30);
  assert.ok(net.leader() === 'b' || net.leader() === 'l');
});

test('a multi-change conf change goes through a joint configuration and leaves it automatically', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  join(net, 'd', 'a');
  net.node('a').proposeConfChange(cc([{ type: 'addVoter', nodeId: 'd' }, { type: 'removeNode', nodeId: 'c' }]));
  net.settle();
  const seen = net.peer('b').confStates;
  assert.equal(seen.length, 2, 'enter joint, then the automatic leave');
  assert.deepEqual(seen[0]!.voters, ['a', 'b', 'd']);
  assert.deepEqual(seen[0]!.votersOutgoing, ['a', 'b', 'c']);
  assert.deepEqual(seen[1]!.voters, ['a', 'b', 'd']);
  assert.deepEqual(seen[1]!.votersOutgoing, []);
});

test('in a joint configuration commit needs a majority of both C_old and C_new (Raft §6)', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  join(net, 'd', 'a');
  net.node('a').proposeConfChange(
    cc([{ type: 'addVoter', nodeId: 'd' }, { type: 'removeNode', nodeId: 'b' }, { type: 'removeNode', nodeId: 'c' }], 'jointExplicit'),
  );
  net.settle();
  assert.deepEqual(net.node('a').status().confState.votersOutgoing, ['a', 'b', 'c']);
  net.isolate('b');
  net.isolate('c');
  net.node('a').propose(enc('j'));
  net.settle();
  assert.deepEqual(net.appliedData('a'), [], 'a+d is a majority of C_new but not of C_old');
  net.heal();
  net.tickAll(1);
  assert.deepEqual(net.appliedData('a'), ['j']);
  assert.throws(() => net.node('a').proposeConfChange(cc([{ type: 'addLearner', nodeId: 'z' }])), { code: 'ConfChangePending' });
  net.node('a').proposeConfChange(cc([]));
  net.settle();
  assert.deepEqual(net.node('a').status().confState.voters, ['a', 'd']);
  assert.deepEqual(net.node('a').status().confState.votersOutgoing, []);
});

test('in a joint configuration an election needs a majority of both halves', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  join(net, 'd', 'a');
  join(net, 'e', 'a');
  net.node('a').proposeConfChange(
    cc([{ type: 'addVoter', nodeId: 'd' }, { type: 'addVoter', nodeId: 'e' }, { type: 'removeNode', nodeId: 'b' }, { type: 'removeNode', nodeId: 'c' }], 'jointExplicit'),
  );
  net.settle();
  net.tickAll(1);
  // With b and c cut off, d can gather a, d and e: a majority of C_new {a,d,e} but not of C_old {a,b,c}.
  net.isolate('b');
  net.isolate('c');
  net.node('d').campaign();
  net.settle();
  assert.notEqual(net.node('d').status().role, 'leader');
});

test('conf changes encode deterministically and round-trip', () => {
  const c = cc([{ type: 'addVoter', nodeId: 'n1' }, { type: 'addLearner', nodeId: 'n2' }], 'jointExplicit');
  const withCtx: ConfChange = { ...c, context: enc('https://n1:2380') };
  assert.deepEqual(encodeConfChange(withCtx), encodeConfChange(withCtx));
  assert.deepEqual(decodeConfChange(encodeConfChange(withCtx)), withCtx);
  assert.deepEqual(decodeConfChange(encodeConfChange(cc([]))), cc([]));
});
