// CRD create/update: the schema's rules must compile, and oldSelf is only allowed where old
// values correlate; errors at kube's schema paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchemaRules, compileSchemaRules } from '../../../internal/cel/crd-schema-rules.ts';
import type { StructuralSchema } from '../../../internal/cel/schema.ts';

const base = 'spec.versions[0].schema.openAPIV3Schema';

test('valid rules compile with no errors', () => {
  const schema: StructuralSchema = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.a > 0', messageExpression: "'a is ' + string(self.a)" }] } } };
  const result = checkSchemaRules(schema, base);
  assert.deepEqual(result.errors, []);
  assert.equal(result.costs.length, 2);
});

test('a syntax error is reported on the rule with the rule shown as Go prints it', () => {
  const schema: StructuralSchema = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a ==', message: 'm' }] } } };
  const [error] = checkSchemaRules(schema, base).errors;
  assert.equal(error?.field, `${base}.properties[spec].x-kubernetes-validations[0].rule`);
  assert.equal(error?.type, 'FieldValueInvalid');
  assert.ok(error?.message.startsWith('Invalid value: apiextensions.ValidationRule{Rule:"self.a ==", Message:"m", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: compilation failed: ERROR: <input>:1:'), error?.message);
});

test('an undeclared reference is a compile error in cel-go\'s words', () => {
  const schema: StructuralSchema = { type: 'object', 'x-kubernetes-validations': [{ rule: 'object.a > 0' }] };
  const [error] = checkSchemaRules(schema, base).errors;
  assert.match(error?.message ?? '', /compilation failed: ERROR: <input>:1:1: undeclared reference to 'object' \(in container ''\)\n \| object\.a > 0\n \| \^$/);
});

test('a broken messageExpression is reported on messageExpression', () => {
  const schema: StructuralSchema = { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', messageExpression: "'a' +" }] };
  const [error] = checkSchemaRules(schema, base).errors;
  assert.equal(error?.field, `${base}.x-kubernetes-validations[0].messageExpression`);
  assert.match(error?.message ?? '', /messageExpression compilation failed: ERROR/);
});

test('oldSelf under an atomic list is refused; under a map-list it is allowed', () => {
  const item: StructuralSchema = { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf' }] } } };
  const schema: StructuralSchema = {
    type: 'object',
    properties: {
      atomic: { type: 'array', items: item },
      keyed: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: item },
    },
  };
  assert.deepEqual(checkSchemaRules(schema, base).errors, [{
    type: 'FieldValueInvalid',
    field: `${base}.properties[atomic].items.properties[v].x-kubernetes-validations[0].rule`,
    message: `Invalid value: "self >= oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${base}.properties[atomic]`,
  }]);
});

test('rules in additionalProperties and allOf are found at their paths', () => {
  const schema: StructuralSchema = {
    type: 'object',
    additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.' }] },
    allOf: [{ 'x-kubernetes-validations': [{ rule: 'nope(' }] }],
  };
  assert.deepEqual(checkSchemaRules(schema, base).errors.map((e) => e.field), [
    `${base}.x-kubernetes-validations[0].rule`.replace('.x-kubernetes-validations[0]', '.allOf[0].x-kubernetes-validations[0]'),
    `${base}.additionalProperties.x-kubernetes-validations[0].rule`,
  ]);
});

test('a field the schema does not declare is an undefined field; a result of the wrong type is refused', () => {
  const schema: StructuralSchema = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' }, m: { type: 'object', additionalProperties: { type: 'string' } }, x: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, 'x-kubernetes-validations': [
    { rule: 'self.b > 0' },
    { rule: 'self.a' },
    { rule: "self.m.anything == 'x' && self.x.unknown == 1 && self.a > 0", messageExpression: 'self.a' },
  ] } } };
  assert.deepEqual(checkSchemaRules(schema, base).errors.map((e) => `${e.field}: ${e.message.replace(/^Invalid value: apiextensions\.ValidationRule\{.*?\}: /, '')}`), [
    `${base}.properties[spec].x-kubernetes-validations[0].rule: compilation failed: ERROR: <input>:1:5: undefined field 'b'\n | self.b > 0\n | ....^`,
    `${base}.properties[spec].x-kubernetes-validations[1].rule: cel expression must evaluate to a bool`,
    `${base}.properties[spec].x-kubernetes-validations[2].messageExpression: messageExpression must evaluate to a string`,
  ]);
});

test('the shape of each rule is checked before compiling (kube\'s messages)', () => {
  const schema: StructuralSchema = { type: 'object', properties: { a: { type: 'integer' }, m: { type: 'object', additionalProperties: { type: 'string' } } }, 'x-kubernetes-validations': [
    { rule: ' ' },
    { rule: 'true', message: ' ' },
    { rule: 'true', message: 'two\nlines' },
    { rule: 'true &&\ntrue' },
    { rule: 'true', messageExpression: ' ' },
    { rule: 'true', reason: 'Nope' as never },
    { rule: 'true', fieldPath: '.b' },
    { rule: 'true', fieldPath: ".m['any.key']" },
  ] };
  assert.deepEqual(checkSchemaRules(schema, base).errors.map((e) => `${e.field.slice(base.length)}: ${e.message}`), [
    '.x-kubernetes-validations[0].rule: Required value: rule is not specified',
    '.x-kubernetes-validations[1].message: Invalid value: " ": message must be non-empty if specified',
    '.x-kubernetes-validations[2].message: Invalid value: "two\\nlines": message must not contain line breaks',
    '.x-kubernetes-validations[3].message: Required value: message must be specified if rule contains line breaks',
    '.x-kubernetes-validations[4].messageExpression: Required value: messageExpression must be non-empty if specified',
    '.x-kubernetes-validations[5].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
    '.x-kubernetes-validations[6].fieldPath: Invalid value: ".b": fieldPath must be a valid path',
  ]);
});

test('compileSchemaRules gives just the errors', () => {
  assert.deepEqual(compileSchemaRules({ type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }] }, base), []);
  assert.equal(compileSchemaRules({ type: 'object', 'x-kubernetes-validations': [{ rule: 'nope' }] }, base).length, 1);
});
