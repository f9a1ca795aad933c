// The strings extension as kubernetesLibraries registers it (@bufbuild/cel's, a superset of
// the version kube 1.28 enables): the documented examples of the functions kube 1.28 has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, isCelError, isCelList, type CelValue } from '@bufbuild/cel';
import { kubernetesLibraries } from '../../../internal/cel/library/index.ts';

function evaluate(expression: string): unknown {
  const value = run(expression, {}, { funcs: [...kubernetesLibraries] });
  return isCelList(value) ? [...value] : (value as CelValue);
}

const documented: readonly (readonly [string, unknown])[] = [
  ["'hello'.charAt(4)", 'o'],
  ["'hello'.charAt(5)", ''],
  ["'hello mellow'.indexOf('')", 0n],
  ["'hello mellow'.indexOf('ello')", 1n],
  ["'hello mellow'.indexOf('jello')", -1n],
  ["'hello mellow'.indexOf('', 2)", 2n],
  ["'hello mellow'.indexOf('ello', 2)", 7n],
  ["'hello mellow'.lastIndexOf('')", 12n],
  ["'hello mellow'.lastIndexOf('ello')", 7n],
  ["'hello mellow'.lastIndexOf('jello')", -1n],
  ["'hello mellow'.lastIndexOf('ello', 6)", 1n],
  ["'TacoCat'.lowerAscii()", 'tacocat'],
  ["'TacoCÆt Xii'.lowerAscii()", 'tacocÆt xii'],
  ["'hello hello'.replace('he', 'we')", 'wello wello'],
  ["'hello hello'.replace('he', 'we', -1)", 'wello wello'],
  ["'hello hello'.replace('he', 'we', 1)", 'wello hello'],
  ["'hello hello'.replace('he', 'we', 0)", 'hello hello'],
  ["'hello hello hello'.split(' ')", ['hello', 'hello', 'hello']],
  ["'hello hello hello'.split(' ', 0)", []],
  ["'hello hello hello'.split(' ', 1)", ['hello hello hello']],
  ["'hello hello hello'.split(' ', 2)", ['hello', 'hello hello']],
  ["'hello hello hello'.split(' ', -1)", ['hello', 'hello', 'hello']],
  ["'tacocat'.substring(4)", 'cat'],
  ["'tacocat'.substring(0, 4)", 'taco'],
  ["'  \\ttrim\\n    '.trim()", 'trim'],
  ["'TacoCat'.upperAscii()", 'TACOCAT'],
  ["'TacoCÆt Xii'.upperAscii()", 'TACOCÆT XII'],
];

test('strings extension: documented examples give the documented results', () => {
  for (const [expression, expected] of documented) assert.deepEqual(evaluate(expression), expected, expression);
});

test('strings extension: replace and split follow Go around empty separators and limits', () => {
  assert.equal(evaluate("'ab'.replace('', '-')"), '-a-b-');
  assert.equal(evaluate("'ab'.replace('', '-', 2)"), '-a-b');
  assert.deepEqual(evaluate("'a😀b'.split('')"), ['a', '😀', 'b']);
  assert.deepEqual(evaluate("'a,b,c'.split(',', 5)"), ['a', 'b', 'c']);
});

test('strings extension: indexes count code points, as Go runes', () => {
  assert.equal(evaluate("'😀a'.indexOf('a')"), 1n);
  assert.equal(evaluate("'a😀b😀'.lastIndexOf('😀')"), 3n);
  assert.equal(evaluate("'😀ab'.charAt(1)"), 'a');
  assert.equal(evaluate("'😀ab'.substring(1, 2)"), 'a');
});

test('strings extension: out-of-range indexes are errors with cel-go\'s texts', () => {
  for (const [expression, message] of [
    ["'hello'.charAt(6)", 'index out of range: 6'],
    ["'hello'.indexOf('l', 5)", 'index out of range: 5'],
    ["'hello'.lastIndexOf('l', -1)", 'index out of range: -1'],
    ["'tacocat'.substring(40)", 'index out of range: 40'],
    ["'tacocat'.substring(4, 2)", 'invalid substring range. start: 4, end: 2'],
  ] as const) {
    const result = run(expression, {}, { funcs: [...kubernetesLibraries] });
    assert.ok(isCelError(result), expression);
    assert.equal(result.message, message, expression);
  }
});

test('strings extension and list library share indexOf by receiver type', () => {
  assert.equal(evaluate("'abc'.indexOf('c')"), 2n);
  assert.equal(evaluate("['a', 'b', 'c'].indexOf('c')"), 2n);
});
