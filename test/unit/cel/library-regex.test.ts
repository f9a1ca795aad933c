// Kubernetes' regex library: find and findAll with Go's regexp semantics (RE2 syntax,
// leftmost-first matches, FindAllString's handling of empty matches). Where kube's documented
// result differs from what Go's regexp gives, the test pins Go's (kube's actual) behaviour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, isCelError, isCelList, type CelValue } from '@bufbuild/cel';
import { RE2JS } from '@bufbuild/re2';
import { kubernetesLibraries } from '../../../internal/cel/library/index.ts';
import { findAllMatches } from '../../../internal/cel/library/regex.ts';

function evaluate(expression: string): CelValue[] | CelValue | Error {
  const value = run(expression, {}, { funcs: [...kubernetesLibraries] });
  return isCelList(value) ? [...value] : value;
}

const documented: readonly (readonly [string, unknown])[] = [
  ['"abc 123".find(\'xyz\')', ''],
  ['"123 abc 456".findAll(\'[0-9]*\', 1)', ['123']],
  ['"123 abc 456".findAll(\'xyz\')', []],
  // The docs page's table, in the `+` form its prose intends.
  ['"abc 123".find(\'[0-9]+\') == "123"', true],
  ['"1, 2, 3, 4".findAll(\'[0-9]+\').map(x, int(x)).sum() < 100', true],
];

test('regex library: documented examples give the documented results', () => {
  for (const [expression, expected] of documented) assert.deepEqual(evaluate(expression), expected, expression);
});

test('regex library: `*` patterns give Go\'s results, which differ from two documented ones', () => {
  // Documented as '123': Go's FindString returns the leftmost match, the empty one at 0.
  assert.equal(evaluate('"abc 123".find(\'[0-9]*\')'), '');
  // Documented as ['123', '456']: Go keeps empty matches not adjacent to a previous match.
  assert.deepEqual(evaluate('"123 abc 456".findAll(\'[0-9]*\')'), ['123', '', '', '', '', '456']);
  assert.deepEqual(evaluate('"baaac".findAll(\'a*\')'), ['', 'aaa', '']);
});

test('regex library: findAll limits: negative is all, zero is none', () => {
  assert.deepEqual(evaluate('"a1b2c3".findAll(\'[0-9]\', -1)'), ['1', '2', '3']);
  assert.deepEqual(evaluate('"a1b2c3".findAll(\'[0-9]\', 0)'), []);
  assert.deepEqual(evaluate('"a1b2c3".findAll(\'[0-9]\', 2)'), ['1', '2']);
});

test('regex library: RE2 meanings that differ from JavaScript\'s', () => {
  assert.deepEqual(evaluate('"a\\r\\nb".findAll(\'.+\')'), ['a\r', 'b'], '. stops only at \\n');
  assert.deepEqual(evaluate('"a\\u00a0b c".findAll(\'\\\\S+\')'), ['a\u00a0b', 'c'], '\\s is ASCII space only');
  assert.deepEqual(evaluate('"ab".findAll(\'a|ab\')'), ['a'], 'leftmost-first alternation');
  assert.deepEqual(evaluate('"Hello HELLO".findAll(\'(?i)hello\')'), ['Hello', 'HELLO']);
  assert.deepEqual(evaluate('"World world".findAll(\'(?i:w)orld\')'), ['World', 'world']);
  assert.deepEqual(evaluate('"l1\\nl2".findAll(\'(?m)^l[0-9]$\')'), ['l1', 'l2']);
  assert.deepEqual(evaluate('"l1\\nl2".findAll(\'^l[0-9]$\')'), []);
  assert.deepEqual(evaluate('"aaa".findAll(\'(?U)a+\')'), ['a', 'a', 'a']);
  assert.equal(evaluate('"id: x-1".find(\'(?P<id>[[:alpha:]]-[[:digit:]])\')'), 'x-1');
  assert.equal(evaluate('"a.b".find(\'\\\\Q.\\\\E\')'), '.');
  assert.equal(evaluate('"αβγ abc".find(\'\\\\p{Greek}+\')'), 'αβγ');
  assert.equal(evaluate('"x{1}".find(\'x{1\')'), 'x{1');
  assert.equal(evaluate('"ab\\ncd".find(\'\\\\Ab\')'), '');
  assert.equal(evaluate('"ab\\ncd".find(\'cd\\\\z\')'), 'cd');
});

test('regex library: empty matches move on by a whole code point', () => {
  assert.deepEqual(evaluate('"😀x".findAll(\'\')'), ['', '', '']);
});

test('regex library: a pattern RE2 rejects is an Illegal regex error with Go\'s text', () => {
  for (const [pattern, text] of [
    ['(abc', 'error parsing regexp: missing closing ): `(abc`'],
    ['(?=a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['\\\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
  ] as const) {
    const result = evaluate(`"abc".find('${pattern}')`);
    assert.ok(isCelError(result), pattern);
    assert.equal(result.message, `Illegal regex: ${text}`);
    assert.ok(isCelError(evaluate(`"abc".findAll('${pattern}')`)), pattern);
  }
});

test('regex library: on generated patterns, findAll finds a match exactly when RE2 says one exists', () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor(seed / 65536) % n;
  };
  const atoms = ['a', 'A', '.', '\\s', '\\S', '\\d', '\\w', '\\W', '[a-c]', '[^ab]', '[[:alpha:]]', '\\pL', '\\p{Greek}', 'é', 'k', '^', '$', '\\b', '\\B', '\\A', '\\z', '\\n', '\\.', '[\\-a]', '[a\\]]', '\\x{3b1}', '\\Q.*\\E', '[\\S]', '{', ']', '[k-m]', '[à-ÿ]', '[α-ω]'];
  const wrap = (atom: string) =>
    [`(${atom})`, `(?:${atom})*`, `${atom}+`, `${atom}?`, `(?i:${atom})`, `(?s:${atom})`, `(?m:${atom})`, `${atom}{1,2}`, `${atom}|a`, `(?U)${atom}+`, `(?i)${atom}`, atom][random(12)] as string;
  const characters = ['a', 'A', 'K', 'k', '\u212a', ' ', '\n', '\r', '\u00a0', '\u000b', 'é', 'É', 'α', 'Α', 'ς', 'Σ', '1', '.', '-', ']', '{', '*', '😀', 'x'];
  let checked = 0;
  for (let i = 0; i < 600; i++) {
    let pattern = '';
    for (let j = 0; j <= random(4); j++) pattern += wrap(atoms[random(atoms.length)] as string);
    let re2: RE2JS;
    try {
      re2 = RE2JS.compile(pattern);
    } catch {
      continue;
    }
    for (let k = 0; k < 10; k++) {
      let text = '';
      for (let m = random(6); m > 0; m--) text += characters[random(characters.length)];
      assert.equal(findAllMatches(text, pattern, -1).length > 0, re2.test(text), `${pattern} on ${JSON.stringify(text)}`);
      checked++;
    }
  }
  assert.ok(checked > 4000);
});
