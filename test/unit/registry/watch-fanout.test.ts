import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeObject } from '../../../internal/registry/generic/codec.ts';
import { objectKey } from '../../../internal/registry/generic/keys.ts';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { startWatch, type ApiWatch, type ApiWatchEvent } from '../../../internal/registry/generic/watch.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';

async function nextEvent(w: ApiWatch): Promise<ApiWatchEvent> {
  const it = w.events[Symbol.asyncIterator]();
  const r = await it.next();
  assert.equal(r.done, false);
  return r.value as ApiWatchEvent;
}

test('one change reaches every watcher as one shared decoded object, whatever their selectors', async (t) => {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  t.after(() => storage.close());
  const served = new ResourceRegistry('k8s.io').resources.find((r) => r.decl.plural === 'configmaps' && r.group === '');
  assert.ok(served);
  const store = new GenericStore(storage, served);
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
