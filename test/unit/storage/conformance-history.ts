// Conformance: MVCC reads, compaction, retention and restart.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { revision } from '../../../internal/storage/storage.ts';
import { bytes, eventually, rejectsWithCode, text, watchFailsWith, withStorage, type MakeStorage } from './conformance-support.ts';

/** Registers the MVCC, compaction, retention and restart tests. */
export function runHistoryTests(makeStorage: MakeStorage): void {
  it('reads a key and a prefix as of an older revision (MVCC)', () =>
    withStorage(makeStorage, {}, async (s) => {
      const a1 = await s.create('/p/a', bytes('a1'));
      const b1 = await s.create('/p/b', bytes('b1'));
      await s.update('/p/a', bytes('a2'));
      await s.delete('/p/b');
      await s.create('/p/c', bytes('c1'));
      assert.equal(text((await s.get('/p/a', { revision: a1.modRevision }))?.value ?? bytes('')), 'a1');
      assert.equal(await s.get('/p/b', { revision: a1.modRevision }), null, 'not yet created');
      assert.equal((await s.get('/p/b', { revision: b1.modRevision }))?.modRevision, b1.modRevision);
      const old = await s.list({ prefix: '/p/', revision: b1.modRevision });
      assert.equal(old.revision, b1.modRevision);
      assert.deepEqual(old.items.map((kv) => text(kv.value)), ['a1', 'b1']);
      const paged = await s.list({ prefix: '/p/', revision: b1.modRevision, limit: 1 });
      assert.deepEqual([paged.items.length, paged.nextKey, paged.remainingCount], [1, '/p/b', 1]);
      const now = await s.list({ prefix: '/p/' });
      assert.deepEqual(now.items.map((kv) => text(kv.value)), ['a2', 'c1']);
    }));

  it('reading above the current revision fails with RevisionTooLarge', () =>
    withStorage(makeStorage, {}, async (s) => {
      const kv = await s.create('/k', bytes('1'));
      const ahead = revision(kv.modRevision + 5);
      await rejectsWithCode(() => s.get('/k', { revision: ahead }), 'RevisionTooLarge');
      await rejectsWithCode(() => s.list({ prefix: '/', revision: ahead }), 'RevisionTooLarge');
      await rejectsWithCode(() => s.compact(ahead), 'RevisionTooLarge');
    }));

  it('compaction discards older history but keeps every live key\'s latest value', () =>
    withStorage(makeStorage, {}, async (s) => {
      const a1 = await s.create('/p/a', bytes('a1'));
      await s.create('/p/b', bytes('b1'));
      await s.create('/p/gone', bytes('x'));
      await s.delete('/p/gone');
      const a2 = await s.update('/p/a', bytes('a2'));
      await s.update('/p/b', bytes('b2'));
      const mark = await s.currentRevision();
      await s.update('/p/b', bytes('b3'));
      await s.compact(a2.modRevision);
      assert.equal(s.compactedRevision(), a2.modRevision);
      await rejectsWithCode(() => s.get('/p/a', { revision: a1.modRevision }), 'Compacted');
      await rejectsWithCode(() => s.list({ prefix: '/p/', revision: revision(a2.modRevision - 1) }), 'Compacted');
      const atCompacted = await s.list({ prefix: '/p/', revision: a2.modRevision });
      assert.deepEqual(atCompacted.items.map((kv) => text(kv.value)), ['a2', 'b1']);
      assert.equal(text((await s.get('/p/b', { revision: mark }))?.value ?? bytes('')), 'b2');
      const latest = await s.list({ prefix: '/p/' });
      assert.deepEqual(latest.items.map((kv) => text(kv.value)), ['a2', 'b3']);
      await watchFailsWith(s, { prefix: '/p/', afterRevision: a1.modRevision }, 'Compacted');
      await s.compact(a1.modRevision); // older than the compacted revision: nothing to do
      assert.equal(s.compactedRevision(), a2.modRevision);
    }));

  it('compacting everything keeps the current state readable and writable', () =>
    withStorage(makeStorage, {}, async (s) => {
      await s.create('/a', bytes('1'));
      const b = await s.create('/b', bytes('1'));
      await s.update('/a', bytes('2'));
      await s.delete('/b', { expectedRevision: b.modRevision });
      const current = await s.currentRevision();
      await s.compact(current);
      assert.deepEqual((await s.list({ prefix: '/' })).items.map((kv) => [kv.key, text(kv.value)]), [['/a', '2']]);
      const again = await s.create('/b', bytes('new'));
      assert.equal(again.modRevision, current + 1);
    }));

  it('retention compacts history older than the window on its own', () =>
    withStorage(makeStorage, { retentionMs: 150 }, async (s) => {
      const v1 = await s.create('/k', bytes('1'));
      const v2 = await s.update('/k', bytes('2'));
      await eventually(() => s.compactedRevision() >= v2.modRevision, 'retention compaction', 15_000);
      assert.equal(text((await s.get('/k'))?.value ?? bytes('')), '2');
      await rejectsWithCode(() => s.get('/k', { revision: v1.modRevision }), 'Compacted');
    }));

  it('restart from the same data resumes at exactly the same revision', () =>
    withStorage(makeStorage, {}, async (s, under) => {
      if (under.restart === undefined) return;
      const a = await s.create('/p/a', bytes('a1'));
      await s.update('/p/a', bytes('a2'));
      await s.create('/p/b', bytes('b1'));
      await s.delete('/p/b');
      const before = await s.currentRevision();
      const reopened = await under.restart();
      assert.equal(await reopened.currentRevision(), before);
      assert.equal(text((await reopened.get('/p/a'))?.value ?? bytes('')), 'a2');
      assert.equal(text((await reopened.get('/p/a', { revision: a.modRevision }))?.value ?? bytes('')), 'a1');
      const next = await reopened.create('/p/c', bytes('c1'));
      assert.equal(next.modRevision, before + 1);
    }));
}
