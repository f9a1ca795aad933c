import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { encodeObject } from '../../../internal/registry/generic/codec.ts';
import { objectKey } from '../../../internal/registry/generic/keys.ts';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { startWatch, type ApiWatch, type ApiWatchEvent } from '../../../internal/registry/generic/watch.ts';
import { initialEventsPageItemsDefault } from '../../../internal/registry/generic/initial-events.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import { revision, type Storage } from '../../../internal/storage/storage.ts';

/** A ConfigMap store over in-memory storage whose list() counts the objects each call returned. */
async function countingStore(t: TestContext): Promise<{ storage: Storage; store: GenericStore; listed: number[] }> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  t.after(() => storage.close());
  assert.ok(configMaps);
  const store = new GenericStore(storage, configMaps);
  const listed: number[] = [];
  const list = store.list.bind(store);
  store.list = async (namespace, query) => {
    const page = await list(namespace, query);
    listed.push(page.items.length);
    return page;
  };
  return { storage, store, listed };
}

function configMap(name: string, data: Record<string, string> = {}): Uint8Array {
  return encodeObject({ metadata: { name, namespace: 'ns' }, data });
}

const configMaps = new ResourceRegistry('k8s.io').resources.find((r) => r.decl.plural === 'configmaps' && r.group === '');

async function createMany(storage: Storage, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await storage.create(key(i), configMap(name(i)));
}

function name(i: number): string {
  return `cm-${String(i).padStart(5, '0')}`;
}

function key(i: number): string {
  assert.ok(configMaps);
  return objectKey(configMaps.decl, 'ns', name(i));
}

async function take(it: AsyncIterator<ApiWatchEvent>, n: number): Promise<ApiWatchEvent[]> {
  const out: ApiWatchEvent[] = [];
  for (let i = 0; i < n; i++) {
    const r = await it.next();
    assert.equal(r.done, false, `event ${i + 1} of ${n}`);
    out.push(r.value as ApiWatchEvent);
  }
  return out;
}

function summary(ev: ApiWatchEvent): string {
  const meta = ev.object['metadata'] as { name?: string; resourceVersion?: string; annotations?: Record<string, string> };
  return `${ev.type} ${meta.name ?? ''}@${meta.resourceVersion ?? ''}`;
}

test('a watch from now sends the collection as ADDED events read in pages, then the changes after the list', async (t) => {
  const { storage, store, listed } = await countingStore(t);
  await createMany(storage, 7);
  const watch: ApiWatch = await startWatch(store, 'ns', {}, { initialPageItems: 3 });
  t.after(() => watch.stop());
  const it = watch.events[Symbol.asyncIterator]();
  const initial = await take(it, 7);
  assert.deepEqual(initial.map((e) => e.type), Array(7).fill('ADDED'));
  assert.deepEqual(initial.map((e) => (e.object['metadata'] as { name: string }).name), Array.from({ length: 7 }, (_, i) => name(i)));
  assert.deepEqual(listed, [3, 3, 1]);
  const updated = await storage.update(key(2), configMap(name(2), { v: '1' }));
  const [next] = await take(it, 1);
  assert.equal(next && summary(next), `MODIFIED ${name(2)}@${updated.modRevision}`);
});

test('sendInitialEvents ends the paged initial events with the initial-events-end BOOKMARK at the list revision', async (t) => {
  const { storage, store } = await countingStore(t);
  await createMany(storage, 5);
  const listRevision = storage.localRevision();
  const watch = await startWatch(store, 'ns', { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }, { initialPageItems: 2 });
  t.after(() => watch.stop());
  const events = await take(watch.events[Symbol.asyncIterator](), 6);
  assert.deepEqual(events.slice(0, 5).map((e) => e.type), Array(5).fill('ADDED'));
  const end = events[5];
  assert.equal(end?.type, 'BOOKMARK');
  const meta = end.object['metadata'] as { resourceVersion: string; annotations: Record<string, string> };
  assert.equal(meta.resourceVersion, String(listRevision));
  assert.deepEqual(meta.annotations, { 'k8s.io/initial-events-end': 'true' });
});

test('writes while the initial pages go out show once each after them, as of the list revision, with no gap', async (t) => {
  const { storage, store } = await countingStore(t);
  await createMany(storage, 10);
  const listRevision = storage.localRevision();
  const watch = await startWatch(store, 'ns', { resourceVersion: '0' }, { initialPageItems: 3 });
  t.after(() => watch.stop());
  const it = watch.events[Symbol.asyncIterator]();
  const head = await take(it, 2);
  // Changes to objects already sent, in the page under way and not read yet.
  const sentChanged = await storage.update(key(0), configMap(name(0), { v: 'a' }));
  const laterChanged = await storage.update(key(9), configMap(name(9), { v: 'b' }));
  const added = await storage.create(key(10), configMap(name(10)));
  await storage.delete(key(5));
  const rest = await take(it, 8 + 4);
  const all = [...head, ...rest].map(summary);
  const initialAt = (i: number) => `ADDED ${name(i)}@${listRevision - 10 + i + 1}`;
  assert.deepEqual(all.slice(0, 10), Array.from({ length: 10 }, (_, i) => initialAt(i)));
  assert.deepEqual(all.slice(10), [
    `MODIFIED ${name(0)}@${sentChanged.modRevision}`,
    `MODIFIED ${name(9)}@${laterChanged.modRevision}`,
    `ADDED ${name(10)}@${added.modRevision}`,
    `DELETED ${name(5)}@${added.modRevision + 1}`,
  ]);
});

test('a watch over many objects holds one page of them: the next page is read only once the last is taken', async (t) => {
  const { storage, store, listed } = await countingStore(t);
  const count = 1000;
  const pageItems = 40;
  await createMany(storage, count);
  const watch = await startWatch(store, 'ns', {}, { initialPageItems: pageItems });
  t.after(() => watch.stop());
  const it = watch.events[Symbol.asyncIterator]();
  const sum = () => listed.reduce((a, b) => a + b, 0);
  for (let taken = 0; taken < count; taken++) {
    // Before event `taken` is asked for, the watch has read at most the page it is in.
    assert.ok(sum() <= taken + pageItems, `${sum()} objects read when ${taken} were taken`);
    await take(it, 1);
  }
  assert.equal(sum(), count);
  assert.ok(listed.every((n) => n <= pageItems));
});

test('a watch over more than a page reads pages of the default size', async (t) => {
  const { storage, store, listed } = await countingStore(t);
  const count = initialEventsPageItemsDefault * 2 + 7;
  await createMany(storage, count);
  const watch = await startWatch(store, 'ns', {});
  t.after(() => watch.stop());
  await take(watch.events[Symbol.asyncIterator](), count);
  assert.deepEqual(listed, [initialEventsPageItemsDefault, initialEventsPageItemsDefault, 7]);
});

test('a list revision compacted away while the initial pages go out ends the watch with a 410 Expired ERROR', async (t) => {
  const { storage, store } = await countingStore(t);
  await createMany(storage, 6);
  const listRevision = storage.localRevision();
  const watch = await startWatch(store, 'ns', {}, { initialPageItems: 2 });
  t.after(() => watch.stop());
  const it = watch.events[Symbol.asyncIterator]();
  await take(it, 2);
  const later = await storage.update(key(0), configMap(name(0), { v: 'x' }));
  await storage.compact(revision(later.modRevision));
  const [error] = await take(it, 1);
  assert.equal(error?.type, 'ERROR');
  assert.equal(error.object['code'], 410);
  assert.equal(error.object['reason'], 'Expired');
  assert.match(String(error.object['message']), new RegExp(`^too old resource version: ${listRevision} \\(`));
  assert.equal((await it.next()).done, true);
});

test('a watch stopped during its initial events reads no further page', async (t) => {
  const { storage, store, listed } = await countingStore(t);
  await createMany(storage, 9);
  const watch = await startWatch(store, 'ns', {}, { initialPageItems: 3 });
  const it = watch.events[Symbol.asyncIterator]();
  await take(it, 3);
  watch.stop();
  assert.equal((await it.next()).done, true);
  assert.deepEqual(listed, [3]);
});

test('selectors apply to the paged initial events', async (t) => {
  const { storage, store } = await countingStore(t);
  for (let i = 0; i < 9; i++) await storage.create(key(i), encodeObject({ metadata: { name: name(i), namespace: 'ns', labels: { even: String(i % 2 === 0) } } }));
  const watch = await startWatch(store, 'ns', { labelSelector: 'even=true', sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }, { initialPageItems: 2 });
  t.after(() => watch.stop());
  const events = await take(watch.events[Symbol.asyncIterator](), 6);
  assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ADDED', 'ADDED', 'ADDED', 'ADDED', 'BOOKMARK']);
  assert.deepEqual(events.slice(0, 5).map((e) => (e.object['metadata'] as { name: string }).name), [0, 2, 4, 6, 8].map(name));
});
