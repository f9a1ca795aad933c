import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dns1123Label, dns1123Subdomain, labelValue, qualifiedName } from '../../../internal/registry/schema/name-validation.ts';
import { checkSchema, objectSchema } from '../../../internal/registry/schema/schema-check.ts';
import { deployments } from '../../../internal/registry/apps/deployments.ts';
import { recordWriteFields } from '../../../internal/registry/generic/managed-fields.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import { configmaps } from '../../../internal/registry/core/configmaps.ts';
import { findDuplicateKeys } from '../../../internal/apiserver/json-duplicates.ts';
import { decodeYaml } from '../../../internal/apiserver/body.ts';
import { humanDuration } from '../../../internal/registry/schema/printers.ts';

test('DNS-1123 subdomains and labels follow the Kubernetes rules', () => {
  assert.deepEqual(dns1123Subdomain('my.app-1'), []);
  assert.notDeepEqual(dns1123Subdomain('My_App'), []);
  assert.notDeepEqual(dns1123Subdomain('a'.repeat(254)), []);
  assert.deepEqual(dns1123Label('web-1'), []);
  assert.notDeepEqual(dns1123Label('web.1'), []);
  assert.notDeepEqual(dns1123Label('-web'), []);
  assert.deepEqual(qualifiedName('example.com/My_Name'), []);
  assert.notDeepEqual(qualifiedName('a/b/c'), []);
  assert.deepEqual(labelValue(''), []);
  assert.notDeepEqual(labelValue('bad value'), []);
});

test('schema check reports unknown fields at every depth with their paths, prunes them, and reports wrong types', () => {
  const obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x', bogus: 1 }, spec: { replicas: 'three', foo: true, template: { spec: { anything: 1, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, extra: 'x' }] }] } } } };
  const result = checkSchema(obj, objectSchema(deployments), true, 'Deployment');
  assert.deepEqual(result.unknownFields.sort(), ['metadata.bogus', 'spec.foo', 'spec.template.spec.anything', 'spec.template.spec.containers[0].ports[0].extra']);
  assert.equal(result.typeErrors.length, 1);
  assert.equal(result.typeErrors[0]?.field, 'spec.replicas');
  assert.deepEqual(result.decodeErrors, ['json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32']);
  assert.equal('foo' in obj.spec, false);
  assert.equal('anything' in obj.spec.template.spec, false, 'a pod spec is described in full: its unknown fields are pruned too');
});

test('managedFields: a writer owns what it changed and others lose it', () => {
  const created: KObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { x: '1', y: '2' } };
  recordWriteFields(created, null, configmaps, { fieldManager: 'a', apiVersion: 'v1', time: 't' });
  assert.deepEqual(created.metadata.managedFields?.map((e) => { const entry = e as { manager: string; fieldsV1: unknown }; return [entry.manager, entry.fieldsV1]; }), [['a', { 'f:data': { '.': {}, 'f:x': {}, 'f:y': {} } }]]);
  const updated: KObject = { ...created, metadata: { ...created.metadata }, data: { x: '9', y: '2' } };
  recordWriteFields(updated, created, configmaps, { fieldManager: 'b', apiVersion: 'v1', time: 't' });
  assert.deepEqual(updated.metadata.managedFields?.map((e) => { const entry = e as { manager: string; fieldsV1: unknown }; return [entry.manager, entry.fieldsV1]; }), [
    ['a', { 'f:data': { '.': {}, 'f:y': {} } }],
    ['b', { 'f:data': { 'f:x': {} } }],
  ]);
});

test('duplicate JSON keys are found with their paths', () => {
  assert.deepEqual(findDuplicateKeys('{"a":1,"m":{"n":"x","n":"y"},"l":[{"k":1,"k":2}],"a":2,"s":"\\"a\\""}', 10), { paths: ['m.n', 'l[0].k', 'a'], count: 3 });
  assert.deepEqual(findDuplicateKeys('{"a":{"b":1},"c":{"b":2}}', 10), { paths: [], count: 0 });
});

test('duplicate YAML keys are found in block and flow mappings at any depth, in document order with their lines; the last one wins', () => {
  const decoded = decodeYaml(Buffer.from('a: 1\nm:\n  n: one\n  no: two\nf: {k: 1, k: 2}\nl:\n  - {a: 1}\n  - a: 1\n    b: 2\na: 2\n'));
  // YAML 1.1: `n` and `no` are both the boolean false, named as written.
  assert.deepEqual(decoded.duplicates, ['no (line 4)', 'k (line 5)', 'a (line 10)']);
  assert.equal(decoded.duplicateCount, 3);
  assert.deepEqual(decoded.value, { a: 2, m: { false: 'two' }, f: { k: 2 }, l: [{ a: 1 }, { a: 1, b: 2 }] });
});

test('past the named ones, duplicate YAML keys are only counted', () => {
  const decoded = decodeYaml(Buffer.from(Array.from({ length: 500 }, (_, i) => `k: ${i}`).join('\n')));
  assert.equal(decoded.duplicates.length, 100);
  assert.equal(decoded.duplicates[0], 'k (line 2)');
  assert.equal(decoded.duplicateCount, 499);
});

test('a duplicate JSON key deep in the nesting gets its path cut, not built in full', () => {
  assert.deepEqual(findDuplicateKeys('{"a":{"a":{"a":{"b":1,"b":2}}}}', 10, 2), { paths: ['a.a....b'], count: 1 });
});

test('past the named ones, duplicate JSON keys are only counted', () => {
  assert.deepEqual(findDuplicateKeys('{"m":{"a":1,"a":2,"a":3,"a":4}}', 2), { paths: ['m.a', 'm.a'], count: 3 });
});

test('ages print like kubectl', () => {
  assert.equal(humanDuration(5_000), '5s');
  assert.equal(humanDuration(200_000), '3m20s');
  assert.equal(humanDuration(3 * 3600_000), '3h');
  assert.equal(humanDuration(3 * 86400_000), '3d');
});
