// A large collection read whole (a LIST without a limit, a controller's full list) is read in
// storage pages with a turn of the event loop between them: the replica's one thread keeps sending
// and answering Raft heartbeats however large the collection is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeObject } from '../../../internal/registry/generic/codec.ts';
import { objectKey } from '../../../internal/registry/generic/keys.ts';
import { listPageItemsMax } from '../../../internal/registry/generic/limits.ts';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import type { ListOptions, ListResult } from '../../../internal/storage/storage.ts';

const configMaps = new ResourceRegistry('k8s.io').resources.find((r) => r.decl.plural === 'configmaps' && r.group === '');

test('a whole list is read in storage pages, with a turn of the event loop before each page after the first', async (t) => {
  assert.ok(configMaps);
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  t.after(() => storage.close());
  const count = listPageItemsMax * 2 + 7;
  for (let i = 0; i < count; i++) {
    const name = `cm-${String(i).padStart(5, '0')}`;
    await storage.create(objectKey(configMaps.decl, 'ns', name), encodeObject({ metadata: { name, namespace: 'ns' } }));
  }
  // Which event-loop turn each storage page was read in, counted by a chain of immediates.
  let turn = 0;
  let counting = true;
  const tick = (): void => {
    turn++;
    if (counting) setImmediate(tick);
  };
  const pages: { options: ListOptions; turn: number }[] = [];
  const list = storage.list.bind(storage);
  storage.list = async (options: ListOptions): Promise<ListResult> => {
    pages.push({ options, turn });
    return list(options);
  };
  const store = new GenericStore(storage, configMaps);
  setImmediate(tick);
  const whole = await store.list('ns', {});
  counting = false;
  assert.equal(whole.items.length, count);
  assert.equal(whole.metadata.continue, undefined);
  assert.equal(whole.metadata.remainingItemCount, undefined);
  assert.deepEqual(pages.map((p) => p.options.limit), [listPageItemsMax, listPageItemsMax, listPageItemsMax]);
  assert.ok(pages.every((p) => p.options.countRemaining === false), 'a whole list never counts what remains');
  assert.ok(pages.slice(1).every((p) => p.options.revision === pages[1]?.options.revision && p.options.revision !== undefined), 'later pages read at the first one\'s revision');
  for (let i = 1; i < pages.length; i++) assert.ok((pages[i]?.turn ?? 0) > (pages[i - 1]?.turn ?? 0), `page ${i + 1} is read in a later turn than page ${i}`);
});

test('a limited page with no selector counts what remains; one with a selector does not ask', async (t) => {
  assert.ok(configMaps);
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  t.after(() => storage.close());
  for (let i = 0; i < 5; i++) await storage.create(objectKey(configMaps.decl, 'ns', `cm-${i}`), encodeObject({ metadata: { name: `cm-${i}`, namespace: 'ns', labels: { i: String(i) } } }));
  const asked: (boolean | undefined)[] = [];
  const list = storage.list.bind(storage);
  storage.list = async (options: ListOptions): Promise<ListResult> => {
    asked.push(options.countRemaining);
    return list(options);
  };
  const store = new GenericStore(storage, configMaps);
  const page = await store.list('ns', { limit: 2 });
  assert.equal(page.metadata.remainingItemCount, 3);
  const selected = await store.list('ns', { limit: 2, labelSelector: 'i!=0' });
  assert.equal(selected.metadata.remainingItemCount, undefined);
  assert.deepEqual(asked, [true, false]);
});
