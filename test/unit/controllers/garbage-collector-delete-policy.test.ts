// Propagation policies at delete time (internal/registry/generic/delete.ts), without a collector.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { gcFixture } from './garbage-collector-fixture.ts';

async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 0;
  } catch (err) {
    if (err instanceof StatusError) return err.code;
    throw err;
  }
}

test('Background (the default) removes an object without finalizers at once', async (t) => {
  const f = await gcFixture(t);
  await f.create('configmaps', 'default', 'a');
  await f.create('configmaps', 'default', 'b');
  await f.store('configmaps').delete('default', 'a', {});
  await f.store('configmaps').delete('default', 'b', { propagationPolicy: 'Background' });
  assert.equal(await f.find('configmaps', 'default', 'a'), undefined);
  assert.equal(await f.find('configmaps', 'default', 'b'), undefined);
});

test('Orphan (or orphanDependents=true) leaves the object terminating with the orphan finalizer', async (t) => {
  const f = await gcFixture(t);
  await f.create('configmaps', 'default', 'a');
  await f.create('configmaps', 'default', 'b');
  const a = await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Orphan' });
  await f.store('configmaps').delete('default', 'b', { orphanDependents: true });
  assert.ok(a.metadata.deletionTimestamp);
  assert.deepEqual(a.metadata.finalizers, ['orphan']);
  const b = await f.find('configmaps', 'default', 'b');
  assert.ok(b?.metadata.deletionTimestamp);
  assert.deepEqual(b.metadata.finalizers, ['orphan']);
});

test('Foreground leaves the object terminating with foregroundDeletion, after its other finalizers', async (t) => {
  const f = await gcFixture(t);
  await f.create('configmaps', 'default', 'a', { finalizers: ['example.com/hold'] });
  const a = await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Foreground' });
  assert.ok(a.metadata.deletionTimestamp);
  assert.deepEqual(a.metadata.finalizers, ['example.com/hold', 'foregroundDeletion']);
});

test('a repeated delete switches the policy finalizer and keeps the first deletionTimestamp', async (t) => {
  const f = await gcFixture(t);
  await f.create('configmaps', 'default', 'a', { finalizers: ['example.com/hold'] });
  const first = await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Orphan' });
  const second = await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Foreground' });
  assert.deepEqual(second.metadata.finalizers, ['example.com/hold', 'foregroundDeletion']);
  assert.equal(second.metadata.deletionTimestamp, first.metadata.deletionTimestamp);
  const third = await f.store('configmaps').delete('default', 'a', {});
  assert.deepEqual(third.metadata.finalizers, ['example.com/hold', 'foregroundDeletion'], 'no policy keeps the current one');
  const fourth = await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Background' });
  assert.deepEqual(fourth.metadata.finalizers, ['example.com/hold']);
});

test('a Background delete of an object held only by the orphan finalizer removes it', async (t) => {
  const f = await gcFixture(t);
  await f.create('configmaps', 'default', 'a');
  await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Orphan' });
  await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Background' });
  assert.equal(await f.find('configmaps', 'default', 'a'), undefined);
});

test('dry run stores nothing; preconditions and conflicting options are refused', async (t) => {
  const f = await gcFixture(t);
  const a = await f.create('configmaps', 'default', 'a');
  const dry = await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Foreground', dryRun: true });
  assert.deepEqual(dry.metadata.finalizers, ['foregroundDeletion']);
  const after = await f.find('configmaps', 'default', 'a');
  assert.equal(after?.metadata.deletionTimestamp, undefined);
  assert.equal(after?.metadata.resourceVersion, a.metadata.resourceVersion);
  assert.equal(await statusOf(f.store('configmaps').delete('default', 'a', { preconditions: { uid: 'other' } })), 409);
  assert.equal(await statusOf(f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Orphan', orphanDependents: true })), 422);
  assert.equal(await statusOf(f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Sideways' })), 400);
  assert.ok(await f.find('configmaps', 'default', 'a'));
});
