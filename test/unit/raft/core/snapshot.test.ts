import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, dec, enc } from './net.ts';
import { index, makeMessage } from '../../../../raft/core/index.ts';

function compactLeader(net: Net, id: string): number {
  const p = net.peer(id);
  const at = p.appliedIndex;
  p.storage.createSnapshot(index(at), net.node(id).status().confState, enc(`state@${at}`));
  p.storage.compact(index(at));
  return at;
}

test('a leader sends a snapshot to a follower that needs compacted entries, and the follower restores it', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('c');
  for (const x of ['1', '2', '3']) net.node('a').propose(enc(x));
  net.settle();
  const at = compactLeader(net, 'a');
  net.node('a').propose(enc('4'));
  net.settle();
  net.heal();
  net.tickAll(2);
  const snaps = net.sent.filter((m) => m.type === 'snap' && m.to === 'c');
  assert.equal(snaps.length, 1);
  const c = net.peer('c');
  assert.equal(c.storage.snapshot().metadata.index, at);
  assert.equal(dec(c.storage.snapshot().data), `state@${at}`);
  assert.deepEqual(c.storage.snapshot().metadata.confState.voters, ['a', 'b', 'c']);
  assert.deepEqual(net.appliedData('c'), ['4'], 'entries after the snapshot are replicated normally');
  assert.equal(net.node('a').status().progress['c']?.state, 'replicate');
});

test('while a snapshot is in flight the leader sends the follower nothing else; a failed report resumes probing', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.isolate('c');
  net.node('a').propose(enc('1'));
  net.settle();
  compactLeader(net, 'a');
  net.heal();
  net.filter = (m) => m.type !== 'snap';
  net.tickAll(3);
  assert.equal(net.node('a').status().progress['c']?.state, 'snapshot');
  net.node('a').reportSnapshot('c', false);
  assert.equal(net.node('a').status().progress['c']?.state, 'probe');
  net.filter = () => true;
  net.tickAll(3);
  assert.equal(net.node('a').status().progress['c']?.state, 'replicate');
  assert.equal(net.node('c').status().commit, net.node('a').status().commit);
});

test('a node restarted from a snapshot in storage resumes after it', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  for (const x of ['1', '2']) net.node('a').propose(enc(x));
  net.settle();
  const at = compactLeader(net, 'b');
  net.restart('b');
  const s = net.node('b').status();
  assert.equal(s.applied, at);
  assert.deepEqual(s.confState.voters, ['a', 'b', 'c']);
  net.node('a').propose(enc('3'));
  net.settle();
  assert.deepEqual(net.appliedData('b'), ['1', '2', '3']);
});

test('MemoryStorage: compact drops entries, keeps the term of the snapshot index, refuses compacted reads', () => {
  const net = new Net(['a']);
  net.elect('a');
  for (const x of ['1', '2', '3']) net.node('a').propose(enc(x));
  net.settle();
  const st = net.peer('a').storage;
  st.createSnapshot(index(3), null, enc('s'));
  st.compact(index(3));
  assert.equal(st.firstIndex(), 4);
  assert.equal(st.lastIndex(), 4);
  assert.equal(st.term(index(3)), 1);
  assert.throws(() => st.entries(index(3), index(5), Infinity), { code: 'Compacted' });
  assert.throws(() => st.entries(index(4), index(6), Infinity), { code: 'Unavailable' });
  const c = st.clone();
  assert.deepEqual(c.entries(index(4), index(5), Infinity), st.entries(index(4), index(5), Infinity));
});

test('a follower installs no snapshot while committed entries it handed to the driver are not applied, and installs it once they are', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  net.settle();
  const c = net.node('c');
  const { term: t, commit: last } = c.status();
  // The leader's next entry, committed, reaches c; the driver takes the Ready and is still applying it.
  const entry = { index: index(last + 1), term: t, type: 'normal' as const, data: enc('x') };
  c.step(makeMessage({ type: 'app', from: 'a', to: 'c', term: t, index: index(last), logTerm: t, entries: [entry], commit: index(last + 1) }));
  const rd = c.ready();
  assert.deepEqual(rd.committedEntries.map((e) => e.index), [last + 1]);
  const snapshot = { metadata: { index: index(last + 5), term: t, confState: c.status().confState }, data: enc('state') };
  const snap = makeMessage({ type: 'snap', from: 'a', to: 'c', term: t, snapshot });
  c.step(snap);
  assert.equal(c.status().commit, last + 1, 'installed a snapshot over entries still being applied');
  net.peer('c').storage.append(rd.entries);
  c.advance(rd);
  const answer = c.ready().messages.find((m) => m.type === 'appResp');
  assert.equal(answer?.index, last + 1, 'the leader learns where the follower stands');
  c.step(snap);
  assert.equal(c.status().commit, last + 5);
  assert.equal(c.ready().snapshot?.metadata.index, last + 5);
});
