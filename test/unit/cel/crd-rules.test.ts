// Custom resource validation by x-kubernetes-validations, with kube-apiserver's paths and messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateRules } from '../../../internal/cel/crd-rules.ts';
import type { StructuralSchema } from '../../../internal/cel/schema.ts';

const schema: StructuralSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.minReplicas <= self.replicas' },
        { rule: 'self.replicas < 100', message: 'too many replicas' },
        { rule: 'self.replicas % 2 == 0', messageExpression: "'replicas must be even, got ' + string(self.replicas)" },
      ],
      properties: {
        replicas: { type: 'integer' },
        minReplicas: { type: 'integer' },
        name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
        mode: { type: 'string', 'x-kubernetes-validations': [{ rule: "self != 'bad'", reason: 'FieldValueForbidden', message: 'bad mode' }] },
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'port may only grow' }] } } },
        },
        steps: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf' }] } } } },
        limits: { type: 'object', additionalProperties: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= 0', message: 'must not be negative' }] } },
        window: { type: 'object', properties: { start: { type: 'integer' }, end: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.start < self.end', fieldPath: '.end', message: 'end must follow start' }] },
      },
    },
  },
};

const messages = (r: ReturnType<typeof validateRules>): string[] => r.errors.map((e) => `${e.field}: ${e.message}`);

test('a failing rule reports at its node with the default message "failed rule: <rule>"', () => {
  assert.deepEqual(messages(validateRules(schema, { spec: { replicas: 2, minReplicas: 3 } }, undefined)), [
    'spec: Invalid value: "object": failed rule: self.minReplicas <= self.replicas',
  ]);
});

test('message and messageExpression give the detail', () => {
  assert.deepEqual(messages(validateRules(schema, { spec: { replicas: 101, minReplicas: 1 } }, undefined)), [
    'spec: Invalid value: "object": too many replicas',
    'spec: Invalid value: "object": replicas must be even, got 101',
  ]);
});

test('a messageExpression that fails or is empty falls back to the message', () => {
  const s: StructuralSchema = { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [
    { rule: 'false', message: 'plain', messageExpression: 'self.missing' },
    { rule: 'false', messageExpression: "'  '" },
    { rule: 'false', message: 'not a string', messageExpression: 'self.a' },
  ] };
  assert.deepEqual(messages(validateRules(s, { a: 1 }, undefined)), [
    ': Invalid value: "object": plain',
    ': Invalid value: "object": failed rule: false',
    ': Invalid value: "object": not a string',
  ]);
});

test('reason picks the error type; fieldPath moves the error to the named field', () => {
  assert.deepEqual(validateRules(schema, { spec: { replicas: 2, minReplicas: 1, mode: 'bad', window: { start: 5, end: 1 } } }, undefined).errors, [
    { type: 'FieldValueForbidden', field: 'spec.mode', message: 'Forbidden: bad mode' },
    { type: 'FieldValueInvalid', field: 'spec.window.end', message: 'Invalid value: "object": end must follow start' },
  ]);
});

test('runtime errors are reported with kube\'s wording, and validation goes on', () => {
  const s: StructuralSchema = { type: 'object', properties: { a: { type: 'integer' }, b: { 'x-kubernetes-int-or-string': true } }, 'x-kubernetes-validations': [
    { rule: 'self.a > 0' },
    { rule: 'self.b + 1 > 0' },
    { rule: '1 / (self.a - self.a) == 0' },
  ] };
  assert.deepEqual(messages(validateRules(s, { b: 'x' }, undefined)), [
    ': Invalid value: "object": no such key: a evaluating rule: self.a > 0',
    ': Invalid value: "object": \'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: self.b + 1 > 0',
    ': Invalid value: "object": no such key: a evaluating rule: 1 / (self.a - self.a) == 0',
  ]);
  assert.deepEqual(messages(validateRules(s, { a: 1, b: 1 }, undefined)), [
    ': Invalid value: "object": division by zero evaluating rule: 1 / (self.a - self.a) == 0',
  ]);
});

test('transition rules run on update only, when the old value correlates', () => {
  assert.deepEqual(messages(validateRules(schema, { spec: { replicas: 2, minReplicas: 1, name: 'a' } }, undefined)), []);
  assert.deepEqual(messages(validateRules(schema, { spec: { replicas: 2, minReplicas: 1, name: 'a' } }, { spec: { replicas: 2, minReplicas: 1 } })), []);
  assert.deepEqual(messages(validateRules(schema, { spec: { replicas: 2, minReplicas: 1, name: 'a' } }, { spec: { replicas: 2, minReplicas: 1, name: 'b' } })), [
    'spec.name: Invalid value: "string": name is immutable',
  ]);
});

test('map-list items correlate by key, whatever their position', () => {
  const next = { spec: { replicas: 2, minReplicas: 1, ports: [{ name: 'a', port: 1 }, { name: 'b', port: 5 }, { name: 'c', port: 1 }] } };
  const prev = { spec: { replicas: 2, minReplicas: 1, ports: [{ name: 'b', port: 6 }, { name: 'a', port: 0 }] } };
  assert.deepEqual(messages(validateRules(schema, next, prev)), ['spec.ports[1].port: Invalid value: "integer": port may only grow']);
});

test('items of atomic lists never correlate, so their transition rules do not run', () => {
  const next = { spec: { replicas: 2, minReplicas: 1, steps: [{ n: 1 }] } };
  const prev = { spec: { replicas: 2, minReplicas: 1, steps: [{ n: 5 }] } };
  assert.deepEqual(messages(validateRules(schema, next, prev)), []);
});

test('map values are validated under their key path', () => {
  assert.deepEqual(messages(validateRules(schema, { spec: { replicas: 2, minReplicas: 1, limits: { cpu: 1, mem: -1 } } }, undefined)), [
    'spec.limits[mem]: Invalid value: "integer": must not be negative',
  ]);
});

test('the root sees apiVersion, kind and metadata.name, and no other metadata', () => {
  const s: StructuralSchema = { type: 'object', 'x-kubernetes-validations': [{ rule: "self.kind == 'Widget' && self.metadata.name.startsWith('w-')" }] };
  assert.deepEqual(messages(validateRules(s, { apiVersion: 'x/v1', kind: 'Widget', metadata: { name: 'w-1', labels: { a: 'b' } } }, undefined)), []);
  assert.equal(validateRules(s, { apiVersion: 'x/v1', kind: 'Widget', metadata: { name: 'x' } }, undefined).errors.length, 1);
  const labels: StructuralSchema = { type: 'object', 'x-kubernetes-validations': [{ rule: 'has(self.metadata.labels)' }] };
  const [error] = messages(validateRules(labels, { metadata: { name: 'x', labels: {} } }, undefined));
  assert.match(error ?? '', /^: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:\d+: undefined field 'labels'\n/);
});

test('a compile error is reported when the object is validated', () => {
  const s: StructuralSchema = { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a ==' }] };
  const [error] = validateRules(s, {}, undefined).errors;
  assert.match(error?.message ?? '', /^Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:/);
});

test('an inner node (a default value) is validated with its path and without resource-root fields', () => {
  const node: StructuralSchema = { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.a > 1' }] };
  const { errors } = validateRules(node, { a: 0 }, undefined, { path: 'spec.versions[0].schema.openAPIV3Schema.properties[spec].default', isResourceRoot: false });
  assert.deepEqual(errors, [{ type: 'FieldValueInvalid', field: 'spec.versions[0].schema.openAPIV3Schema.properties[spec].default', message: 'Invalid value: "object": failed rule: self.a > 1' }]);
});
