// Schema types to expression types (SPEC "Expression-language type mapping").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileProgram } from '../../../internal/cel/program.ts';
import { declTypeOf } from '../../../internal/cel/decl-type.ts';
import { schemaValue } from '../../../internal/cel/schema-values.ts';
import { toJs } from '../../../internal/cel/json-values.ts';
import type { StructuralSchema } from '../../../internal/cel/schema.ts';

function evalWith(schema: StructuralSchema, value: unknown, expression: string, isResourceRoot = false): unknown {
  const type = declTypeOf(schema, isResourceRoot);
  assert.ok(type !== undefined);
  const compiled = compileProgram(expression, ['self']);
  assert.ok(compiled.program, compiled.error);
  const outcome = compiled.program.run({ self: schemaValue(value, type) }, 1_000_000);
  return 'error' in outcome ? { error: outcome.error } : toJs(outcome.value);
}

const spec: StructuralSchema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    ratio: { type: 'number' },
    enabled: { type: 'boolean' },
    name: { type: 'string' },
    data: { type: 'string', format: 'byte' },
    born: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    ttl: { type: 'string', format: 'duration' },
    port: { 'x-kubernetes-int-or-string': true },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
    order: { type: 'array', items: { type: 'integer' } },
    nothing: { type: 'string', nullable: true },
  },
};

const value = {
  count: 3, ratio: 2, enabled: true, name: 'n', data: Buffer.from('hi').toString('base64'), born: '2024-01-02T03:04:05Z', day: '2024-01-02', ttl: '1h30m',
  port: 'http', labels: { a: 'b' }, extra: { n: 1, f: 1.5, s: 'x' }, tags: ['a', 'b'], ports: [{ name: 'a', port: 1 }, { name: 'b', port: 2 }], order: [1, 2], nothing: null,
};

test('integer is int, number is double (an integral JSON number too), boolean bool, string string', () => {
  assert.equal(evalWith(spec, value, 'type(self.count) == int && type(self.ratio) == double && type(self.enabled) == bool && type(self.name) == string'), true);
  assert.deepEqual(evalWith(spec, value, 'self.count + 1.0'), { error: 'no such overload' });
  assert.equal(evalWith(spec, value, 'self.ratio / 4.0'), 0.5);
  assert.equal(evalWith(spec, value, 'self.count / 2'), 1);
});

test('format byte is bytes, date and date-time timestamps, duration a duration', () => {
  assert.equal(evalWith(spec, value, "type(self.data) == bytes && self.data == b'hi'"), true);
  assert.equal(evalWith(spec, value, "self.born == timestamp('2024-01-02T03:04:05Z') && self.born.getHours() == 3"), true);
  assert.equal(evalWith(spec, value, "self.day == timestamp('2024-01-02T00:00:00Z')"), true);
  assert.equal(evalWith(spec, value, "self.ttl == duration('90m') && self.born + self.ttl > self.born"), true);
});

test('int-or-string is int or string by the value', () => {
  assert.equal(evalWith(spec, value, 'type(self.port) == string'), true);
  assert.equal(evalWith(spec, { port: 8080 }, 'type(self.port) == int && self.port == 8080'), true);
});

test('object with properties: has() false for a missing optional field, access is a "no such key" error', () => {
  assert.equal(evalWith(spec, { count: 1 }, '!has(self.name) && has(self.count)'), true);
  assert.deepEqual(evalWith(spec, { count: 1 }, 'self.name'), { error: 'no such key: name' });
});

test('additionalProperties is a map; preserved unknown fields are dynamic', () => {
  assert.equal(evalWith(spec, value, "self.labels['a'] == 'b' && 'a' in self.labels && self.labels.size() == 1"), true);
  assert.equal(evalWith(spec, value, "type(self.extra.n) == int && type(self.extra.f) == double && self.extra.s == 'x'"), true);
});

test('a null value is null', () => {
  assert.equal(evalWith(spec, value, 'self.nothing == null'), true);
});

test('set and map lists compare equal regardless of order; atomic lists do not', () => {
  assert.equal(evalWith(spec, value, "self.tags == ['b', 'a']"), true);
  assert.equal(evalWith(spec, value, "self.tags != ['b', 'c']"), true);
  assert.equal(evalWith(spec, value, "self.ports == [{'name': 'b', 'port': 2}, {'name': 'a', 'port': 1}]"), true);
  assert.equal(evalWith(spec, value, "self.ports == [{'name': 'b', 'port': 3}, {'name': 'a', 'port': 1}]"), false);
  assert.equal(evalWith(spec, value, 'self.order == [2, 1]'), false);
  assert.equal(evalWith(spec, value, 'self.order == [1, 2]'), true);
});

test('concatenation follows the list type: set union, map-list merge by key (kube API documentation)', () => {
  assert.deepEqual(evalWith(spec, value, "self.tags + ['c', 'a']"), ['a', 'b', 'c']);
  assert.deepEqual(evalWith(spec, value, "self.ports + [{'name': 'b', 'port': 9}, {'name': 'c', 'port': 3}]"), [{ name: 'a', port: 1 }, { name: 'b', port: 9 }, { name: 'c', port: 3 }]);
  assert.deepEqual(evalWith(spec, value, 'self.order + [1]'), [1, 2, 1]);
});

test('an embedded resource shows apiVersion, kind, metadata.name and generateName only', () => {
  const schema: StructuralSchema = { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { a: { type: 'integer' } } } } };
  const obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', generateName: 'p-', namespace: 'ns', labels: { a: 'b' } }, spec: { a: 1 } };
  assert.equal(evalWith(schema, obj, "self.apiVersion == 'v1' && self.kind == 'Pod' && self.metadata.name == 'p' && self.metadata.generateName == 'p-'", true), true);
  assert.equal(evalWith(schema, obj, '!has(self.metadata.namespace) && !has(self.metadata.labels)', true), true);
});
