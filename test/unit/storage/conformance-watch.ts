// Conformance: watches (replay, live, no gap or duplicate, errors, progress).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { revision, type KeyValue, type WatchEvent } from '../../../internal/storage/storage.ts';
import { bytes, collect, eventRevision, eventually, rejectsWithCode, text, watchFailsWith, withStorage, type MakeStorage } from './conformance-support.ts';

function describeEvent(event: WatchEvent): string {
  if (event.type === 'progress') return `progress@${event.revision}`;
  const prev = event.type === 'create' ? '' : ` prev=${text(event.prevKv.value)}@${event.prevKv.modRevision}`;
  return `${event.type} ${event.kv.key}=${text(event.kv.value)}@${event.kv.modRevision}${prev}`;
}

/** Registers the watch tests. */
export function runWatchTests(makeStorage: MakeStorage): void {
  it('a watch replays history after its revision, then follows live changes, with prevKv', () =>
    withStorage(makeStorage, {}, async (s) => {
      const start = await s.currentRevision();
      const a = await s.create('/w/a', bytes('1'));
      await s.create('/other', bytes('x'));
      await s.update('/w/a', bytes('2'));
      const watcher = s.watch({ prefix: '/w/', afterRevision: start });
      try {
        const replayed = await collect(watcher, (events) => events.length >= 2);
        const b = await s.create('/w/b', bytes('b'));
        await s.delete('/w/a');
        const live = await collect(watcher, (events) => events.length >= 2);
        assert.deepEqual([...replayed, ...live].map(describeEvent), [
          `create /w/a=1@${a.modRevision}`,
          `update /w/a=2@${a.modRevision + 2} prev=1@${a.modRevision}`,
          `create /w/b=b@${b.modRevision}`,
          `delete /w/a=2@${b.modRevision + 1} prev=2@${a.modRevision + 2}`,
        ]);
      } finally {
        watcher.stop();
      }
    }));

  it('a watch delivers every matching change exactly once, in order, while writes race its replay', () =>
    withStorage(makeStorage, {}, async (s) => {
      const expected: number[] = [];
      const record = (kv: KeyValue): void => {
        if (kv.key.startsWith('/w/')) expected.push(kv.modRevision);
      };
      for (let i = 0; i < 1000; i += 1) record(await s.create(`/${i % 3 === 0 ? 'x' : 'w'}/${i}`, bytes(`${i}`)));
      const after = revision(expected[40] as number);
      const watcher = s.watch({ prefix: '/w/', afterRevision: after });
      try {
        const writer = (async () => {
          for (let i = 0; i < 200; i += 1) {
            const key = `/${i % 3 === 0 ? 'x' : 'w'}/${i}`;
            record(await s.update(key, bytes(`u${i}`)));
          }
        })();
        const seen: number[] = [];
        const reading = (async () => {
          for await (const event of watcher) seen.push(eventRevision(event));
        })();
        await writer;
        const want = expected.filter((r) => r > after);
        await collectUntil(() => seen.length >= want.length, reading);
        watcher.stop();
        await reading;
        assert.deepEqual(seen, want);
      } finally {
        watcher.stop();
      }
    }));

  it('a watch from a revision older than history fails with Compacted', () =>
    withStorage(makeStorage, {}, async (s) => {
      await s.create('/k', bytes('1'));
      const kv = await s.update('/k', bytes('2'));
      await s.update('/k', bytes('3'));
      await s.compact(kv.modRevision);
      await watchFailsWith(s, { prefix: '/', afterRevision: revision(kv.modRevision - 1) }, 'Compacted');
      const fromCompacted = s.watch({ prefix: '/', afterRevision: kv.modRevision });
      try {
        const [event] = await collect(fromCompacted, (events) => events.length >= 1);
        assert.equal(event === undefined ? '' : describeEvent(event), `update /k=3@${kv.modRevision + 1} prev=2@${kv.modRevision}`);
      } finally {
        fromCompacted.stop();
      }
    }));

  it('a watcher that falls too far behind is closed with WatcherTooSlow', () =>
    withStorage(makeStorage, { watchBufferEventsMax: 20 }, async (s) => {
      const watcher = s.watch({ prefix: '/', afterRevision: await s.currentRevision() });
      const iterator = watcher[Symbol.asyncIterator]();
      try {
        const first = iterator.next();
        for (let i = 0; i < 60; i += 1) await s.create(`/k${i}`, bytes('x'));
        assert.equal((await first).done, false);
        await rejectsWithCode(async () => {
          for (;;) if ((await iterator.next()).done === true) return;
        }, 'WatcherTooSlow');
      } finally {
        watcher.stop();
      }
    }));

  it('ended settles when the store closes a watcher nobody is reading, and when one is stopped', () =>
    withStorage(makeStorage, { watchBufferEventsMax: 20 }, async (s) => {
      const slow = s.watch({ prefix: '/', afterRevision: await s.currentRevision() });
      const stopped = s.watch({ prefix: '/', afterRevision: await s.currentRevision() });
      let slowEnded = false;
      void slow.ended.then(() => (slowEnded = true));
      try {
        // One read makes the watch live; after it nobody reads, as when its client stops taking data.
        const first = slow[Symbol.asyncIterator]().next();
        for (let i = 0; i < 10; i += 1) await s.create(`/within/${i}`, bytes('x'));
        assert.equal((await first).done, false);
        assert.equal(slowEnded, false, 'a watcher within its bound goes on');
        for (let i = 0; i < 30; i += 1) await s.create(`/beyond/${i}`, bytes('x'));
        await eventually(() => slowEnded, 'the store to close the watcher that fell behind');
        stopped.stop();
        await stopped.ended;
      } finally {
        slow.stop();
        stopped.stop();
      }
    }));

  it('progress events announce revisions that had no matching change', () =>
    withStorage(makeStorage, {}, async (s) => {
      const watcher = s.watch({ prefix: '/quiet/', afterRevision: await s.currentRevision(), progressIntervalMs: 20 });
      try {
        const other = await s.create('/busy/a', bytes('x'));
        const events = await collect(watcher, (got) => got.some((e) => e.type === 'progress' && e.revision >= other.modRevision));
        assert.ok(events.every((e) => e.type === 'progress'));
        const revisions = events.map(eventRevision);
        assert.deepEqual(revisions, [...revisions].sort((x, y) => x - y));
      } finally {
        watcher.stop();
      }
    }));

  it('a quiet watch still gets a progress event each interval, at the current revision', () =>
    withStorage(makeStorage, {}, async (s) => {
      await s.create('/quiet-too/a', bytes('x'));
      const at = await s.currentRevision();
      const watcher = s.watch({ prefix: '/quiet-too/', afterRevision: at, progressIntervalMs: 20 });
      try {
        const events = await collect(watcher, (got) => got.length >= 3);
        assert.deepEqual(events.map(describeEvent).slice(0, 3), [`progress@${at}`, `progress@${at}`, `progress@${at}`]);
      } finally {
        watcher.stop();
      }
    }));

  it('a requested progress event comes after the changes queued before it, at the revision they reach', () =>
    withStorage(makeStorage, {}, async (s) => {
      const start = await s.currentRevision();
      const watcher = s.watch({ prefix: '/asked/', afterRevision: start });
      try {
        const a = await s.create('/asked/a', bytes('1'));
        const other = await s.create('/elsewhere', bytes('x'));
        await collect(watcher, (got) => got.length >= 1);
        watcher.requestProgress();
        const [progress] = await collect(watcher, (got) => got.length >= 1);
        assert.ok(progress?.type === 'progress', 'a progress event');
        assert.ok(eventRevision(progress) >= a.modRevision && eventRevision(progress) <= other.modRevision, describeEvent(progress));
        watcher.stop();
        watcher.requestProgress();
        assert.deepEqual(await collect(watcher, () => false), [], 'nothing after stop');
      } finally {
        watcher.stop();
      }
    }));

  it('stop ends iteration normally and a watch of one key sees only that key', () =>
    withStorage(makeStorage, {}, async (s) => {
      const watcher = s.watch({ prefix: '/k', afterRevision: await s.currentRevision() });
      await s.create('/j', bytes('no'));
      const k = await s.create('/k', bytes('yes'));
      const [event] = await collect(watcher, (events) => events.length >= 1);
      assert.equal(event === undefined ? -1 : eventRevision(event), k.modRevision);
      watcher.stop();
      const rest = await collect(watcher, () => false);
      assert.deepEqual(rest, []);
    }));
}

async function collectUntil(done: () => boolean, reading: Promise<void>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!done()) {
    assert.ok(Date.now() < deadline, 'watch did not deliver every change in time');
    await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 10))]);
  }
}
