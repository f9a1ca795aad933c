// What a conversion webhook may change in an object: only labels and annotations of its metadata;
// a changed identity is refused, other metadata put back, bad labels refused in kube's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSameIdentity, restoreMetadata } from '../../../../internal/registry/apiextensions/conversion/converted-objects.ts';

const original = {
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'a', namespace: 'ns', uid: 'u-1', resourceVersion: '7', labels: { app: 'x' }, annotations: { note: 'n' }, finalizers: ['f'] },
  spec: { cronSpec: '* * * * *' },
};

function returned(metadata: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'stable.example.com/v2', kind: 'CronTab', metadata, spec: { schedule: '* * * * *' } };
}

test('kind, name, namespace and uid must not change', () => {
  assert.doesNotThrow(() => checkSameIdentity(original, returned({ name: 'a', namespace: 'ns', uid: 'u-1' })));
  assert.throws(() => checkSameIdentity(original, { ...returned({ name: 'a', namespace: 'ns', uid: 'u-1' }), kind: 'Other' }), { message: 'must have the same kind: CronTab != Other' });
  assert.throws(() => checkSameIdentity(original, returned({ name: 'b', namespace: 'ns', uid: 'u-1' })), { message: 'must have the same name: a != b' });
  assert.throws(() => checkSameIdentity(original, returned({ name: 'a', namespace: 'other', uid: 'u-1' })), { message: 'must have the same namespace: ns != other' });
  assert.throws(() => checkSameIdentity(original, returned({ name: 'a', namespace: 'ns' })), { message: 'must have the same UID: u-1 != ' });
});

test('other metadata is put back; labels and annotations are the webhook’s', () => {
  const restored = restoreMetadata(original, returned({ name: 'a', resourceVersion: '99', labels: { app: 'y', added: 'z' }, generation: 4 }));
  assert.deepEqual(restored.metadata, { name: 'a', namespace: 'ns', uid: 'u-1', resourceVersion: '7', labels: { app: 'y', added: 'z' }, finalizers: ['f'] });
  assert.deepEqual(restored.spec, { schedule: '* * * * *' });
  assert.deepEqual(original.metadata.labels, { app: 'x' }, 'the original is not changed');
});

test('metadata must be an object with string labels and annotations', () => {
  assert.throws(() => restoreMetadata(original, { kind: 'CronTab' }), { message: 'missing metadata in converted object' });
  assert.throws(() => restoreMetadata(original, returned(null as unknown as Record<string, unknown>)), { message: 'invalid metadata of type <nil> in converted object' });
  assert.throws(() => restoreMetadata(original, { ...returned({}), metadata: 'x' }), { message: 'invalid metadata of type string in converted object' });
  assert.throws(() => restoreMetadata(original, returned({ labels: ['a'] })), { message: 'invalid metadata.labels of type []interface {} in converted object' });
  assert.throws(() => restoreMetadata(original, returned({ annotations: { n: 5 } })), { message: 'metadata.annotations[n] must be a string, but is int64 in converted object' });
});

test('changed labels and annotations are validated as kube validates them', () => {
  assert.throws(() => restoreMetadata(original, returned({ labels: { app: 'not valid!' } })), (err: Error) => err.message.startsWith('metadata.labels: Invalid value: "not valid!"'));
  assert.throws(() => restoreMetadata(original, returned({ annotations: { 'bad key!': 'v' } })), (err: Error) => err.message.startsWith('metadata.annotation: Invalid value: "bad key!"'));
});
