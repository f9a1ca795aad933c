import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Operation } from '../../chaos/checkers/history.ts';
import { compareReplicas, lostWrites } from '../../chaos/verdict.ts';

const update = (key: string, rv: number, invokeMs: number): Operation => ({
  process: 'p0', type: 'cas-update', key, input: { value: `v${rv}`, expectedResourceVersion: rv - 1 }, output: { resourceVersion: rv }, invokeMs, completeMs: invokeMs + 5, outcome: 'ok',
});

test('replicas that list different revisions are reported, identical ones are not', () => {
  const same = [{ key: 'k1', value: 'a', resourceVersion: 3 }];
  assert.deepEqual(compareReplicas(new Map([['orch-1', same], ['orch-2', [...same]]])), []);
  const problems = compareReplicas(new Map([['orch-1', same], ['orch-2', [{ key: 'k1', value: 'a', resourceVersion: 4 }]]]));
  assert.equal(problems.length, 1);
});

test('an acknowledged write is lost when the final state is older, or absent with no delete to explain it', () => {
  const history = [update('k1', 5, 0), update('k2', 6, 10)];
  assert.deepEqual(lostWrites(history, [{ key: 'k1', value: 'v5', resourceVersion: 5 }, { key: 'k2', value: 'v6', resourceVersion: 6 }]), []);
  assert.equal(lostWrites(history, [{ key: 'k1', value: 'v4', resourceVersion: 4 }, { key: 'k2', value: 'v6', resourceVersion: 6 }]).length, 1);
  assert.equal(lostWrites(history, [{ key: 'k2', value: 'v6', resourceVersion: 6 }]).length, 1);
  const deleted: Operation = { process: 'p1', type: 'delete', key: 'k1', input: { expectedResourceVersion: 5 }, invokeMs: 20, completeMs: 30, outcome: 'unknown' };
  assert.deepEqual(lostWrites([...history, deleted], [{ key: 'k2', value: 'v6', resourceVersion: 6 }]), []);
});
