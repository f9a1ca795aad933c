import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jointCommitted, jointVote, majorityCommitted, majorityVote } from '../../../../raft/core/quorum.ts';
import { Inflights } from '../../../../raft/core/inflights.ts';
import { Progress } from '../../../../raft/core/progress.ts';
import { RaftLog } from '../../../../raft/core/raft-log.ts';
import { MemoryStorage, index, term } from '../../../../raft/core/index.ts';
import type { Entry, Index } from '../../../../raft/core/index.ts';

const ids = (...xs: string[]): Set<string> => new Set(xs);
const acked = (m: Record<string, number>) => (id: string): Index | undefined => (m[id] === undefined ? undefined : index(m[id]));

test('majority commit index is the highest index matched by a majority', () => {
  assert.equal(majorityCommitted(ids('a', 'b', 'c'), acked({ a: 5, b: 3, c: 1 })), 3);
  assert.equal(majorityCommitted(ids('a', 'b', 'c', 'd'), acked({ a: 5, b: 3, c: 2, d: 1 })), 2);
  assert.equal(majorityCommitted(ids('a'), acked({ a: 7 })), 7);
  assert.equal(majorityCommitted(ids(), acked({})), Infinity);
});

test('a joint commit index is the smaller of both majorities', () => {
  const v = { incoming: ids('a', 'd', 'e'), outgoing: ids('a', 'b', 'c') };
  assert.equal(jointCommitted(v, acked({ a: 9, d: 9, e: 9, b: 2, c: 1 })), 2);
});

test('votes: won, lost and pending; joint needs both halves', () => {
  const v = (m: Record<string, boolean>) => (id: string): boolean | undefined => m[id];
  assert.equal(majorityVote(ids('a', 'b', 'c'), v({ a: true, b: true })), 'won');
  assert.equal(majorityVote(ids('a', 'b', 'c'), v({ a: true, b: false })), 'pending');
  assert.equal(majorityVote(ids('a', 'b', 'c'), v({ a: true, b: false, c: false })), 'lost');
  const j = { incoming: ids('a', 'd', 'e'), outgoing: ids('a', 'b', 'c') };
  assert.equal(jointVote(j, v({ a: true, d: true, e: true })), 'pending');
  assert.equal(jointVote(j, v({ a: true, d: true, b: true })), 'won');
  assert.equal(jointVote(j, v({ a: true, d: true, b: false, c: false })), 'lost');
});

test('inflights are bounded and freed in order', () => {
  const f = new Inflights(2);
  f.add(index(3));
  f.add(index(5));
  assert.ok(f.full());
  assert.throws(() => f.add(index(6)));
  f.freeLE(index(4));
  assert.equal(f.count(), 1);
  f.freeFirstOne();
  assert.equal(f.count(), 0);
});

test('progress: a probe rejection jumps to the hint; stale rejections are ignored', () => {
  const p = new Progress(index(11), 4, false);
  assert.equal(p.maybeDecrTo(index(10), index(4)), true);
  assert.equal(p.next, 5);
  assert.equal(p.maybeDecrTo(index(10), index(2)), false, 'stale: next-1 is no longer 10');
  p.maybeUpdate(index(4));
  p.becomeReplicate();
  assert.equal(p.next, 5);
  p.optimisticUpdate(index(9));
  assert.equal(p.maybeDecrTo(index(3), index(0)), false, 'at or below match: stale');
  assert.equal(p.maybeDecrTo(index(7), index(0)), true);
  assert.equal(p.next, 5);
});

test('raft log: findConflictByTerm finds the last index whose term is <= the given term', () => {
  const st = new MemoryStorage();
  const e = (i: number, t: number): Entry => ({ index: index(i), term: term(t), type: 'normal', data: new Uint8Array(0) });
  st.append([e(1, 1), e(2, 1), e(3, 2), e(4, 2), e(5, 4)]);
  const log = new RaftLog(st, Infinity);
  assert.deepEqual(log.findConflictByTerm(index(5), term(3)), [4, 2]);
  assert.deepEqual(log.findConflictByTerm(index(5), term(1)), [2, 1]);
  assert.deepEqual(log.findConflictByTerm(index(5), term(0)), [0, 0]);
  assert.equal(log.isUpToDate(index(5), term(4)), true);
  assert.equal(log.isUpToDate(index(9), term(3)), false, 'a higher last term wins over length');
});

test('raft log: maybeAppend truncates a conflicting uncommitted suffix', () => {
  const st = new MemoryStorage();
  const e = (i: number, t: number): Entry => ({ index: index(i), term: term(t), type: 'normal', data: new Uint8Array(0) });
  st.append([e(1, 1), e(2, 1), e(3, 1)]);
  const log = new RaftLog(st, Infinity);
  assert.equal(log.maybeAppend(index(1), term(1), index(2), [e(2, 2)]), 2);
  assert.equal(log.lastIndex(), 2);
  assert.equal(log.term(index(2)), 2);
  assert.equal(log.committed, 2);
  assert.equal(log.maybeAppend(index(2), term(1), index(2), [e(3, 2)]), null, 'prev term mismatch');
});
