// Kubernetes' list library: each example from lists.go's documentation and the "Kubernetes
// list library" table of "Common Expression Language in Kubernetes", with its documented
// result, then the errors kube gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, isCelError, celUint, type CelInput, type CelValue } from '@bufbuild/cel';
import { kubernetesLibraries } from '../../../internal/cel/library/index.ts';

function evaluate(expression: string, bindings: Record<string, CelInput> = {}): CelValue | Error {
  return run(expression, bindings, { funcs: [...kubernetesLibraries] });
}

/** [expression, documented result]; the expressions use the documented literals. */
const documented: readonly (readonly [string, unknown])[] = [
  ['[1, 2, 3].isSorted()', true],
  ["['a', 'b', 'b', 'c'].isSorted()", true],
  ['[2.0, 1.0].isSorted()', false],
  ['[1].isSorted()', true],
  ['[].isSorted()', true],
  ['[1, 3].sum()', 4n],
  ['[1.0, 3.0].sum()', 4.0],
  ["[duration('1m'), duration('1s')].sum() == duration('1m1s')", true],
  ['[].sum()', 0n],
  ['[1, 3].min()', 1n],
  ['[1, 3].max()', 3n],
  ['[1].min()', 1n],
  ['([0] + emptyList).min()', 0n],
  ['[1, 2, 2, 3].indexOf(2)', 1n],
  ["['a', 'b', 'b', 'c'].lastIndexOf('b')", 2n],
  ['[1.0].indexOf(1.1)', -1n],
  ["[].indexOf('string')", -1n],
  // The docs page's table, with bound variables.
  ['names.isSorted()', true],
  ['items.map(x, x.weight).sum() == 1.0', true],
  ['lowPriorities.map(x, x.priority).max() < highPriorities.map(x, x.priority).min()', true],
  ["names.indexOf('should-be-first') == 1", true],
  ["names.lastIndexOf('should-be-last') == names.size() - 1", true],
];

const bindings: Record<string, CelInput> = {
  emptyList: [],
  names: ['a-first', 'should-be-first', 'should-be-last'],
  items: [{ weight: 0.25 }, { weight: 0.75 }],
  lowPriorities: [{ priority: 1n }, { priority: 2n }],
  highPriorities: [{ priority: 5n }, { priority: 3n }],
};

test('list library: documented examples give the documented results', () => {
  for (const [expression, expected] of documented) {
    assert.deepEqual(evaluate(expression, bindings), expected, expression);
  }
});

test('list library: uint, bytes, bool, timestamp and duration lists are ordered by their type', () => {
  assert.deepEqual(evaluate('[3u, 1u].min()'), celUint(1n));
  assert.deepEqual(evaluate('[1u, 2u].sum()'), celUint(3n));
  assert.equal(evaluate("[b'a', b'b'].isSorted()"), true);
  assert.equal(evaluate('[false, true].isSorted()'), true);
  assert.equal(evaluate("[timestamp('2024-01-02T00:00:00Z'), timestamp('2023-01-01T00:00:00Z')].max() == timestamp('2024-01-02T00:00:00Z')"), true);
  assert.equal(evaluate("[duration('2s'), duration('1s')].isSorted()"), false);
});

test('list library: strings order by code point, not UTF-16 unit', () => {
  // U+FF5E sorts before U+1F600 by code point, after it by UTF-16 code unit.
  assert.equal(evaluate("['\\uFF5E', '\\U0001F600'].isSorted()"), true);
});

test('list library: indexOf uses CEL equality (numbers across types, lists by element)', () => {
  assert.equal(evaluate('[1, 2u, 3.0].indexOf(3)'), 2n);
  assert.equal(evaluate('[[1], [2]].lastIndexOf([2])'), 1n);
  assert.equal(evaluate("[{'a': 1}].indexOf({'a': 1})"), 0n);
});

test('list library: min and max of an empty list are errors with kube\'s text', () => {
  const min = evaluate('[].min()');
  const max = evaluate('[].max()');
  assert.ok(isCelError(min) && min.message === 'min called on empty list');
  assert.ok(isCelError(max) && max.message === 'max called on empty list');
});

test('list library: sums that overflow, and lists of incomparable values, are errors', () => {
  const overflow = evaluate('[9223372036854775807, 1].sum()');
  assert.ok(isCelError(overflow) && overflow.message === 'integer overflow');
  assert.ok(isCelError(evaluate("[1, 'a'].sum()")));
  assert.ok(isCelError(evaluate('[[1], [2]].isSorted()')));
  assert.ok(isCelError(evaluate("[{'a': 1}].min()")));
});
