import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch } from '../../../internal/registry/generic/merge-patch.ts';
import { applyStrategicMergePatch } from '../../../internal/patch/index.ts';
import { objectPatchSchema } from '../../../internal/registry/schema/patch-schema.ts';
import { pods } from '../../../internal/registry/core/pods.ts';
import { deployments } from '../../../internal/registry/apps/deployments.ts';
import { applyJsonPatch } from '../../../internal/registry/generic/json-patch.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';

test('merge patch merges objects, removes keys set to null and replaces arrays (RFC 7386)', () => {
  const target = { a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2] };
  assert.deepEqual(applyMergePatch(target, { a: 'z', c: { f: null }, list: [3] }), { a: 'z', c: { d: 'e' }, list: [3] });
  assert.deepEqual(target, { a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2] }, 'target is not mutated');
  assert.deepEqual(applyMergePatch({ a: 'foo' }, 'bar'), 'bar');
  assert.deepEqual(applyMergePatch({ e: null }, { a: 1 }), { e: null, a: 1 });
});

test('strategic merge patch merges keyed lists by the declared merge key and keeps untouched elements', () => {
  const podSchema = objectPatchSchema(pods);
  const pod = { spec: { containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 80, name: 'http' }], env: [{ name: 'A', value: '1' }] }, { name: 'b', image: 'y:1' }] } };
  const patched = applyStrategicMergePatch(pod, { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'a', image: 'x:2', '$setElementOrder/env': [{ name: 'A' }, { name: 'B' }], env: [{ name: 'B', value: '2' }] }, { name: 'b', $patch: 'delete' }] } }, podSchema);
  assert.deepEqual(patched, { spec: { containers: [{ name: 'a', image: 'x:2', ports: [{ containerPort: 80, name: 'http' }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] } });
  assert.deepEqual(applyStrategicMergePatch({ metadata: { finalizers: ['a'] } }, { metadata: { finalizers: ['b'] } }, podSchema), { metadata: { finalizers: ['b', 'a'] } }, 'items new to the list come before server-only ones, as Kubernetes orders them');
  assert.deepEqual(applyStrategicMergePatch({ metadata: { finalizers: ['a', 'b'] } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }, podSchema), { metadata: { finalizers: ['b'] } });
  const deploymentSchema = objectPatchSchema(deployments);
  assert.deepEqual(applyStrategicMergePatch({ spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } }, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } }, deploymentSchema), { spec: { strategy: { type: 'Recreate' } } });
  assert.deepEqual(applyStrategicMergePatch({ spec: { a: 1, b: 2 } }, { spec: { $patch: 'replace', c: 3 } }, undefined), { spec: { c: 3 } });
});

test('JSON patch stops at the first failed test operation with 422', () => {
  const doc = { a: 1 };
  assert.throws(
    () => applyJsonPatch(doc, [{ op: 'replace', path: '/a', value: 2 }, { op: 'test', path: '/a', value: 1 }, { op: 'add', path: '/b', value: 3 }]),
    (e: unknown) => e instanceof StatusError && e.code === 422,
  );
  assert.deepEqual(doc, { a: 1 });
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'add', path: '/b', value: 3 }, { op: 'test', path: '/b', value: 3 }]), { a: 1, b: 3 });
});

test('a JSON patch that is not an array of operations is a 400', () => {
  assert.throws(() => applyJsonPatch({}, { op: 'add' }), (e: unknown) => e instanceof StatusError && e.code === 400);
  assert.throws(() => applyJsonPatch({}, [{ op: 'frobnicate', path: '/a' }]), (e: unknown) => e instanceof StatusError && e.code === 400);
});
