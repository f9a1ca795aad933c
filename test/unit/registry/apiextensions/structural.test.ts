// Structural schemas as apiextensions-apiserver 1.28 decides them (NewStructural, ValidateStructural):
// each rule with kube's message and field path, errors sorted by their text as kube sorts them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { structuralConversionError, validateStructural } from '../../../../internal/registry/apiextensions/schema/structural.ts';
import { crontabSchema, lines } from './crontab-fixture.ts';

const root = 'spec.versions[0].schema.openAPIV3Schema';
const check = (schema: Record<string, unknown>): string[] => lines(validateStructural(schema, root));

test('the CronTab schema is structural', () => {
  assert.equal(structuralConversionError(crontabSchema()), undefined);
  assert.deepEqual(check(crontabSchema()), []);
});

test('every node specifies its type, with the level in the message', () => {
  assert.deepEqual(check({ properties: { spec: { properties: { list: { type: 'array', items: {} } } } } }), [
    `${root}.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items`,
    `${root}.properties[spec].type: Required value: must not be empty for specified object fields`,
    `${root}.type: Required value: must not be empty at the root`,
  ]);
  assert.deepEqual(check({ type: 'string' }), [`${root}.type: Invalid value: "string": must be object at the root`]);
  assert.deepEqual(check({ type: 'object', properties: { list: { type: 'array' } } }), [`${root}.properties[list].items: Required value: must be specified`]);
});

test('int-or-string and preserve-unknown-fields stand in for a type', () => {
  const schema = { type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, any: { 'x-kubernetes-preserve-unknown-fields': true } } };
  assert.deepEqual(check(schema), []);
  assert.deepEqual(check({ type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-embedded-resource': true, type: 'object', properties: { a: { type: 'string' } } } } }), [
    `${root}.properties[port].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    `${root}.properties[port].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
  ]);
});

test('value validations may not specify types, defaults, descriptions or extensions', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'string', anyOf: [{ type: 'string', description: 'x', nullable: true, default: 'y' }], not: { 'x-kubernetes-list-type': 'set', properties: { metadata: {} } } } },
  };
  assert.deepEqual(check(schema), [
    `${root}.properties[a].anyOf[0].default: Forbidden: must be undefined to be structural`,
    `${root}.properties[a].anyOf[0].description: Forbidden: must be empty to be structural`,
    `${root}.properties[a].anyOf[0].nullable: Forbidden: must be false to be structural`,
    `${root}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${root}.properties[a].not.properties[metadata]: Forbidden: must not be specified in a nested context`,
    `${root}.properties[a].not.x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
  ]);
});

test('value validations at the root only restrict fields specified outside of them', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ properties: { b: {} } }, { required: ['a'] }] };
  assert.deepEqual(check(schema), [`${root}.properties[b]: Required value: because it is defined in ${root}.anyOf[0].properties[b]`]);
});

test('additionalProperties: not at the root, not with an embedded resource', () => {
  assert.deepEqual(check({ type: 'object', additionalProperties: { type: 'string' } }), [`${root}.additionalProperties: Forbidden: must not be used at the root`]);
  const embedded = { type: 'object', properties: { t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, additionalProperties: { type: 'string' } } } };
  assert.deepEqual(check(embedded), [`${root}.properties[t].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`]);
});

test('an embedded resource is an object with properties or unknown fields preserved', () => {
  assert.deepEqual(check({ type: 'object', properties: { t: { 'x-kubernetes-embedded-resource': true } } }), [
    `${root}.properties[t].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    `${root}.properties[t].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: { t: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' }, metadata: { type: 'string' } } } } }), [
    `${root}.properties[t].properties[kind].type: Invalid value: "integer": must be string`,
    `${root}.properties[t].properties[metadata].type: Invalid value: "string": must be object`,
  ]);
});

test('metadata at the root restricts name and generateName only', () => {
  const ok = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, generateName: { type: 'string' } } } } };
  assert.deepEqual(check(ok), []);
  const labels = { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } };
  assert.deepEqual(check(labels), [`${root}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`]);
  const described = { type: 'object', properties: { metadata: { type: 'object', description: 'meta' } } };
  assert.equal(check(described).length, 1);
});

test('a pattern must compile (the parser\'s own words differ from Go\'s)', () => {
  const [line, ...rest] = check({ type: 'object', properties: { a: { type: 'string', pattern: '(' } } });
  assert.deepEqual(rest, []);
  assert.ok(line?.startsWith(`${root}.properties[a].pattern: Invalid value: "(": must be a valid regular expression, but isn't: error parsing regexp: `), line);
});

test('NewStructural refuses what CRDs do not support, first found first', () => {
  assert.equal(structuralConversionError({ type: 'object', properties: { a: { $ref: '#/definitions/a' } } }), "OpenAPIV3Schema '$ref' is not supported");
  assert.equal(structuralConversionError({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' }), "OpenAPIV3Schema 'schema' is not supported");
  assert.equal(structuralConversionError({ type: 'array', items: [{ type: 'string' }] }), "OpenAPIV3Schema 'items' must be a schema, but is an array");
  assert.equal(structuralConversionError({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }), "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
});

test('patterns are Go\'s RE2: lookaround and backreferences are refused, Go-only syntax accepted', () => {
  const pattern = (p: string): string[] => check({ type: 'object', properties: { a: { type: 'string', pattern: p } } });
  assert.deepEqual(pattern('^(?!x)'), [`${root}.properties[a].pattern: Invalid value: "^(?!x)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?!\``]);
  assert.deepEqual(pattern('(a)\\1'), [`${root}.properties[a].pattern: Invalid value: "(a)\\\\1": must be a valid regular expression, but isn't: error parsing regexp: invalid escape sequence: \`\\1\``]);
  assert.deepEqual(pattern('(?i)^(?P<word>[a-z]+)\\z'), []);
});
