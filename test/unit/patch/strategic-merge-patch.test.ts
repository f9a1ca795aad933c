import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError } from '../../../internal/patch/errors.ts';
import { applyStrategicMergePatch } from '../../../internal/patch/strategic-merge-patch.ts';
import { deploymentSchema, podSchema } from './fixtures.ts';

const pod = () => ({
  metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, finalizers: ['a', 'b'] },
  spec: {
    containers: [
      { name: 'web', image: 'nginx:1', args: ['-x'], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
      { name: 'sidecar', image: 'envoy:1' },
    ],
    volumes: [{ name: 'data', emptyDir: {} }],
    nodeSelector: { disk: 'ssd' },
  },
});

const smp = (original: unknown, patch: unknown) => applyStrategicMergePatch(original, patch, podSchema);
type Container = { name: string; image?: string; env?: unknown; args?: unknown };
const containers = (obj: unknown) => (obj as { spec: { containers: Container[] } }).spec.containers;

describe('strategic merge patch: maps', () => {
  it('merges maps recursively and deletes keys patched to null', () => {
    const out = smp(pod(), { metadata: { labels: { tier: null, env: 'prod' } } }) as { metadata: { labels: unknown; name: string } };
    assert.deepEqual(out.metadata.labels, { app: 'web', env: 'prod' });
    assert.equal(out.metadata.name, 'p');
  });

  it('does not modify the original', () => {
    const original = pod();
    smp(original, { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'web', image: 'x' }] } });
    assert.deepEqual(original, pod());
  });

  it('$patch: replace in a map replaces the map with the rest of the patch', () => {
    const out = smp(pod(), { metadata: { labels: { $patch: 'replace', only: 'this' } } }) as { metadata: { labels: unknown } };
    assert.deepEqual(out.metadata.labels, { only: 'this' });
  });

  it('$patch: delete in a map empties the map', () => {
    const out = smp(pod(), { metadata: { labels: { $patch: 'delete' } } }) as { metadata: { labels: unknown } };
    assert.deepEqual(out.metadata.labels, {});
  });

  it('$retainKeys drops original keys not listed (strategy switched to Recreate)', () => {
    const original = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    const out = applyStrategicMergePatch(original, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, deploymentSchema);
    assert.deepEqual(out, { spec: { strategy: { type: 'Recreate' } } });
  });

  it('$retainKeys inside merged list items (volume source switched)', () => {
    const patch = { spec: { volumes: [{ name: 'data', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/d' } }] } };
    const out = smp(pod(), patch) as { spec: { volumes: unknown } };
    assert.deepEqual(out.spec.volumes, [{ name: 'data', hostPath: { path: '/d' } }]);
  });

  it('keeps null-free values when a patch adds a new map', () => {
    const out = smp({ metadata: { name: 'p' } }, { metadata: { annotations: { a: '1', b: null } } }) as { metadata: unknown };
    assert.deepEqual(out.metadata, { name: 'p', annotations: { a: '1' } });
  });
});

describe('strategic merge patch: lists', () => {
  it('merges list items by merge key and appends new ones', () => {
    const out = smp(pod(), { spec: { containers: [{ name: 'sidecar', image: 'envoy:2' }, { name: 'log', image: 'fluent' }] } });
    assert.deepEqual(containers(out).map((c) => c.name), ['web', 'sidecar', 'log']);
    assert.equal(containers(out)[1]?.image, 'envoy:2');
  });

  it('merges nested merge-key lists inside matched items', () => {
    const out = smp(pod(), { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '3' }, { name: 'C', value: '4' }] }] } });
    assert.deepEqual(containers(out)[0]?.env, [{ name: 'A', value: '1' }, { name: 'B', value: '3' }, { name: 'C', value: '4' }]);
  });

  it('replaces lists without a merge strategy', () => {
    const out = smp(pod(), { spec: { containers: [{ name: 'web', args: ['-y', '-z'] }] } });
    assert.deepEqual(containers(out)[0]?.args, ['-y', '-z']);
  });

  it('replaces atomic maps declared without a patch strategy as maps (merge by key)', () => {
    const out = smp(pod(), { spec: { nodeSelector: { zone: 'a' } } }) as { spec: { nodeSelector: unknown } };
    // Strategic merge patch merges maps whatever their SSA map type; only SSA treats atomic maps whole.
    assert.deepEqual(out.spec.nodeSelector, { disk: 'ssd', zone: 'a' });
  });

  it('unions primitive lists with a merge strategy, without duplicates', () => {
    const out = smp(pod(), { metadata: { finalizers: ['b', 'c'] } }) as { metadata: { finalizers: unknown } };
    assert.deepEqual(out.metadata.finalizers, ['a', 'b', 'c']);
  });

  it('$patch: delete in a list item removes the entry with that merge key', () => {
    const out = smp(pod(), { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } });
    assert.deepEqual(containers(out).map((c) => c.name), ['web']);
  });

  it('$patch: replace as a list item replaces the whole list with the other items', () => {
    const out = smp(pod(), { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'x' }] } });
    assert.deepEqual(containers(out), [{ name: 'only', image: 'x' }]);
  });

  it('$deleteFromPrimitiveList removes values from a primitive list', () => {
    const out = smp(pod(), { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }) as { metadata: { finalizers: unknown } };
    assert.deepEqual(out.metadata.finalizers, ['b']);
  });

  it('$setElementOrder orders merge-key items as listed', () => {
    const patch = { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'web' }], containers: [{ name: 'web', image: 'nginx:2' }] } };
    const out = smp(pod(), patch);
    assert.deepEqual(containers(out).map((c) => c.name), ['sidecar', 'web']);
    assert.equal(containers(out)[1]?.image, 'nginx:2');
  });

  it('$setElementOrder keeps server-only items after the ordered ones they followed', () => {
    const original = { spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } };
    const patch = { spec: { '$setElementOrder/containers': [{ name: 'd' }, { name: 'b' }, { name: 'a' }], containers: [{ name: 'd' }] } };
    assert.deepEqual(containers(smp(original, patch)).map((c) => c.name), ['d', 'b', 'a', 'c']);
  });

  it('without $setElementOrder, patched items take the patch order among the others', () => {
    const original = { spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } };
    const out = smp(original, { spec: { containers: [{ name: 'c', image: 'x' }, { name: 'a', image: 'y' }] } });
    assert.deepEqual(containers(out).map((c) => c.name), ['b', 'c', 'a']);
  });

  it('$setElementOrder orders primitive lists', () => {
    const patch = { metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'], finalizers: ['c'] } };
    const out = smp(pod(), patch) as { metadata: { finalizers: unknown } };
    assert.deepEqual(out.metadata.finalizers, ['c', 'b', 'a']);
  });

  it('treats every list as replaced when the schema is unknown (unstructured)', () => {
    const out = applyStrategicMergePatch({ spec: { items: [{ name: 'a' }] } }, { spec: { items: [{ name: 'b' }] } }, undefined);
    assert.deepEqual(out, { spec: { items: [{ name: 'b' }] } });
  });

  it('never stores directives nested in a newly added value', () => {
    const out = smp({ metadata: { name: 'p' } }, { spec: { containers: [{ name: 'web', env: [{ name: 'X', value: '1' }], $retainKeys: ['name', 'env'] }] } });
    assert.deepEqual(out, { metadata: { name: 'p' }, spec: { containers: [{ name: 'web', env: [{ name: 'X', value: '1' }] }] } });
  });
});

describe('strategic merge patch: bad input', () => {
  const cases: { name: string; patch: unknown; code: string; message?: RegExp }[] = [
    { name: 'patch that is not an object', patch: ['x'], code: 'InvalidPatch' },
    { name: 'unknown $patch in a map', patch: { metadata: { labels: { $patch: 'merge' } } }, code: 'InvalidDirective' },
    { name: 'bogus $patch in a list', patch: { spec: { containers: [{ name: 'web', $patch: 'frobnicate' }] } }, code: 'InvalidDirective' },
    { name: '$patch: merge in a list', patch: { spec: { containers: [{ $patch: 'merge' }] } }, code: 'InvalidDirective', message: /cannot yet/ },
    { name: 'list item without merge key', patch: { spec: { containers: [{ image: 'x' }] } }, code: 'MissingMergeKey', message: /does not contain declared merge key: name/ },
    { name: '$patch: delete without merge key', patch: { spec: { containers: [{ $patch: 'delete' }] } }, code: 'MissingMergeKey' },
    { name: 'non-object item in a keyed list', patch: { spec: { containers: ['web'] } }, code: 'InvalidPatch' },
    { name: '$retainKeys that is not a list', patch: { spec: { volumes: [{ name: 'data', $retainKeys: 'name' }] } }, code: 'InvalidDirective' },
    { name: 'key missing from $retainKeys', patch: { spec: { volumes: [{ name: 'data', $retainKeys: ['name'], hostPath: {} }] } }, code: 'InvalidDirective' },
    { name: '$setElementOrder that is not a list', patch: { spec: { '$setElementOrder/containers': 'web' } }, code: 'InvalidDirective' },
    { name: '$setElementOrder entry without merge key', patch: { spec: { '$setElementOrder/containers': [{ image: 'x' }] } }, code: 'InvalidDirective' },
    { name: 'patch list out of $setElementOrder order', patch: { spec: { '$setElementOrder/containers': [{ name: 'web' }, { name: 'sidecar' }], containers: [{ name: 'sidecar' }, { name: 'web' }] } }, code: 'InvalidDirective', message: /does not match/ },
    { name: 'patch item missing from $setElementOrder', patch: { spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ name: 'new' }] } }, code: 'InvalidDirective' },
    { name: '$deleteFromPrimitiveList that is not a list', patch: { metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } }, code: 'InvalidDirective' },
    { name: 'object in a primitive merge list', patch: { metadata: { finalizers: [{ a: 1 }] } }, code: 'InvalidPatch' },
  ];
  for (const c of cases) {
    it(`rejects ${c.name} with PatchError ${c.code}`, () => {
      assert.throws(
        () => smp(pod(), c.patch),
        (err: unknown) => err instanceof PatchError && err.code === c.code && (c.message === undefined || c.message.test(err.message)),
      );
    });
  }

  it('maps malformed patches to 400 and inapplicable directives to 422', () => {
    assert.equal(new PatchError('InvalidPatch', 'x').status, 400);
    assert.equal(new PatchError('MissingMergeKey', 'x').status, 422);
  });
});
