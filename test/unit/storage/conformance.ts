// The one storage conformance suite: every Storage implementation runs it (local, the fake
// replicated cluster here, and the real Raft cluster in integration tests).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { revision } from '../../../internal/storage/storage.ts';
import { bytes, rejectsWithCode, text, withStorage, type MakeStorage } from './conformance-support.ts';
import { runWatchTests } from './conformance-watch.ts';
import { runHistoryTests } from './conformance-history.ts';

export type { MakeStorage, StorageFactoryOptions, StorageUnderTest } from './conformance-support.ts';
export { withStorage } from './conformance-support.ts';

/** Registers the whole conformance suite for one Storage implementation. */
export function runStorageTests(name: string, makeStorage: MakeStorage): void {
  describe(`storage conformance: ${name}`, () => {
    runCrudTests(makeStorage);
    runListTests(makeStorage);
    runHistoryTests(makeStorage);
    runWatchTests(makeStorage);
  });
}

function runCrudTests(makeStorage: MakeStorage): void {
  it('create, get, update and delete advance one revision each and report it', () =>
    withStorage(makeStorage, {}, async (s) => {
      const start = await s.currentRevision();
      const created = await s.create('/core/pods/ns/a', bytes('v1'));
      assert.equal(created.modRevision, start + 1);
      assert.equal(created.createRevision, created.modRevision);
      assert.deepEqual(await s.get('/core/pods/ns/a').then((kv) => kv && text(kv.value)), 'v1');
      const updated = await s.update('/core/pods/ns/a', bytes('v2'), { expectedRevision: created.modRevision });
      assert.equal(updated.modRevision, start + 2);
      assert.equal(updated.createRevision, created.createRevision);
      const got = await s.get('/core/pods/ns/a');
      assert.ok(got !== null);
      assert.equal(text(got.value), 'v2');
      assert.equal(got.modRevision, updated.modRevision);
      const deleted = await s.delete('/core/pods/ns/a');
      assert.equal(deleted.modRevision, start + 3);
      assert.equal(text(deleted.value), 'v2', 'delete returns the last value');
      assert.equal(await s.get('/core/pods/ns/a'), null);
      assert.equal(await s.currentRevision(), start + 3);
      assert.equal(s.localRevision(), start + 3);
    }));

  it('a key created again after delete starts a new incarnation', () =>
    withStorage(makeStorage, {}, async (s) => {
      const first = await s.create('/k', bytes('1'));
      await s.delete('/k');
      const again = await s.create('/k', bytes('2'));
      assert.ok(again.createRevision > first.createRevision);
      assert.equal(again.createRevision, again.modRevision);
    }));

  it('preconditions fail cleanly: KeyExists, KeyNotFound, Conflict with the current revision', () =>
    withStorage(makeStorage, {}, async (s) => {
      const kv = await s.create('/k', bytes('1'));
      const exists = await rejectsWithCode(() => s.create('/k', bytes('x')), 'KeyExists');
      assert.equal(exists.currentRevision, kv.modRevision);
      await rejectsWithCode(() => s.update('/missing', bytes('x')), 'KeyNotFound');
      await rejectsWithCode(() => s.delete('/missing'), 'KeyNotFound');
      const stale = revision(kv.modRevision - 1);
      const conflict = await rejectsWithCode(() => s.update('/k', bytes('x'), { expectedRevision: stale }), 'Conflict');
      assert.equal(conflict.currentRevision, kv.modRevision);
      await rejectsWithCode(() => s.delete('/k', { expectedRevision: stale }), 'Conflict');
      assert.equal(text((await s.get('/k'))?.value ?? bytes('')), '1', 'failed writes change nothing');
      assert.equal(await s.currentRevision(), kv.modRevision, 'failed writes use no revision');
      await s.delete('/k', { expectedRevision: kv.modRevision });
    }));

  it('concurrent compare-and-swap writes: exactly one wins', () =>
    withStorage(makeStorage, {}, async (s) => {
      const kv = await s.create('/k', bytes('0'));
      const attempts = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => s.update('/k', bytes(`w${i}`), { expectedRevision: kv.modRevision })),
      );
      assert.equal(attempts.filter((a) => a.status === 'fulfilled').length, 1);
      const creates = await Promise.allSettled(Array.from({ length: 8 }, () => s.create('/once', bytes('x'))));
      assert.equal(creates.filter((a) => a.status === 'fulfilled').length, 1);
    }));

  it('rejects values over 1.5 MiB with ValueTooLarge and writes nothing', () =>
    withStorage(makeStorage, {}, async (s) => {
      const before = await s.currentRevision();
      await rejectsWithCode(() => s.create('/big', new Uint8Array(1.5 * 1024 * 1024 + 1)), 'ValueTooLarge');
      await s.create('/fits', new Uint8Array(1.5 * 1024 * 1024));
      assert.equal(await s.currentRevision(), before + 1);
    }));

  it('waitForRevision resolves once applied and fails with RevisionTooLarge after the timeout', () =>
    withStorage(makeStorage, {}, async (s) => {
      const kv = await s.create('/k', bytes('1'));
      await s.waitForRevision(kv.modRevision, 1000);
      const waiting = s.waitForRevision(revision(kv.modRevision + 1), 10_000);
      await s.update('/k', bytes('2'));
      await waiting;
      await rejectsWithCode(() => s.waitForRevision(revision(kv.modRevision + 100), 30), 'RevisionTooLarge');
    }));

  it('local reads see this replica\'s own writes', () =>
    withStorage(makeStorage, {}, async (s) => {
      const kv = await s.create('/k', bytes('1'));
      const got = await s.get('/k', { consistency: 'local' });
      assert.equal(got?.modRevision, kv.modRevision);
      const list = await s.list({ prefix: '/', consistency: 'local' });
      assert.equal(list.revision, kv.modRevision);
    }));
}

function runListTests(makeStorage: MakeStorage): void {
  it('lists a prefix in key order, paging with startKey and limit at one revision', () =>
    withStorage(makeStorage, {}, async (s) => {
      for (const name of ['c', 'a', 'e', 'b', 'd']) await s.create(`/core/pods/ns1/${name}`, bytes(name));
      await s.create('/core/pods/ns10/x', bytes('other namespace'));
      await s.create('/core/pods/ns0/y', bytes('before'));
      await s.create('/core/podsx', bytes('not in prefix'));
      const first = await s.list({ prefix: '/core/pods/ns1/', limit: 2 });
      assert.deepEqual(first.items.map((kv) => text(kv.value)), ['a', 'b']);
      assert.equal(first.nextKey, '/core/pods/ns1/c');
      assert.equal(first.remainingCount, 3);
      // Writes between pages must not show in later pages read at the first page's revision.
      await s.delete('/core/pods/ns1/d');
      await s.create('/core/pods/ns1/cc', bytes('cc'));
      await s.update('/core/pods/ns1/e', bytes('e2'));
      const second = await s.list({ prefix: '/core/pods/ns1/', limit: 2, startKey: first.nextKey ?? '', revision: first.revision });
      assert.equal(second.revision, first.revision);
      assert.deepEqual(second.items.map((kv) => text(kv.value)), ['c', 'd']);
      assert.equal(second.remainingCount, 1);
      const third = await s.list({ prefix: '/core/pods/ns1/', limit: 2, startKey: second.nextKey ?? '', revision: first.revision });
      assert.deepEqual(third.items.map((kv) => text(kv.value)), ['e']);
      assert.equal(third.nextKey, null);
      assert.equal(third.remainingCount, 0);
      const latest = await s.list({ prefix: '/core/pods/ns1/' });
      assert.deepEqual(latest.items.map((kv) => text(kv.value)), ['a', 'b', 'c', 'cc', 'e2']);
      assert.equal(latest.revision, await s.currentRevision());
      assert.equal(latest.nextKey, null);
    }));

  it('leaves the remaining count out of a page when asked not to count it, and pages the same', () =>
    withStorage(makeStorage, {}, async (s) => {
      for (const name of ['a', 'b', 'c']) await s.create(`/p/${name}`, bytes(name));
      const counted = await s.list({ prefix: '/p/', limit: 1 });
      const uncounted = await s.list({ prefix: '/p/', limit: 1, countRemaining: false });
      assert.equal(counted.remainingCount, 2);
      assert.equal(uncounted.remainingCount, undefined);
      assert.deepEqual([uncounted.items.map((kv) => kv.key), uncounted.nextKey], [['/p/a'], '/p/b']);
    }));

  it('lists everything with an empty prefix and honours limit 0 as no limit', () =>
    withStorage(makeStorage, {}, async (s) => {
      await s.create('/b', bytes('b'));
      await s.create('/a', bytes('a'));
      const all = await s.list({ prefix: '', limit: 0 });
      assert.deepEqual(all.items.map((kv) => kv.key), ['/a', '/b']);
      const exact = await s.list({ prefix: '/a' });
      assert.deepEqual(exact.items.map((kv) => kv.key), ['/a']);
      const empty = await s.list({ prefix: '/none/' });
      assert.deepEqual(empty.items, []);
      assert.equal(empty.remainingCount, 0);
    }));

  it('each listed item carries its own modRevision and createRevision', () =>
    withStorage(makeStorage, {}, async (s) => {
      const a = await s.create('/p/a', bytes('a'));
      const b = await s.create('/p/b', bytes('b'));
      const a2 = await s.update('/p/a', bytes('a2'));
      const list = await s.list({ prefix: '/p/' });
      assert.deepEqual(list.items.map((kv) => [kv.key, kv.createRevision, kv.modRevision]), [
        ['/p/a', a.createRevision, a2.modRevision],
        ['/p/b', b.createRevision, b.modRevision],
      ]);
    }));
}
