import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FlagError, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';

test('flow control defaults to API Priority and Fairness over 400 + 200 seats', () => {
  assert.deepEqual(parseReplicaFlags(['--name', 'orch-1']).flowControl, { priorityAndFairness: true, maxRequestsInflight: 400, maxMutatingRequestsInflight: 200 });
});

test('--enable-priority-and-fairness takes Go booleans, alone meaning true, and the limits take 0', () => {
  const off = parseReplicaFlags(['--name', 'orch-1', '--enable-priority-and-fairness=false', '--max-requests-inflight', '0', '--max-mutating-requests-inflight', '7']).flowControl;
  assert.deepEqual(off, { priorityAndFairness: false, maxRequestsInflight: 0, maxMutatingRequestsInflight: 7 });
  assert.equal(parseReplicaFlags(['--name', 'orch-1', '--enable-priority-and-fairness']).flowControl.priorityAndFairness, true);
  assert.equal(parseReplicaFlags(['--name', 'orch-1', '--enable-priority-and-fairness=F']).flowControl.priorityAndFairness, false);
});

test('bad flow control flags are refused naming the flag', () => {
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--enable-priority-and-fairness=maybe']), (err: unknown) => err instanceof FlagError && /--enable-priority-and-fairness/.test(err.message));
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--max-requests-inflight=-1']), (err: unknown) => err instanceof FlagError && /--max-requests-inflight/.test(err.message));
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--max-requests-inflight', '0', '--max-mutating-requests-inflight', '0']), (err: unknown) => err instanceof FlagError && /must be positive/.test(err.message));
  // With APF off, both limits at 0 mean no limit at all.
  assert.equal(parseReplicaFlags(['--name', 'orch-1', '--enable-priority-and-fairness=false', '--max-requests-inflight', '0', '--max-mutating-requests-inflight', '0']).flowControl.maxRequestsInflight, 0);
});
