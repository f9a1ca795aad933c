// cel-go's parser limits: an expression over 100,000 code points or nested deeper than 250 is a
// compile error in cel-go's words, never a stack overflow escaping as an exception.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchemaRules, compileAdmissionExpression } from '../../../internal/cel/index.ts';

const variables = ['object', 'oldObject', 'request', 'authorizer'];
const depthError = 'compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded';

test('expression limits: deep nesting is the max recursion depth error, not a RangeError', () => {
  const d = 3000;
  for (const expression of [
    `object${'.a'.repeat(d)} == 1`,
    `${Array(d).fill('1').join(' + ')} > 0`,
    `${'('.repeat(d)}1${')'.repeat(d)}`,
    `${'['.repeat(d)}${']'.repeat(d)} == []`,
    `object${'[0]'.repeat(d)} == 1`,
    `has(object${'.a'.repeat(d)})`,
    `${Array(d).fill('true ? 1 :').join(' ')} 0 == 1`,
  ]) {
    assert.equal(compileAdmissionExpression(expression, variables).error, depthError, expression.slice(0, 40));
  }
});

test('expression limits: nesting within the limit and long balanced chains compile', () => {
  assert.ok(compileAdmissionExpression(`object${'.a'.repeat(200)} == 1`, variables).compiled);
  assert.ok(compileAdmissionExpression(Array(5000).fill('true').join(' && '), variables).compiled);
});

test('expression limits: over 100,000 code points is cel-go\'s size error, before parsing', () => {
  const expression = `'${'é'.repeat(100_000)}' == ''`;
  const start = performance.now();
  assert.equal(compileAdmissionExpression(expression, variables).error, 'compilation failed: ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100008, limit 100000');
  assert.ok(performance.now() - start < 500);
  assert.ok(compileAdmissionExpression(`'${'a'.repeat(99_990)}' == ''`, variables).compiled);
});

test('expression limits: a deep CRD validation rule is a field error, not an exception', () => {
  for (const rule of [`self${'.a'.repeat(3000)} == 1`, `${Array(3000).fill('self.x').join(' + ')} > 0`]) {
    const schema = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule }] } } } as never;
    const result = checkSchemaRules(schema, 'spec.validation.openAPIV3Schema');
    assert.equal(result.errors.length, 1);
    assert.match(JSON.stringify(result.errors[0]), /max recursion depth exceeded/);
  }
});
