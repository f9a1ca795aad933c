// Library call costs as kube's library/cost.go computes them: runtime costs from actual
// arguments (receiver first), static estimates from size ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { celList, celMap, type CelValue } from '@bufbuild/cel';
import { libraryCostEstimates, libraryCosts, traversalCost } from '../../../internal/cel/library/index.ts';

function cost(name: string, args: readonly CelValue[], result?: CelValue): number | undefined {
  const costOf = libraryCosts.get(name);
  assert.ok(costOf !== undefined, name);
  return costOf(args, result);
}

test('library costs: regex functions cost ceil((1+len(text))×0.1) × ceil(len(regex)×0.25)', () => {
  assert.equal(cost('find', ['abc 123', '[0-9]+']), 1 * 2);
  assert.equal(cost('findAll', ['x'.repeat(100), 'a'.repeat(40)]), 11 * 10);
  assert.equal(cost('find', ['', 'abcd']), 1 * 1, 'an empty text still costs the regex');
});

test('library costs: list functions cost one traversal of the list', () => {
  assert.equal(cost('sum', [celList([1n, 2n, 3n])]), 3);
  assert.equal(cost('isSorted', [celList(['a'.repeat(20), 'b'.repeat(30)])]), 2 + 3);
  assert.equal(cost('indexOf', [celList([]), 1n]), 0);
  assert.equal(cost('lastIndexOf', ['a'.repeat(25), 'a']), 2, 'string receiver');
  assert.equal(traversalCost(celMap(new Map<string, CelValue>([['key'.repeat(10), 'v']]))), 3 + 0);
});

test('library costs: string scans cost len×0.1 (rounded up), replace/split twice that', () => {
  assert.equal(cost('url', ['https://example.com/']), 2);
  assert.equal(cost('quantity', ['1500Mi']), 1);
  assert.equal(cost('lowerAscii', ['ABC']), 1);
  assert.equal(cost('replace', ['a'.repeat(11), 'a', 'b']), 3);
  assert.equal(cost('join', [celList(['a', 'b'])], 'a'.repeat(10)), 2);
});

test('library costs: an authorization check costs 350000, builders and accessors 1', () => {
  assert.equal(cost('check', []), 350000);
  for (const name of ['path', 'group', 'serviceAccount', 'resource', 'subresource', 'namespace', 'name', 'allowed', 'reason', 'errored', 'error']) {
    assert.equal(cost(name, []), 1, name);
  }
  for (const name of ['sign', 'asInteger', 'isInteger', 'asApproximateFloat', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub']) {
    assert.equal(cost(name, []), 1, name);
  }
});

test('library estimates: static ranges follow kube\'s EstimateCallCost', () => {
  const estimate = (name: string, ...nodes: Parameters<NonNullable<ReturnType<typeof libraryCostEstimates.get>>>) => libraryCostEstimates.get(name)?.(...nodes);
  assert.deepEqual(estimate('find', { size: { min: 0, max: 100 } }, [{ size: { min: 10, max: 10 } }])?.cost, { min: 1 * 3, max: 11 * 3 });
  assert.deepEqual(estimate('sum', { size: { min: 0, max: 50 }, kind: 'list', elementKind: 'other' }, [])?.cost, { min: 0, max: 50 });
  assert.deepEqual(estimate('max', { size: { min: 1, max: 10 }, kind: 'list', elementKind: 'string', elementSize: { min: 0, max: 64 } }, [])?.cost, { min: 1, max: 10 * 8 });
  assert.deepEqual(estimate('check', undefined, [])?.cost, { min: 350000, max: 350000 });
  assert.deepEqual(estimate('url', undefined, [{ size: { min: 0, max: 2048 } }])?.cost, { min: 0, max: 205 });
  assert.equal(estimate('quantity', undefined, [{ size: { min: 0, max: 10 } }]), undefined, 'kube gives no estimate without a receiver');
});
