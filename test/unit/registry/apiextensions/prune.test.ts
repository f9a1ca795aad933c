// Pruning custom objects as kube-apiserver 1.28 does on decode: unknown fields dropped and named
// (`spec.foo`, `spec.list[0].bar`, sorted), apiVersion/kind/metadata kept at the root and in
// embedded resources, preserve-unknown-fields subtrees kept, embedded metadata made an ObjectMeta.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prune, pruneCustomObject, pruneNonNullableNulls } from '../../../../internal/registry/apiextensions/schema/prune.ts';
import { crontabSchema } from './crontab-fixture.ts';

type Entry = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('unknown fields are dropped and reported with kube\'s paths, sorted', () => {
  const obj: Entry = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c', whatever: 1 }, spec: { image: 'x', replicaz: 3, extra: { a: 1 } }, other: true };
  assert.deepEqual(prune(obj, crontabSchema(), true), ['other', 'spec.extra', 'spec.replicaz']);
  assert.deepEqual(obj, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c', whatever: 1 }, spec: { image: 'x' } });
});

test('list items and additionalProperties values are pruned by their schema', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }, map: { type: 'object', additionalProperties: { type: 'object', properties: { b: { type: 'string' } } } } } } } };
  const obj: Entry = { spec: { list: [{ a: 'x', z: 1 }, { y: 2 }], map: { k: { b: 'x', c: 1 } } } };
  assert.deepEqual(prune(obj, schema, true), ['spec.list[0].z', 'spec.list[1].y', 'spec.map.k.c']);
  assert.deepEqual(obj, { spec: { list: [{ a: 'x' }, {}], map: { k: { b: 'x' } } } });
});

test('x-kubernetes-preserve-unknown-fields keeps unknown fields, still pruning specified ones', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { inner: { type: 'object', properties: { a: { type: 'string' } } } } } } };
  const obj: Entry = { spec: { free: { any: 1 }, inner: { a: 'x', b: 2 } } };
  assert.deepEqual(prune(obj, schema, true), ['spec.inner.b']);
  assert.deepEqual(obj, { spec: { free: { any: 1 }, inner: { a: 'x' } } });
});

test('embedded resources keep apiVersion, kind and metadata; their metadata becomes an ObjectMeta', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } } } };
  const obj: Entry = { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1, labels: {} }, spec: { a: 'x', b: 1 }, status: {} } } };
  assert.deepEqual(pruneCustomObject(obj, schema), { unknownFields: ['spec.template.spec.b', 'spec.template.status', 'spec.template.metadata.bogus'] });
  assert.deepEqual(obj.spec.template, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { a: 'x' } });
});

test('embedded TypeMeta of the wrong type: an error on requests, dropped from storage', () => {
  const schema = { type: 'object', properties: { t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
  const request: Entry = { t: { apiVersion: 1, kind: 'Pod' } };
  const outcome = pruneCustomObject(request, schema);
  assert.deepEqual(outcome.error && `${outcome.error.field}: ${outcome.error.message}`, 't.apiVersion: Invalid value: 1: must be a string');
  const stored: Entry = { t: { apiVersion: 1, kind: 'Pod', metadata: { name: 5, namespace: 'ns' } } };
  assert.deepEqual(pruneCustomObject(stored, schema, { dropInvalidMetadata: true }), { unknownFields: [] });
  assert.deepEqual(stored, { t: { kind: 'Pod', metadata: { namespace: 'ns' } } });
});

test('nulls of non-nullable fields without a default are dropped; others stay', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', nullable: true }, c: { type: 'string', default: 'x' } } } } };
  const obj: Entry = { spec: { a: null, b: null, c: null } };
  pruneNonNullableNulls(obj, schema);
  assert.deepEqual(obj, { spec: { b: null, c: null } });
});

test('a whole object: unknown fields, then nulls, in one call', () => {
  const obj: Entry = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c' }, spec: { image: null, unknown: 1 } };
  assert.deepEqual(pruneCustomObject(obj, crontabSchema()), { unknownFields: ['spec.unknown'] });
  assert.deepEqual(obj.spec, {});
});
