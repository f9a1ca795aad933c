// The leader's cap on the bytes of entries appended and not yet committed (etcd's
// MaxUncommittedEntriesSize): a flood of proposals, local or relayed by followers, cannot grow a
// leader's log in memory while a quorum does not keep up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, enc } from './net.ts';
import { RaftError } from '../../../../raft/core/index.ts';
import { UncommittedBytes } from '../../../../raft/core/uncommitted-bytes.ts';

const bytes = (n: number): Uint8Array => new Uint8Array(n).fill(120);

function dropped(f: () => void): boolean {
  try {
    f();
    return false;
  } catch (e) {
    if (e instanceof RaftError && e.code === 'ProposalDropped') return true;
    throw e;
  }
}

/** A 3-node group led by a, whose followers hear nothing (so nothing commits). */
function cutOffLeader(cap: number): Net {
  const net = new Net(['a', 'b', 'c'], { maxUncommittedEntriesBytes: cap });
  net.elect('a');
  net.isolate('a');
  return net;
}

test('a leader refuses a proposal that would pass the cap on uncommitted bytes', () => {
  const net = cutOffLeader(100);
  net.node('a').propose(bytes(60));
  net.node('a').propose(bytes(40)); // exactly at the cap
  assert.ok(dropped(() => net.node('a').propose(bytes(1))));
  net.settle();
  assert.equal(net.node('a').status().commit, 1, 'nothing past the no-op committed');
});

test('the first proposal passes even when larger than the cap, the next does not', () => {
  const net = cutOffLeader(100);
  net.node('a').propose(bytes(500));
  assert.ok(dropped(() => net.node('a').propose(bytes(1))));
});

test('committed entries free the cap for new proposals', () => {
  const net = cutOffLeader(100);
  net.node('a').propose(bytes(100));
  assert.ok(dropped(() => net.node('a').propose(bytes(10))));
  net.heal();
  net.tickAll(1);
  net.settle();
  assert.equal(net.node('a').status().commit, 2);
  net.node('a').propose(bytes(100));
  net.settle();
  assert.deepEqual(net.peer('b').applied.map((e) => e.data.byteLength), [0, 100, 100]);
});

test('a leader drops a relayed proposal beyond the cap without failing the follower, and takes it again later', () => {
  const net = new Net(['a', 'b', 'c'], { maxUncommittedEntriesBytes: 100 });
  net.elect('a');
  net.cutLink('a', 'c'); // a commits with b; c only relays
  // Hold back b's acknowledgements: a's entries stay uncommitted.
  net.filter = (m) => !(m.from === 'b' && m.type === 'appResp');
  net.node('a').propose(bytes(100));
  net.settle();
  net.heal();
  net.node('c').propose(enc('relayed')); // the follower does not know about the cap: no error here
  net.settle();
  assert.ok(!net.peer('a').applied.some((e) => new TextDecoder().decode(e.data) === 'relayed'), 'dropped by the leader');
  net.filter = () => true;
  net.tickAll(2);
  net.node('c').propose(enc('relayed')); // its proposer proposes it again (raft/node.ts relays until applied)
  net.settle();
  assert.ok(net.peer('c').applied.some((e) => new TextDecoder().decode(e.data) === 'relayed'));
});

test('a new leader starts with nothing counted, and its empty no-op always passes', () => {
  const net = cutOffLeader(10);
  net.node('a').propose(bytes(10));
  net.heal();
  net.isolate('a');
  net.elect('b'); // b leads term 3 with c; a's uncommitted entry is lost or kept, never counted by b
  net.node('b').propose(bytes(10));
  assert.ok(dropped(() => net.node('b').propose(bytes(1))));
});

test('a refused conf change does not block the next one', () => {
  const net = cutOffLeader(10);
  net.node('a').propose(bytes(10));
  assert.ok(dropped(() => net.node('a').proposeConfChange({ changes: [{ type: 'addLearner', nodeId: 'd' }], context: new Uint8Array(0) })));
  net.heal();
  net.tickAll(1);
  net.settle();
  net.node('a').proposeConfChange({ changes: [{ type: 'addLearner', nodeId: 'd' }], context: new Uint8Array(0) });
  net.settle();
  assert.deepEqual(net.node('a').status().confState.learners, ['d']);
});

test('the counter never goes below zero when entries it did not count commit', () => {
  const counter = new UncommittedBytes(100);
  assert.ok(counter.tryAdd([{ data: bytes(30) }]));
  counter.release([{ data: bytes(50) }]);
  assert.equal(counter.value, 0);
  assert.ok(counter.tryAdd([{ data: new Uint8Array(0) }]));
  assert.equal(counter.value, 0);
});
