// Structural defaulting as kube-apiserver 1.28 applies it to custom objects: missing fields and
// nulls of non-nullable fields take their default, inside list items and map values too, each a
// fresh copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDefaults } from '../../../../internal/registry/apiextensions/schema/defaults.ts';
import { pruneCustomObject } from '../../../../internal/registry/apiextensions/schema/prune.ts';

type Entry = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        image: { type: 'string', default: 'nginx' },
        note: { type: 'string', nullable: true, default: 'n' },
        ports: { type: 'array', items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' }, port: { type: 'integer' } } } },
        env: { type: 'object', additionalProperties: { type: 'object', properties: { value: { type: 'string', default: 'v' } } } },
        tags: { type: 'array', items: { type: 'string', default: 'untagged' } },
        options: { type: 'object', default: { a: [1] }, properties: { a: { type: 'array', items: { type: 'integer' } } } },
      },
    },
  },
};

test('a missing object with a default is created, then defaulted inside', () => {
  const obj: Entry = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c' } };
  applyDefaults(obj, schema);
  assert.deepEqual(obj.spec, { replicas: 1, image: 'nginx', note: 'n', options: { a: [1] } });
});

test('set fields are kept; nulls of non-nullable fields take the default; nullable nulls stay', () => {
  const obj: Entry = { spec: { replicas: 3, image: null, note: null } };
  applyDefaults(obj, schema);
  assert.deepEqual(obj.spec, { replicas: 3, image: 'nginx', note: null, options: { a: [1] } });
});

test('defaults apply in list items, additionalProperties values, and to null items', () => {
  const obj: Entry = { spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }], env: { A: {}, B: { value: 'b' } }, tags: ['x', null] } };
  applyDefaults(obj, schema);
  assert.deepEqual(obj.spec.ports, [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }]);
  assert.deepEqual(obj.spec.env, { A: { value: 'v' }, B: { value: 'b' } });
  assert.deepEqual(obj.spec.tags, ['x', 'untagged']);
});

test('defaults are copies: two objects never share one', () => {
  const one: Entry = { spec: {} };
  const two: Entry = { spec: {} };
  applyDefaults(one, schema);
  applyDefaults(two, schema);
  one.spec.options.a.push(2);
  assert.deepEqual(two.spec.options, { a: [1] });
  assert.deepEqual((schema.properties.spec.properties.options as Entry).default, { a: [1] });
});

test('prune then default, as a write does: a null without default is gone, one with a default is defaulted', () => {
  const withPlain = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', default: 'b' } } } } };
  const obj: Entry = { spec: { a: null, b: null } };
  pruneCustomObject(obj, withPlain);
  applyDefaults(obj, withPlain);
  assert.deepEqual(obj.spec, { b: 'b' });
});
