// The checker itself must fail when a property breaks: each case feeds it a synthetic history
// that violates exactly one property and expects the matching SimViolation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage } from '../../raft/core/memory-storage.ts';
import { index, term } from '../../raft/core/types.ts';
import type { Entry, HardState } from '../../raft/core/types.ts';
import { Invariants, SimViolation } from './invariants.ts';

const enc = new TextEncoder();

function entry(i: number, t: number, data = ''): Entry {
  return { index: index(i), term: term(t), type: 'normal', data: enc.encode(data) };
}

function hs(t: number, vote: string, commit: number): HardState {
  return { term: term(t), vote, commit: index(commit) };
}

function logOf(...entries: Entry[]): MemoryStorage {
  const s = new MemoryStorage();
  s.append(entries);
  return s;
}

function violates(kind: string, f: () => void): void {
  assert.throws(f, (e: unknown) => e instanceof SimViolation && e.kind === kind);
}

test('two leaders in one term break election safety', () => {
  const inv = new Invariants();
  inv.becameLeader('a', 3, logOf());
  violates('election safety', () => inv.becameLeader('b', 3, logOf()));
});

test('a node granting its vote to two candidates in one term breaks election safety', () => {
  const inv = new Invariants();
  inv.voteGranted('a', 'b', 2);
  inv.voteGranted('a', 'b', 2);
  violates('election safety', () => inv.voteGranted('a', 'c', 2));
});

test('different entries with the same index and term break log matching', () => {
  const inv = new Invariants();
  const a = logOf(entry(1, 1, 'x'));
  inv.persisted('a', [entry(1, 1, 'x')], a);
  violates('log matching', () => inv.persisted('b', [entry(1, 1, 'y')], logOf(entry(1, 1, 'y'))));
});

test('a durable commit index that goes down breaks durable state', () => {
  const inv = new Invariants();
  const log = logOf(entry(1, 1), entry(2, 1));
  inv.hardState('a', hs(0, '', 0), hs(1, '', 2), log);
  violates('durable state', () => inv.hardState('a', hs(1, '', 2), hs(1, '', 1), log));
});

test('a later leader missing a committed entry breaks leader completeness', () => {
  const inv = new Invariants();
  inv.hardState('a', hs(0, '', 0), hs(2, '', 1), logOf(entry(1, 2, 'x')));
  violates('leader completeness', () => inv.becameLeader('b', 3, logOf(entry(1, 1, 'old'))));
});

test('two nodes applying different entries at one index break state machine safety', () => {
  const inv = new Invariants();
  inv.applied('a', entry(1, 1, 'x'), 1);
  violates('state machine safety', () => inv.applied('b', entry(1, 2, 'y'), 1));
  violates('applied beyond commit', () => inv.applied('c', entry(2, 1, 'z'), 1));
});

test('a read answered below what was committed when it was asked breaks read index', () => {
  const inv = new Invariants();
  inv.hardState('a', hs(0, '', 0), hs(1, '', 2), logOf(entry(1, 1), entry(2, 1)));
  inv.readRequested('r1');
  inv.readAnswered('a', 'r1', 2);
  inv.readRequested('r2');
  violates('read index', () => inv.readAnswered('a', 'r2', 1));
});
