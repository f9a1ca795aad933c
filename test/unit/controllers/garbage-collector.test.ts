// The garbage collector over in-process stores: background, foreground and orphan propagation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually, gcFixture, refTo, settle, type GcFixture } from './garbage-collector-fixture.ts';

const gone = (f: GcFixture, plural: string, name: string, group = '') => async () => (await f.find(plural, 'default', name, group)) === undefined;

function podTemplate(app: string): Record<string, unknown> {
  return { metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
}

test('background: a dependent whose only owner is deleted is collected', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  const owner = await f.create('configmaps', 'default', 'owner');
  await f.create('configmaps', 'default', 'dep', { ownerReferences: [refTo(owner)] });
  await f.create('secrets', 'default', 'dep2', { ownerReferences: [refTo(owner)] });
  await settle(200);
  assert.ok(await f.find('configmaps', 'default', 'dep'), 'kept while the owner lives');
  await f.store('configmaps').delete('default', 'owner', {});
  await eventually('configmap dependent collected', gone(f, 'configmaps', 'dep'));
  await eventually('secret dependent collected', gone(f, 'secrets', 'dep2'));
});

test('background: a dependent created with an owner that does not exist is collected; one whose owner exists stays', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  await f.create('configmaps', 'default', 'orphaned', { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'nobody', uid: 'no-such-uid' }] });
  // An owner reference naming a live object's name but another uid is as good as absent.
  const live = await f.create('configmaps', 'default', 'live');
  await f.create('configmaps', 'default', 'wrong-uid', { ownerReferences: [{ ...refTo(live), uid: 'stale-uid' }] });
  await f.create('configmaps', 'default', 'kept', { ownerReferences: [refTo(live)] });
  await eventually('dependent of a missing owner collected', gone(f, 'configmaps', 'orphaned'));
  await eventually('dependent of a reused name collected', gone(f, 'configmaps', 'wrong-uid'));
  assert.ok(await f.find('configmaps', 'default', 'kept'));
});

test('multiple owners: a dependent with one live owner stays and loses the reference to the gone one', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  const a = await f.create('configmaps', 'default', 'a');
  const b = await f.create('secrets', 'default', 'b');
  await f.create('configmaps', 'default', 'dep', { ownerReferences: [refTo(a), refTo(b)] });
  await f.store('configmaps').delete('default', 'a', {});
  await eventually('reference to the deleted owner removed', async () => {
    const dep = await f.find('configmaps', 'default', 'dep');
    assert.ok(dep, 'the dependent stays');
    const refs = dep.metadata.ownerReferences as { uid: string }[] | undefined;
    return refs?.length === 1 && refs[0]?.uid === b.metadata.uid;
  });
  await f.store('secrets').delete('default', 'b', {});
  await eventually('collected once its last owner is gone', gone(f, 'configmaps', 'dep'));
});

test('foreground: the owner waits for its blocking dependents, not for the others', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  const owner = await f.create('configmaps', 'default', 'owner');
  await f.create('configmaps', 'default', 'blocking', { ownerReferences: [refTo(owner, true)], finalizers: ['example.com/hold'] });
  await f.create('configmaps', 'default', 'loose', { ownerReferences: [refTo(owner, false)], finalizers: ['example.com/hold'] });
  await f.store('configmaps').delete('default', 'owner', { propagationPolicy: 'Foreground' });
  await eventually('both dependents terminating', async () => {
    const [x, y] = [await f.find('configmaps', 'default', 'blocking'), await f.find('configmaps', 'default', 'loose')];
    return x?.metadata.deletionTimestamp !== undefined && y?.metadata.deletionTimestamp !== undefined;
  });
  await settle();
  const waiting = await f.find('configmaps', 'default', 'owner');
  assert.deepEqual(waiting?.metadata.finalizers, ['foregroundDeletion'], 'the owner waits for the blocking dependent');
  await f.store('configmaps').patch('default', 'blocking', (o) => ({ ...o, metadata: { ...o.metadata, finalizers: [] } }), { fieldManager: 'test' });
  await eventually('owner removed once the blocking dependent is gone', gone(f, 'configmaps', 'owner'));
  assert.ok(await f.find('configmaps', 'default', 'loose'), 'the non-blocking dependent was not waited for');
});

test('foreground chain: deployment -> replicaset -> pod go bottom-up', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  const spec = { selector: { matchLabels: { app: 'x' } }, template: podTemplate('x') };
  const deploy = await f.create('deployments', 'default', 'web', {}, { spec }, 'apps');
  const rs = await f.create('replicasets', 'default', 'web-1', { ownerReferences: [{ ...refTo(deploy, true), controller: true }] }, { spec }, 'apps');
  await f.create('pods', 'default', 'web-1-a', { ownerReferences: [refTo(rs, true)], finalizers: ['example.com/hold'] }, { spec: podTemplate('x').spec });
  await f.store('deployments', 'apps').delete('default', 'web', { propagationPolicy: 'Foreground' });
  await eventually('pod terminating', async () => (await f.find('pods', 'default', 'web-1-a'))?.metadata.deletionTimestamp !== undefined);
  await settle();
  const heldRs = await f.find('replicasets', 'default', 'web-1', 'apps');
  assert.deepEqual(heldRs?.metadata.finalizers, ['foregroundDeletion'], 'the replicaset is deleted in the foreground too');
  assert.ok(await f.find('deployments', 'default', 'web', 'apps'), 'the deployment waits for the chain');
  await f.store('pods').patch('default', 'web-1-a', (o) => ({ ...o, metadata: { ...o.metadata, finalizers: [] } }), { fieldManager: 'test' });
  await eventually('replicaset removed', gone(f, 'replicasets', 'web-1', 'apps'));
  await eventually('deployment removed', gone(f, 'deployments', 'web', 'apps'));
});

test('orphan: dependents stay with the reference to the owner removed, then the owner goes', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  const owner = await f.create('configmaps', 'default', 'owner');
  const other = await f.create('configmaps', 'default', 'other');
  await f.create('configmaps', 'default', 'dep', { ownerReferences: [refTo(owner, true), refTo(other)] });
  await f.create('secrets', 'default', 'dep2', { ownerReferences: [refTo(owner)] });
  await f.store('configmaps').delete('default', 'owner', { propagationPolicy: 'Orphan' });
  await eventually('owner removed', gone(f, 'configmaps', 'owner'));
  const dep = await f.find('configmaps', 'default', 'dep');
  assert.deepEqual((dep?.metadata.ownerReferences as { uid: string }[]).map((r) => r.uid), [other.metadata.uid]);
  const dep2 = await f.find('secrets', 'default', 'dep2');
  assert.ok(dep2, 'the orphaned dependent stays');
  assert.equal(dep2.metadata.ownerReferences, undefined);
  await settle();
  assert.ok(await f.find('secrets', 'default', 'dep2'), 'and is not collected later');
});

test('references the collector cannot check are left alone and reported once', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  await f.create('configmaps', 'default', 'unknown-kind', { ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u1' }] });
  const ownerNs = await f.create('configmaps', 'default', 'ns-owner');
  await f.create('persistentvolumes', undefined, 'pv', { ownerReferences: [refTo(ownerNs)] }, { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp' } } });
  await settle();
  assert.ok(await f.find('configmaps', 'default', 'unknown-kind'));
  assert.ok(await f.store('persistentvolumes').get(undefined, 'pv'));
  assert.equal(f.logs.filter((l) => l.includes('Widget')).length, 1, f.logs.join('\n'));
  assert.equal(f.logs.filter((l) => l.includes('OwnerRefInvalidNamespace')).length, 1, f.logs.join('\n'));
});

test('a collector started after the deletions finishes them (a new leader starts from the store)', async (t) => {
  const f = await gcFixture(t);
  const fgOwner = await f.create('configmaps', 'default', 'fg');
  await f.create('configmaps', 'default', 'fg-dep', { ownerReferences: [refTo(fgOwner, true)] });
  const orphanOwner = await f.create('configmaps', 'default', 'or');
  await f.create('configmaps', 'default', 'or-dep', { ownerReferences: [refTo(orphanOwner)] });
  const bgOwner = await f.create('configmaps', 'default', 'bg');
  await f.create('configmaps', 'default', 'bg-dep', { ownerReferences: [refTo(bgOwner)] });
  const first = f.startCollector();
  await first();
  await f.store('configmaps').delete('default', 'fg', { propagationPolicy: 'Foreground' });
  await f.store('configmaps').delete('default', 'or', { propagationPolicy: 'Orphan' });
  await f.store('configmaps').delete('default', 'bg', {});
  f.startCollector();
  await eventually('foreground finished', async () => (await gone(f, 'configmaps', 'fg')()) && (await gone(f, 'configmaps', 'fg-dep')()));
  await eventually('orphan finished', gone(f, 'configmaps', 'or'));
  await eventually('background finished', gone(f, 'configmaps', 'bg-dep'));
  assert.equal((await f.find('configmaps', 'default', 'or-dep'))?.metadata.ownerReferences, undefined);
});

test('foreground: a dependent with another live owner stays, and no longer holds the owner back', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  const owner = await f.create('configmaps', 'default', 'owner');
  const other = await f.create('secrets', 'default', 'other');
  await f.create('configmaps', 'default', 'shared', { ownerReferences: [refTo(owner, true), refTo(other)] });
  await f.store('configmaps').delete('default', 'owner', { propagationPolicy: 'Foreground' });
  await eventually('owner removed', gone(f, 'configmaps', 'owner'));
  const shared = await f.find('configmaps', 'default', 'shared');
  assert.ok(shared, 'the shared dependent stays');
  assert.deepEqual((shared.metadata.ownerReferences as { uid: string }[]).map((r) => r.uid), [other.metadata.uid]);
});

test('dependents created right after their owner are never taken for orphans', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  const names: string[] = [];
  for (let i = 0; i < 10; i++) {
    const owner = await f.create('configmaps', 'default', `owner-${i}`);
    for (let j = 0; j < 3; j++) {
      names.push(`dep-${i}-${j}`);
      await f.create('configmaps', 'default', `dep-${i}-${j}`, { ownerReferences: [refTo(owner, true)] });
    }
  }
  await settle();
  for (const name of names) assert.ok(await f.find('configmaps', 'default', name), `${name} kept`);
});

test('two collectors at once (an old and a new leader overlapping) converge without errors', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  f.startCollector();
  const owner = await f.create('configmaps', 'default', 'owner');
  const mid = await f.create('configmaps', 'default', 'mid', { ownerReferences: [refTo(owner, true)] });
  await f.create('configmaps', 'default', 'leaf', { ownerReferences: [refTo(mid, true)] });
  const orphanOwner = await f.create('configmaps', 'default', 'or');
  await f.create('configmaps', 'default', 'or-dep', { ownerReferences: [refTo(orphanOwner)] });
  await f.store('configmaps').delete('default', 'owner', { propagationPolicy: 'Foreground' });
  await f.store('configmaps').delete('default', 'or', { propagationPolicy: 'Orphan' });
  await eventually('foreground chain removed', async () => (await gone(f, 'configmaps', 'owner')()) && (await gone(f, 'configmaps', 'leaf')()));
  await eventually('orphan owner removed', gone(f, 'configmaps', 'or'));
  assert.ok(await f.find('configmaps', 'default', 'or-dep'));
});

test('the collector keeps working across graph rebuilds (resync)', async (t) => {
  const f = await gcFixture(t);
  f.startCollector({ resyncIntervalMs: 100 });
  await settle(350);
  const owner = await f.create('configmaps', 'default', 'owner');
  await f.create('configmaps', 'default', 'dep', { ownerReferences: [refTo(owner)] });
  await settle(250);
  assert.ok(await f.find('configmaps', 'default', 'dep'));
  await f.store('configmaps').delete('default', 'owner', {});
  await eventually('dependent collected', gone(f, 'configmaps', 'dep'));
});

test('foreground through an ownership cycle does not deadlock', async (t) => {
  const f = await gcFixture(t);
  f.startCollector();
  const a = await f.create('configmaps', 'default', 'a');
  const b = await f.create('configmaps', 'default', 'b', { ownerReferences: [refTo(a, true)] });
  await f.store('configmaps').patch('default', 'a', (o) => ({ ...o, metadata: { ...o.metadata, ownerReferences: [refTo(b, true)] } }), { fieldManager: 'test' });
  await settle(200);
  assert.ok(await f.find('configmaps', 'default', 'a'), 'a cycle keeps itself alive');
  await f.store('configmaps').delete('default', 'a', { propagationPolicy: 'Foreground' });
  await eventually('both removed', async () => (await gone(f, 'configmaps', 'a')()) && (await gone(f, 'configmaps', 'b')()));
});
