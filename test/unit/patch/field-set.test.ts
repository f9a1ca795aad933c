import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError } from '../../../internal/patch/errors.ts';
import { pathToString } from '../../../internal/patch/field-path.ts';
import type { FieldPath } from '../../../internal/patch/field-path.ts';
import { FieldSet, fieldSetFromObject, fromFieldsV1, toFieldsV1 } from '../../../internal/patch/field-set.ts';
import { configMapSchema, deploymentSchema, nginxDeployment, podSchema } from './fixtures.ts';

const f = (name: string) => ({ kind: 'field' as const, name });
const p = (...names: string[]): FieldPath => names.map(f);

describe('FieldsV1 serialization', () => {
  it('writes the tree Kubernetes writes for an applied Deployment', () => {
    const set = fieldSetFromObject(nginxDeployment(), deploymentSchema);
    const tree = toFieldsV1(set);
    delete tree['f:apiVersion'];
    delete tree['f:kind'];
    delete tree['f:metadata'];
    assert.equal(
      JSON.stringify(tree),
      '{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}',
    );
  });

  it('marks a node owned together with its children with "." and round-trips', () => {
    const set = new FieldSet([p('metadata', 'labels'), p('metadata', 'labels', 'app'), p('data')]);
    const tree = toFieldsV1(set);
    assert.deepEqual(tree, { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
    assert.ok(fromFieldsV1(tree).equals(set));
  });

  it('serializes key, value and index elements', () => {
    const set = new FieldSet([
      [f('ports'), { kind: 'key', fields: { protocol: 'TCP', containerPort: 80 } }],
      [f('finalizers'), { kind: 'value', value: 'x' }],
      [f('items'), { kind: 'index', index: 2 }],
    ]);
    assert.deepEqual(toFieldsV1(set), {
      'f:finalizers': { 'v:"x"': {} },
      'f:items': { 'i:2': {} },
      'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': {} },
    });
    assert.ok(fromFieldsV1(toFieldsV1(set)).equals(set));
  });

  it('rejects malformed trees with InvalidManagedFields', () => {
    for (const bad of [{ 'x:y': {} }, { 'f:a': 'x' }, { 'k:notjson': {} }, { 'i:-1': {} }, { 'k:{}': {} }]) {
      assert.throws(() => fromFieldsV1(bad), (err: unknown) => err instanceof PatchError && err.code === 'InvalidManagedFields');
    }
  });

  it('names paths as Kubernetes does in conflict messages', () => {
    const path: FieldPath = [f('spec'), f('containers'), { kind: 'key', fields: { name: 'nginx' } }, f('ports'), { kind: 'key', fields: { protocol: 'TCP', containerPort: 80 } }];
    assert.equal(pathToString(path), '.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"]');
    assert.equal(pathToString([f('metadata'), f('finalizers'), { kind: 'value', value: 'x' }]), '.metadata.finalizers[="x"]');
    assert.equal(pathToString([f('items'), { kind: 'index', index: 0 }]), '.items[0]');
  });
});

describe('FieldSet operations', () => {
  const a = new FieldSet([p('a'), p('b'), p('c', 'd')]);
  const b = new FieldSet([p('b'), p('c')]);
  it('union, intersection and difference work on exact paths', () => {
    assert.equal(a.union(b).size, 4);
    assert.deepEqual(a.intersection(b).paths(), [p('b')]);
    assert.equal(a.difference(b).size, 2);
  });
  it('recursive difference also drops paths below removed ones', () => {
    assert.deepEqual(a.recursiveDifference(b).paths(), [p('a')]);
  });
  it('hasSelfOrDescendant sees paths below', () => {
    assert.ok(a.hasSelfOrDescendant(p('c')));
    assert.ok(!a.hasSelfOrDescendant(p('d')));
  });
});

describe('fieldSetFromObject', () => {
  it('owns atomic lists and atomic maps whole', () => {
    const obj = { spec: { selector: { matchLabels: { app: 'x' } }, template: { spec: { containers: [{ name: 'c', args: ['1', '2'] }] } } } };
    const tree = toFieldsV1(fieldSetFromObject(obj, deploymentSchema));
    assert.deepEqual(tree, {
      'f:spec': {
        'f:selector': {},
        'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:args': {}, 'f:name': {} } } } },
      },
    });
  });

  it('owns set items by value and keyed items by every key, filling defaulted keys', () => {
    const obj = { metadata: { finalizers: ['a'] }, spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } };
    assert.deepEqual(toFieldsV1(fieldSetFromObject(obj, podSchema)), {
      'f:metadata': { 'f:finalizers': { 'v:"a"': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } },
    });
  });

  it('reads patchMergeKey as a list-map key when no list type is declared', () => {
    const obj = { spec: { containers: [{ name: 'c', env: [{ name: 'A', value: '1' }] }] } };
    const tree = toFieldsV1(fieldSetFromObject(obj, podSchema)) as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    assert.deepEqual(tree['f:spec']!['f:containers']!['k:{"name":"c"}']!['f:env'], { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } });
  });

  it('treats unstructured lists as atomic and maps as granular, owning every undeclared key as a node', () => {
    const obj = { spec: { items: [{ name: 'a' }], nested: { x: 1 } } };
    assert.deepEqual(toFieldsV1(fieldSetFromObject(obj, undefined)), { 'f:spec': { '.': {}, 'f:items': {}, 'f:nested': { '.': {}, 'f:x': {} } } });
  });

  it('owns nothing for empty granular maps', () => {
    assert.deepEqual(toFieldsV1(fieldSetFromObject({ data: {} }, configMapSchema)), {});
  });

  it('rejects list-map items with none of their keys', () => {
    assert.throws(
      () => fieldSetFromObject({ spec: { containers: [{ image: 'x' }] } }, podSchema),
      (err: unknown) => err instanceof PatchError && err.code === 'InvalidObject' && /\.spec\.containers/.test(err.message),
    );
  });
});
