// Property names as expression identifiers (SPEC "Expression-language type mapping"; kube's
// escaping rules, with the examples kube's API documentation gives).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapePropertyName, unescapePropertyName, celReservedWords } from '../../../internal/cel/escaping.ts';
import { validateRules } from '../../../internal/cel/crd-rules.ts';

test('names that are identifiers already stay as they are', () => {
  for (const name of ['foo', 'fooBar', '_foo', 'a1', 'int', 'string', 'self']) assert.equal(escapePropertyName(name), name);
});

test('__, ., - and / are escaped (kube: redact__d, x-prop, a.b, a/b)', () => {
  assert.equal(escapePropertyName('redact__d'), 'redact__underscores__d');
  assert.equal(escapePropertyName('x-prop'), 'x__dash__prop');
  assert.equal(escapePropertyName('a.b'), 'a__dot__b');
  assert.equal(escapePropertyName('a/b'), 'a__slash__b');
  assert.equal(escapePropertyName('foo__bar-baz.qux/x'), 'foo__underscores__bar__dash__baz__dot__qux__slash__x');
  assert.equal(escapePropertyName('___'), '__underscores___');
  assert.equal(escapePropertyName('-leading'), '__dash__leading');
});

test('reserved words are wrapped in __ (kube: namespace)', () => {
  assert.equal(escapePropertyName('namespace'), '__namespace__');
  for (const word of celReservedWords) assert.equal(escapePropertyName(word), `__${word}__`);
  assert.equal(celReservedWords.size, 21);
});

test('names that cannot be escaped are not accessible', () => {
  for (const name of ['', '1abc', 'a b', 'a@b', 'ключ', 'a:b']) assert.equal(escapePropertyName(name), undefined, name);
});

test('unescaping inverts escaping, and rejects what escaping never produces', () => {
  for (const name of ['x-prop', 'redact__d', 'namespace', 'a.b/c', 'plain']) {
    const escaped = escapePropertyName(name);
    assert.ok(escaped !== undefined);
    assert.equal(unescapePropertyName(escaped), name);
  }
  assert.equal(unescapePropertyName('a__b'), undefined);
});

test('rules reach escaped properties, and unescapable ones are invisible', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { 'x-prop': { type: 'integer' }, namespace: { type: 'string' }, 'redact__d': { type: 'integer' }, 'a b': { type: 'string' } },
        'x-kubernetes-validations': [
          { rule: 'self.x__dash__prop > 0' },
          { rule: "self.__namespace__ == 'ns'" },
          { rule: 'self.redact__underscores__d > 0' },
          { rule: 'self.size() == 3' },
        ],
      },
    },
  };
  const ok = validateRules(schema, { spec: { 'x-prop': 1, namespace: 'ns', 'redact__d': 2, 'a b': 'hidden' } }, undefined);
  assert.deepEqual(ok.errors, []);
  const bad = validateRules(schema, { spec: { 'x-prop': 0, namespace: 'other', 'redact__d': 2 } }, undefined);
  assert.deepEqual(bad.errors.map((e) => e.message), [
    'Invalid value: "object": failed rule: self.x__dash__prop > 0',
    'Invalid value: "object": failed rule: self.__namespace__ == \'ns\'',
  ]);
});
