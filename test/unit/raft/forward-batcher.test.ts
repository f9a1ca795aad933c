import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ForwardBatcher } from '../../../raft/forward-batcher.ts';
import type { ForwardBatcherLimits, ForwardItemResult, SendForwardBatch } from '../../../raft/forward-batcher.ts';
import { RaftNodeError } from '../../../raft/errors.ts';
import type { RaftNodeErrorCode } from '../../../raft/errors.ts';

/** One ForwardBatch call the fake peer received; the test answers it by hand. */
interface FakeCall {
  readonly commands: string[];
  readonly deadline: number;
  answer(position: number, result: ForwardItemResult): void;
  end(): void;
  fail(err: RaftNodeError): void;
}

function fakePeer(): { calls: FakeCall[]; send: SendForwardBatch } {
  const calls: FakeCall[] = [];
  const send: SendForwardBatch = (commands, deadline, onResult) => new Promise<void>((resolve, reject) => {
    calls.push({ commands: commands.map((c) => text(c)), deadline, answer: onResult, end: resolve, fail: reject });
  });
  return { calls, send };
}

const limits: ForwardBatcherLimits = { itemsMax: 100, bytesMax: 1 << 20, inFlightMax: 4, queueItemsMax: 1000 };
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const ok = (s: string): ForwardItemResult => ({ ok: true, data: enc(s) });
const failed = (code: RaftNodeErrorCode, message: string = code): ForwardItemResult => ({ ok: false, code, message });

/** Answers every command of a call with its own text upper-cased, then ends the call. */
function answerAll(call: FakeCall): void {
  call.commands.forEach((c, i) => call.answer(i, ok(c.toUpperCase())));
  call.end();
}

function isCode(code: RaftNodeErrorCode): (e: unknown) => boolean {
  return (e: unknown) => e instanceof RaftNodeError && e.code === code;
}

test('commands forwarded in the same turn go out in one call and each gets its own answer', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, limits);
  const answers = ['a', 'b', 'c'].map((s) => b.forward(enc(s), 5000));
  assert.equal(peer.calls.length, 0, 'nothing is sent before the turn ends');
  await nextTurn();
  assert.equal(peer.calls.length, 1);
  assert.deepEqual(peer.calls[0]!.commands, ['a', 'b', 'c']);
  // Answers arrive in any order and each reaches its own caller.
  peer.calls[0]!.answer(2, ok('C'));
  peer.calls[0]!.answer(0, ok('A'));
  peer.calls[0]!.answer(1, ok('B'));
  peer.calls[0]!.end();
  assert.deepEqual((await Promise.all(answers)).map(text), ['A', 'B', 'C']);
  assert.deepEqual(b.stats(), { batches: 1, commands: 3, inFlight: 0, queued: 0 });
});

test('commands forwarded in different turns go out in different calls while calls may still be started', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, limits);
  const first = b.forward(enc('a'), 5000);
  await nextTurn();
  const second = b.forward(enc('b'), 5000);
  await nextTurn();
  assert.deepEqual(peer.calls.map((c) => c.commands), [['a'], ['b']]);
  peer.calls.forEach(answerAll);
  assert.deepEqual([text(await first), text(await second)], ['A', 'B']);
});

test('the item limit splits one turn of commands into several calls, in order', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, { ...limits, itemsMax: 3 });
  const answers = Array.from({ length: 7 }, (_, i) => b.forward(enc(`c${i}`), 5000));
  await nextTurn();
  assert.deepEqual(peer.calls.map((c) => c.commands), [['c0', 'c1', 'c2'], ['c3', 'c4', 'c5'], ['c6']]);
  peer.calls.forEach(answerAll);
  assert.deepEqual((await Promise.all(answers)).map(text), ['C0', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6']);
});

test('the byte limit splits calls, and a command larger than the limit still goes alone', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, { ...limits, bytesMax: 10 });
  const answers = ['aaaa', 'bbbb', 'cccc', 'x'.repeat(25), 'dd'].map((s) => b.forward(enc(s), 5000));
  await nextTurn();
  assert.deepEqual(peer.calls.map((c) => c.commands), [['aaaa', 'bbbb'], ['cccc'], ['x'.repeat(25)], ['dd']]);
  peer.calls.forEach(answerAll);
  assert.equal((await Promise.all(answers)).length, 5);
});

test('while the most calls are in flight, later commands wait and coalesce into one call when one ends', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, { ...limits, inFlightMax: 1 });
  const first = b.forward(enc('a'), 5000);
  await nextTurn();
  const later = [b.forward(enc('b'), 5000)];
  await nextTurn();
  later.push(b.forward(enc('c'), 5000));
  await nextTurn();
  assert.equal(peer.calls.length, 1, 'no second call while one is in flight');
  assert.equal(b.stats().queued, 2);
  answerAll(peer.calls[0]!);
  assert.equal(text(await first), 'A');
  await nextTurn();
  assert.deepEqual(peer.calls.map((c) => c.commands), [['a'], ['b', 'c']]);
  answerAll(peer.calls[1]!);
  assert.deepEqual((await Promise.all(later)).map(text), ['B', 'C']);
});

test('each command fails with its own code and the others of its call still succeed', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, limits);
  const [a, bb, c, d] = ['a', 'b', 'c', 'd'].map((s) => b.forward(enc(s), 5000));
  await nextTurn();
  const call = peer.calls[0]!;
  call.answer(0, failed('ProposalDropped'));
  call.answer(1, ok('B'));
  call.answer(2, failed('Remote', 'handler exploded'));
  call.answer(3, failed('NotLeader'));
  call.end();
  await assert.rejects(a!, isCode('ProposalDropped'));
  assert.equal(text(await bb!), 'B');
  await assert.rejects(c!, (e: unknown) => isCode('Remote')(e) && (e as Error).message === 'handler exploded');
  await assert.rejects(d!, isCode('NotLeader'));
});

test('a failed call fails only the commands it had not answered, with its own code', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, limits);
  const [a, bb, c] = ['a', 'b', 'c'].map((s) => b.forward(enc(s), 5000));
  await nextTurn();
  peer.calls[0]!.answer(1, ok('B'));
  peer.calls[0]!.fail(new RaftNodeError('Unavailable', 'connection reset'));
  await assert.rejects(a!, isCode('Unavailable'));
  assert.equal(text(await bb!), 'B');
  await assert.rejects(c!, isCode('Unavailable'));
});

test('a call that ends without answering a command fails that command with Unavailable', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, limits);
  const [a, bb] = ['a', 'b'].map((s) => b.forward(enc(s), 5000));
  await nextTurn();
  peer.calls[0]!.answer(0, ok('A'));
  peer.calls[0]!.end();
  assert.equal(text(await a!), 'A');
  await assert.rejects(bb!, isCode('Unavailable'));
});

test('a command times out on its own deadline while the rest of its call is answered later', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, limits);
  const quick = b.forward(enc('quick'), 20);
  const patient = b.forward(enc('patient'), 5000);
  await nextTurn();
  const call = peer.calls[0]!;
  assert.ok(call.deadline >= Date.now() + 4000, 'the call lasts as long as its latest command');
  await assert.rejects(quick, isCode('Timeout'));
  call.answer(0, ok('too late'));
  call.answer(1, ok('PATIENT'));
  call.end();
  assert.equal(text(await patient), 'PATIENT');
});

test('a command that timed out while queued is never sent', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, { ...limits, inFlightMax: 1 });
  const first = b.forward(enc('a'), 5000);
  await nextTurn();
  const expired = b.forward(enc('expired'), 10);
  const kept = b.forward(enc('kept'), 5000);
  await assert.rejects(expired, isCode('Timeout'));
  answerAll(peer.calls[0]!);
  await first;
  await nextTurn();
  assert.deepEqual(peer.calls.map((c) => c.commands), [['a'], ['kept']]);
  answerAll(peer.calls[1]!);
  assert.equal(text(await kept), 'KEPT');
});

test('a full queue refuses with QueueFull, and closing fails queued commands with Unavailable', async () => {
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', peer.send, { ...limits, inFlightMax: 1, queueItemsMax: 2 });
  const inFlight = b.forward(enc('a'), 5000);
  await nextTurn();
  const queued = [b.forward(enc('b'), 5000), b.forward(enc('c'), 5000)];
  await assert.rejects(b.forward(enc('d'), 5000), isCode('QueueFull'));
  b.close();
  for (const q of queued) await assert.rejects(q, isCode('Unavailable'));
  await assert.rejects(b.forward(enc('e'), 5000), isCode('Unavailable'));
  // The call in flight still delivers its answer.
  answerAll(peer.calls[0]!);
  assert.equal(text(await inFlight), 'A');
  assert.equal(peer.calls.length, 1);
});

test('a sender that throws fails its call\'s commands with Unavailable and later calls still go out', async () => {
  let throwNext = true;
  const peer = fakePeer();
  const b = new ForwardBatcher('leader', (commands, deadline, onResult) => {
    if (throwNext) {
      throwNext = false;
      throw new Error('channel closed');
    }
    return peer.send(commands, deadline, onResult);
  }, limits);
  await assert.rejects(b.forward(enc('a'), 5000), isCode('Unavailable'));
  const next = b.forward(enc('b'), 5000);
  await nextTurn();
  answerAll(peer.calls[0]!);
  assert.equal(text(await next), 'B');
});
