// find and findAll run in time linear in the text (RE2's guarantee, which kube has from Go's
// regexp): patterns that make a backtracking engine exponential finish at once, and the
// leftmost-first matches are Go's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileAdmissionExpression } from '../../../internal/cel/index.ts';
import { findAllMatches } from '../../../internal/cel/library/regex.ts';

function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

test('regex linear time: a catastrophic-backtracking pattern finds no match at once', () => {
  const short = timed(() => findAllMatches(`${'a'.repeat(38)}!`, '(a|aa)*b', 1));
  assert.deepEqual(short.value, []);
  const long = timed(() => findAllMatches(`${'a'.repeat(200_000)}!`, '(a|aa)*b', -1));
  assert.deepEqual(long.value, []);
  const nested = timed(() => findAllMatches(`${'a'.repeat(20_000)}!`, '(a*)*$', -1));
  assert.deepEqual(nested.value, ['']);
  assert.ok(short.ms + long.ms + nested.ms < 3000, `took ${short.ms + long.ms + nested.ms}ms`);
});

test('regex linear time: an admission expression with a bomb pattern evaluates promptly', async () => {
  const compiled = compileAdmissionExpression("object.data.x.find('(a|aa)*b') == ''", ['object']).compiled;
  assert.ok(compiled !== undefined);
  const start = performance.now();
  const outcome = await compiled.evaluate({ object: { data: { x: `${'a'.repeat(40)}!` } } });
  assert.deepEqual(outcome, { value: true, cost: (outcome as { cost: number }).cost });
  assert.ok(performance.now() - start < 1000);
});

test('regex linear time: matches keep Go\'s leftmost-first choices and positions', () => {
  const cases: readonly (readonly [string, string, string[]])[] = [
    ['ab', 'a|ab', ['a']],
    ['aaa', 'a+?', ['a', 'a', 'a']],
    ['aaa', '(?U)a+?', ['aaa']],
    ['xaay', 'a*', ['', 'aa', '']],
    ['foo bar', '\\bbar', ['bar']],
    ['foobar', '\\Bbar', ['bar']],
    ['l1\nl2', '(?m)^l\\d$', ['l1', 'l2']],
    ['K\u212Ak', '(?i)k', ['K', '\u212A', 'k']],
    ['😀a😀', '.', ['😀', 'a', '😀']],
    ['abcabc', '(?:abc){2}|abc', ['abcabc']],
    ['xyz', '\\Axyz\\z', ['xyz']],
    ['needle in haystack needle', 'needle', ['needle', 'needle']],
  ];
  for (const [text, pattern, expected] of cases) assert.deepEqual(findAllMatches(text, pattern, -1), expected, `${pattern} on ${JSON.stringify(text)}`);
});

test('regex linear time: case-folding a pattern of many wide (?i) ranges is refused, not run for seconds', () => {
  const pattern = `(?i)[${Array.from({ length: 50 }, (_, i) => `\\x{${(i * 7 + 1).toString(16)}}-\\x{10FFFF}`).join('')}]`;
  const start = performance.now();
  assert.throws(() => findAllMatches('a', pattern, 1), /Illegal regex: error parsing regexp: expression too large/);
  assert.ok(performance.now() - start < 500);
  assert.deepEqual(findAllMatches('abcÉé', '(?i)[\\x{80}-\\x{10FFFF}]+', -1), ['Éé']);
  assert.deepEqual(findAllMatches('\u212Ak', '(?i)[a-z]+', -1), ['\u212Ak']);
});
