import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProposalTracker } from '../../../raft/proposal-tracker.ts';
import { RaftNodeError } from '../../../raft/errors.ts';
import { index, term } from '../../../raft/core/types.ts';
import type { Entry } from '../../../raft/core/types.ts';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const ent = (i: number, t: number, s: string): Entry => ({ index: index(i), term: term(t), type: 'normal', data: bytes(s) });
const code = (c: string) => (e: unknown) => e instanceof RaftNodeError && e.code === c;

test('proposals match the appended entries in order, skipping the no-op, and resolve when applied with the same term', async () => {
  const t = new ProposalTracker();
  const a = t.add('normal', bytes('a'));
  const b = t.add('normal', bytes('b'));
  t.onAppended([ent(5, 2, ''), ent(6, 2, 'a'), ent(7, 2, 'b')]);
  t.onApplied([ent(5, 2, ''), ent(6, 2, 'a'), ent(7, 2, 'b')]);
  assert.equal(await a, 6);
  assert.equal(await b, 7);
  assert.equal(t.size, 0);
});

test("each proposal's commit is timed from its own proposal, and only while its entry keeps its term", () => {
  const t = new ProposalTracker();
  void t.add('normal', bytes('a'), 100);
  void t.add('normal', bytes('b'), 104);
  void t.add('normal', bytes('c'), 105);
  t.onAppended([ent(5, 2, ''), ent(6, 2, 'a'), ent(7, 2, 'b'), ent(8, 2, 'c')]);
  const observed: number[] = [];
  t.onCommitted([ent(5, 2, ''), ent(6, 2, 'a'), ent(7, 2, 'b')], 110, (ms) => observed.push(ms));
  t.onCommitted([ent(8, 3, 'other')], 120, (ms) => observed.push(ms));
  assert.deepEqual(observed, [10, 6]);
});

test('a proposal missing from the next Ready is dropped', async () => {
  const t = new ProposalTracker();
  const a = t.add('normal', bytes('a'));
  const b = t.add('normal', bytes('b'));
  t.onAppended([ent(3, 1, 'a')]);
  await assert.rejects(b, code('ProposalDropped'));
  t.onApplied([ent(3, 1, 'a')]);
  assert.equal(await a, 3);
});

test('a proposal whose index applies with another term is overwritten', async () => {
  const t = new ProposalTracker();
  const a = t.add('normal', bytes('a'));
  t.onAppended([ent(3, 1, 'a')]);
  t.onApplied([ent(3, 2, 'other')]);
  await assert.rejects(a, code('ProposalOverwritten'));
});

test('a snapshot covering a pending proposal fails it with an unknown outcome, and failAll fails the rest', async () => {
  const t = new ProposalTracker();
  const a = t.add('normal', bytes('a'));
  const b = t.add('normal', bytes('b'));
  t.onAppended([ent(3, 1, 'a'), ent(9, 1, 'b')]);
  t.onSnapshotApplied(index(5));
  await assert.rejects(a, code('OutcomeUnknown'));
  t.failAll(new RaftNodeError('Stopped', 'x'));
  await assert.rejects(b, code('Stopped'));
});

test('empty proposals are refused: empty data is the leader no-op', () => {
  assert.throws(() => new ProposalTracker().add('normal', new Uint8Array(0)), /assert/);
});
