// Kubernetes' URL library: each example from urls.go's documentation and the docs page, then
// Go net/url behaviours kube inherits (ParseRequestURI to accept, Parse to read the parts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, isCelError, isCelMap, isCelList, type CelValue } from '@bufbuild/cel';
import { kubernetesLibraries } from '../../../internal/cel/library/index.ts';

/** Maps become plain objects of arrays, so query results compare with deepEqual. */
function plain(value: CelValue | Error): unknown {
  if (isCelMap(value)) return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)]));
  if (isCelList(value)) return [...value].map((v) => plain(v));
  return value;
}

function evaluate(expression: string): unknown {
  return plain(run(expression, {}, { funcs: [...kubernetesLibraries] }));
}

const documented: readonly (readonly [string, unknown])[] = [
  ["isURL('https://user:pass@example.com:80/path?query=val#fragment')", true],
  ["isURL('/absolute-path')", true],
  ["isURL('https://a:b:c/')", false],
  ["isURL('../relative-path')", false],
  ["type(url('https://user:pass@example.com:80/path?query=val#fragment')) == type(url('/absolute-path'))", true],
  ["url('/path').getScheme()", ''],
  ["url('https://example.com/').getScheme()", 'https'],
  ["url('https://example.com:80/').getHost()", 'example.com:80'],
  ["url('https://example.com/').getHost()", 'example.com'],
  ["url('https://[::1]:80/').getHost()", '[::1]:80'],
  ["url('https://[::1]/').getHost()", '[::1]'],
  ["url('/path').getHost()", ''],
  ["url('https://example.com:80/').getHostname()", 'example.com'],
  ["url('https://127.0.0.1:80/').getHostname()", '127.0.0.1'],
  ["url('https://[::1]:80/').getHostname()", '::1'],
  ["url('/path').getHostname()", ''],
  ["url('https://example.com:80/').getPort()", '80'],
  ["url('https://example.com/').getPort()", ''],
  ["url('/path').getPort()", ''],
  ["url('https://example.com/path').getEscapedPath()", '/path'],
  ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
  ["url('https://example.com').getEscapedPath()", ''],
  ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ['a'], k2: ['b', 'c'] }],
  ["url('https://example.com/path?key with spaces=value with spaces').getQuery()", { 'key with spaces': ['value with spaces'] }],
  ["url('https://example.com/path?').getQuery()", {}],
  ["url('https://example.com/path').getQuery()", {}],
  // The docs page's table.
  ["url('https://example.com:80/').getHost() == 'example.com:80'", true],
  ["url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'", true],
];

test('URL library: documented examples give the documented results', () => {
  for (const [expression, expected] of documented) assert.deepEqual(evaluate(expression), expected, expression);
});

test('URL library: url() of what ParseRequestURI rejects is an error with Go\'s text', () => {
  for (const [text, error] of [
    ['https://a:b:c/', 'parse "https://a:b:c/": invalid port ":c" after host'],
    ['../relative-path', 'parse "../relative-path": invalid URI for request'],
    ['', 'parse "": empty url'],
    ['https://exa mple.com/', 'parse "https://exa mple.com/": invalid character " " in host name'],
    ['/a%zz', 'parse "/a%zz": invalid URL escape "%zz"'],
    [':no-scheme', 'parse ":no-scheme": missing protocol scheme'],
    ['https://[::1/', 'parse "https://[::1/": missing \']\' in host'],
  ] as const) {
    const result = run(`url(${JSON.stringify(text)})`, {}, { funcs: [...kubernetesLibraries] });
    assert.ok(isCelError(result), text);
    assert.equal(result.message, `URL parse error during conversion from string: ${error}`);
    assert.equal(evaluate(`isURL(${JSON.stringify(text)})`), false, text);
  }
});

test('URL library: Go parsing details kube inherits', () => {
  assert.equal(evaluate("url('HTTPS://Example.com/').getScheme()"), 'https', 'scheme lower-cased');
  assert.equal(evaluate("url('https://example.com/a#frag').getEscapedPath()"), '/a', 'fragment cut by Parse');
  assert.equal(evaluate("url('https://example.com/a%2Fb').getEscapedPath()"), '/a%2Fb', 'raw path kept when valid');
  assert.equal(evaluate("url('https://example.com/a!b').getEscapedPath()"), '/a!b');
  assert.equal(evaluate("url('https://example.com/ü').getEscapedPath()"), '/%C3%BC');
  assert.equal(evaluate("url('mailto:someone@example.com').getHost()"), '', 'opaque URL');
  assert.equal(evaluate("url('//host/path').getHost()"), 'host', 'Parse reads an authority ParseRequestURI saw as a path');
  assert.equal(evaluate("isURL('*')"), true);
  assert.deepEqual(evaluate("url('/p?a=1&a=2&b=%20x+y&bad=%zz&c').getQuery()"), { a: ['1', '2'], b: [' x y'], c: [''] });
  assert.equal(evaluate("url('https://[fe80::1%25en0]:8080/').getHostname()"), 'fe80::1%en0');
  assert.equal(evaluate("url('https://u:p@example.com/') == url('https://u:p@example.com/')"), true);
});
