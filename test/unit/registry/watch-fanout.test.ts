import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { encodeObject } from '../../../internal/registry/generic/codec.ts';
import { objectKey } from '../../../internal/registry/generic/keys.ts';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { startWatch, type ApiWatch, type ApiWatchEvent } from '../../../internal/registry/generic/watch.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import type { Storage } from '../../../internal/storage/storage.ts';

async function nextEvent(w: ApiWatch): Promise<ApiWatchEvent> {
  const it = w.events[Symbol.asyncIterator]();
  const r = await it.next();
  assert.equal(r.done, false);
  return r.value as ApiWatchEvent;
}

/** The ConfigMap store over a fresh in-memory SQLite store, closed after the test. */
async function configMapStore(t: TestContext): Promise<{ storage: Storage; store: GenericStore }> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  t.after(() => storage.close());
  const served = new ResourceRegistry('k8s.io').resources.find((r) => r.decl.plural === 'configmaps' && r.group === '');
  assert.ok(served);
  return { storage, store: new GenericStore(storage, served) };
}

test('one change reaches every watcher as one shared decoded object, whatever their selectors', async (t) => {
  const { storage, store } = await configMapStore(t);
  const key = objectKey(store.decl, 'ns', 'shared');
  const first = await storage.create(key, encodeObject({ metadata: { name: 'shared', namespace: 'ns', labels: { a: '1' } } }));
  const rv = String(first.modRevision);
  const watches = await Promise.all([
    ...Array.from({ length: 20 }, () => startWatch(store, 'ns', { resourceVersion: rv })),
    startWatch(store, 'ns', { resourceVersion: rv, labelSelector: 'a=1' }),
    startWatch(store, undefined, { resourceVersion: rv }),
  ]);
  try {
    await storage.update(key, encodeObject({ metadata: { name: 'shared', namespace: 'ns', labels: { a: '1' } }, data: { v: 'x' } }));
    const events = await Promise.all(watches.map(nextEvent));
    for (const ev of events) {
      assert.equal(ev.type, 'MODIFIED');
      assert.equal(ev.object, events[0]?.object, 'decoded once, shared by reference');
    }
    assert.equal(events[0]?.object['kind'], 'ConfigMap');
    assert.equal((events[0]?.object['metadata'] as { resourceVersion: string }).resourceVersion, String(first.modRevision + 1));
    // Now live (past the history replay): the next change is shared too.
    await storage.delete(key);
    const deleted = await Promise.all(watches.map(nextEvent));
    for (const ev of deleted) {
      assert.equal(ev.type, 'DELETED');
      assert.equal(ev.object, deleted[0]?.object);
    }
  } finally {
    for (const w of watches) w.stop();
  }
});

test('a watch of one name in every namespace gets that name\'s changes and decodes no other object', async (t) => {
  const { storage, store } = await configMapStore(t);
  const decoded: string[] = [];
  const load = store.load.bind(store);
  store.load = (kv, revision) => {
    decoded.push(kv.key);
    return load(kv, revision);
  };
  const rv = String(await storage.currentRevision());
  const watch = await startWatch(store, undefined, { resourceVersion: rv, fieldSelector: 'metadata.name=root-ca' });
  try {
    const cm = (namespace: string, name: string) => encodeObject({ metadata: { name, namespace } });
    await storage.create(objectKey(store.decl, 'a', 'other'), cm('a', 'other'));
    await storage.create(objectKey(store.decl, 'a', 'root-ca-2'), cm('a', 'root-ca-2'));
    await storage.create(objectKey(store.decl, 'a', 'root-ca'), cm('a', 'root-ca'));
    await storage.create(objectKey(store.decl, 'b', 'root-ca'), cm('b', 'root-ca'));
    const first = await nextEvent(watch);
    const second = await nextEvent(watch);
    assert.deepEqual([first, second].map((e) => [e.type, (e.object['metadata'] as { namespace: string }).namespace]), [['ADDED', 'a'], ['ADDED', 'b']]);
    assert.deepEqual(decoded, [objectKey(store.decl, 'a', 'root-ca'), objectKey(store.decl, 'b', 'root-ca')]);
  } finally {
    watch.stop();
  }
});
