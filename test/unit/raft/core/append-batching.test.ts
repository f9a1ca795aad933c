// Fewer messages per committed write: a follower relays the proposals of a Ready in one message;
// the proposals and acknowledgements a leader steps between two Readies go out as one append per
// follower; and a commit-only append to a follower whose acknowledgement the leader already holds
// asks for no answer. (Followers that infer commits get no commit-only appends at all: see
// commit-inference.test.ts; the tests here mark one follower as of an earlier version.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Net, enc } from './net.ts';
import { index, makeMessage, term } from '../../../../raft/core/index.ts';
import type { Message } from '../../../../raft/core/index.ts';
import { coalesceProposals } from '../../../../raft/core/message.ts';

function count(msgs: readonly Message[], pred: (m: Message) => boolean): number {
  return msgs.filter(pred).length;
}

test('proposals relayed in one batch reach each follower in one append, acknowledged once', () => {
  const net = new Net(['a', 'b', 'c']);
  net.elect('a');
  const before = net.sent.length;
  for (let i = 0; i < 10; i++) net.node('c').propose(enc(`x${i}`));
  net.settle();
  const sent = net.sent.slice(before);
  const props = sent.filter((m) => m.type === 'prop');
  assert.equal(props.length, 1, 'relayed in one message');
  assert.deepEqual(props[0]!.entries.map((e) => new TextDecoder().decode(e.data)), Array.from({ length: 10 }, (_, i) => `x${i}`));
  for (const f of ['b', 'c']) {
    assert.equal(count(sent, (m) => m.type === 'app' && m.to === f && m.entries.length > 0), 1, `appends with entries to ${f}`);
    assert.equal(count(sent, (m) => m.type === 'appResp' && m.from === f), 1, `answers from ${f}`);
  }
  for (const id of ['a', 'b', 'c']) assert.equal(net.appliedData(id).length, 10);
});

/** A network whose followers answer as before commit inference: every commit reaches them in an append. */
function netWithoutInference(): Net {
  const net = new Net(['a', 'b', 'c']);
  net.asEarlierVersion(['a', 'b', 'c']);
  return net;
}

test('the commit reaches every follower in one commit-only append, which asks for no answer', () => {
  const net = netWithoutInference();
  net.elect('a');
  const before = net.sent.length;
  net.node('a').propose(enc('x'));
  net.settle();
  const sent = net.sent.slice(before);
  for (const f of ['b', 'c']) {
    const commits = sent.filter((m) => m.type === 'app' && m.to === f && m.entries.length === 0);
    assert.equal(commits.length, 1, `commit-only appends to ${f}`);
    assert.deepEqual([...commits[0]!.context], [1], 'marked as asking no answer');
    assert.equal(count(sent, (m) => m.type === 'appResp' && m.from === f), 1, `only the entry is acknowledged by ${f}`);
  }
  assert.deepEqual(net.appliedData('b'), ['x']);
});

test('an append that is not commit-only, or goes to a follower whose ack is missing, is answered', () => {
  const net = netWithoutInference();
  net.elect('a');
  // b's acknowledgement is lost: the leader's commit-only append to b must be answered.
  let dropped = false;
  net.filter = (m) => {
    if (m.type === 'appResp' && m.from === 'b' && !dropped) {
      dropped = true;
      return false;
    }
    return true;
  };
  const before = net.sent.length;
  net.node('a').propose(enc('y'));
  net.settle();
  const sent = net.sent.slice(before);
  const toB = sent.filter((m) => m.type === 'app' && m.to === 'b' && m.entries.length === 0);
  assert.ok(toB.length >= 1);
  assert.equal(toB[0]!.context.byteLength, 0, 'b has not acknowledged: an answer is wanted');
  assert.equal(net.node('a').status().progress['b']?.match, net.node('a').status().progress['a']?.match, 'the leader learnt b\'s match from the answer');
});

test('proposals are merged only when consecutive, to the same node, and within the byte cap', () => {
  const prop = (to: string, data: string): Message => makeMessage({ type: 'prop', from: 'c', to, entries: [{ term: term(0), index: index(0), type: 'normal', data: enc(data) }] });
  const beat = makeMessage({ type: 'heartbeatResp', from: 'c', to: 'a' });
  const out = coalesceProposals([prop('a', '11'), prop('a', '22'), beat, prop('a', '33'), prop('b', '44'), prop('b', '55'), prop('b', '66')], 4);
  const shape = out.map((m) => `${m.type}:${m.to}:${m.entries.map((e) => new TextDecoder().decode(e.data)).join(',')}`);
  assert.deepEqual(shape, ['prop:a:11,22', 'heartbeatResp:a:', 'prop:a:33', 'prop:b:44,55', 'prop:b:66']);
});
