import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeForApply, pruneFields } from '../../../internal/patch/apply-merge.ts';
import { compareObjects } from '../../../internal/patch/compare.ts';
import { PatchError } from '../../../internal/patch/errors.ts';
import { FieldSet, toFieldsV1 } from '../../../internal/patch/field-set.ts';
import type { FieldPath } from '../../../internal/patch/field-path.ts';
import { podSchema } from './fixtures.ts';

const pod = (...names: string[]) => ({ spec: { containers: names.map((name) => ({ name })) } });
const names = (obj: unknown) => (obj as { spec: { containers: { name: string }[] } }).spec.containers.map((c) => c.name);

describe('merge of an applied configuration into the live object', () => {
  it('puts shared items in configuration order and keeps live-only items in place', () => {
    assert.deepEqual(names(mergeForApply(pod('a', 'b', 'c'), pod('c', 'a'), podSchema)), ['b', 'c', 'a']);
    assert.deepEqual(names(mergeForApply(pod('a', 'b'), pod('b', 'x'), podSchema)), ['a', 'b', 'x']);
  });

  it('merges items identified by several keys, using key defaults', () => {
    const live = { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 80, protocol: 'UDP' }] }] } };
    const applied = { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'web' }] }] } };
    const out = mergeForApply(live, applied, podSchema) as typeof live;
    assert.deepEqual(out.spec.containers[0]!.ports, [{ containerPort: 80, protocol: 'TCP', name: 'web' }, { containerPort: 80, protocol: 'UDP' }]);
  });

  it('removes a field the configuration sets to null', () => {
    assert.deepEqual(mergeForApply({ data: { a: '1', b: '2' } }, { data: { a: null } }, undefined), { data: { b: '2' } });
  });

  it('rejects duplicate items in the configuration', () => {
    assert.throws(() => mergeForApply(pod('a'), pod('b', 'b'), podSchema), (e: unknown) => e instanceof PatchError && e.code === 'InvalidObject');
  });

  it('prunes a given-up item whole, and keeps the key of an item that stays', () => {
    const key = (name: string): FieldPath => [{ kind: 'field', name: 'spec' }, { kind: 'field', name: 'containers' }, { kind: 'key', fields: { name } }];
    const obj = { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } };
    const toRemove = new FieldSet([key('a'), [...key('a'), { kind: 'field', name: 'name' }], [...key('b'), { kind: 'field', name: 'name' }], [...key('b'), { kind: 'field', name: 'image' }]]);
    pruneFields(obj, toRemove, new FieldSet([key('b')]), podSchema);
    assert.deepEqual(obj, { spec: { containers: [{ name: 'b' }] } });
  });
});

describe('comparison of object versions', () => {
  it('reports added containers and items as owned nodes, modified leaves and removed items', () => {
    const before = { metadata: { finalizers: ['x'] }, spec: { containers: [{ name: 'a', image: '1' }, { name: 'b' }] } };
    const after = { metadata: { finalizers: ['y'], labels: { k: 'v' } }, spec: { containers: [{ name: 'a', image: '2' }] } };
    const c = compareObjects(before, after, podSchema);
    assert.deepEqual(toFieldsV1(c.added), { 'f:metadata': { 'f:finalizers': { 'v:"y"': {} }, 'f:labels': { '.': {}, 'f:k': {} } } });
    assert.deepEqual(toFieldsV1(c.modified), { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { 'f:image': {} } } } });
    assert.deepEqual(toFieldsV1(c.removed), { 'f:metadata': { 'f:finalizers': { 'v:"x"': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:name': {} } } } });
  });

  it('compares empty containers as leaves', () => {
    const c = compareObjects({ spec: {} }, { spec: { containers: [] } }, podSchema);
    assert.deepEqual(toFieldsV1(c.added), { 'f:spec': { 'f:containers': {} } });
  });
});
