import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadIndexBatcher } from '../../../raft/read-index-batcher.ts';
import { RaftNodeError } from '../../../raft/errors.ts';
import { index } from '../../../raft/core/types.ts';

test('readers queued before a round share it and resolve once applied reaches the read index', async () => {
  const b = new ReadIndexBatcher(10);
  const r1 = b.enqueue();
  const r2 = b.enqueue();
  assert.equal(b.wantsRound(), true);
  const ctx = b.startRound(0);
  assert.equal(b.wantsRound(), false);
  const late = b.enqueue(); // arrives after the round started: must not join it
  let settled = false;
  void r1.then(() => (settled = true));
  b.onReadStates([{ index: index(7), requestContext: ctx }], index(5));
  await new Promise((r) => setImmediate(r));
  assert.equal(settled, false);
  b.onApplied(index(7));
  assert.equal(await r1, 7);
  assert.equal(await r2, 7);
  assert.equal(b.wantsRound(), true);
  const ctx2 = b.startRound(1);
  assert.notDeepEqual(ctx2, ctx);
  b.onReadStates([{ index: index(8), requestContext: ctx2 }], index(9));
  assert.equal(await late, 8);
});

test('a round without an answer times out after its ticks', async () => {
  const b = new ReadIndexBatcher(3);
  const r = b.enqueue();
  b.startRound(10);
  b.onTick(12);
  b.onTick(13);
  await assert.rejects(r, (e: unknown) => e instanceof RaftNodeError && e.code === 'Timeout');
});
