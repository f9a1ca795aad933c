import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAlternatedWrites, turnOrder } from '../../../bench/alternated-writes.ts';
import type { StoreDriver } from '../../../bench/store-bench.ts';

/** A driver that records which side wrote which key, taking `ms` per write. */
function recording(side: string, log: string[], ms: number, failing = false): StoreDriver {
  return {
    write: async (_seq, key) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (failing && !key.startsWith('alt-warm')) throw new Error(`${side} refused`);
      log.push(`${side} ${key}`);
    },
    read: async () => undefined,
    prepare: async () => undefined,
  };
}

test('turns alternate which system goes first, so that a drift of the machine weighs on both alike', () => {
  assert.deepEqual([0, 1, 2, 3].map(turnOrder), [['etcd', 'orch'], ['orch', 'etcd'], ['etcd', 'orch'], ['orch', 'etcd']]);
});

test('writes in turns use new keys in every turn and pool each side over all of its turns', async () => {
  const log: string[] = [];
  const result = await runAlternatedWrites({ etcd: recording('etcd', log, 2), orch: recording('orch', log, 4) }, { rounds: 2, turnMs: 40, warmupMs: 10 });
  assert.equal(result.rounds, 2);
  // Each side is warmed at c=16 and then at c=1, unmeasured.
  for (const side of ['etcd', 'orch']) assert.ok(log.some((l) => l.startsWith(`${side} alt-warm1-`)), `${side} had no warm-up turn at c=1`);
  const measured = log.filter((l) => !l.includes(' alt-warm'));
  // Round 0 is etcd then orch, round 1 orch then etcd; no key is written twice.
  const sides = measured.map((l) => l.split(' ')[0]).filter((s, i, all) => i === 0 || all[i - 1] !== s);
  assert.deepEqual(sides, ['etcd', 'orch', 'etcd']);
  assert.equal(new Set(measured).size, measured.length);
  assert.equal(result.etcd.ops + result.orch.ops, measured.length);
  assert.equal(result.etcd.turnP50sMs.length, 2);
  assert.ok(result.orch.latency.p50Ms > result.etcd.latency.p50Ms, JSON.stringify(result));
});

test('a side whose writes fail has its errors counted and no latency', async () => {
  const log: string[] = [];
  const result = await runAlternatedWrites({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1, true) }, { rounds: 1, turnMs: 20, warmupMs: 5 });
  assert.equal(result.orch.ops, 0);
  assert.ok(result.orch.errors > 0);
  assert.equal(result.orch.firstError, 'orch refused');
  assert.ok(Number.isNaN(result.orch.latency.p50Ms));
  assert.ok(result.etcd.ops > 0);
});

test('rounds stop before a deadline that leaves no room for both turns', async () => {
  const log: string[] = [];
  const result = await runAlternatedWrites({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1) }, { rounds: 50, turnMs: 50, warmupMs: 5, deadline: performance.now() + 2000 });
  assert.ok(result.rounds >= 1 && result.rounds < 50, `rounds ${result.rounds}`);
});

test('writes in turns refuse to start when the warm-ups and one round do not fit before the deadline', async () => {
  const log: string[] = [];
  await assert.rejects(
    runAlternatedWrites({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1) }, { rounds: 5, turnMs: 50, warmupMs: 50, deadline: performance.now() + 100 }),
    /no time left for the warm-ups and one round/,
  );
  assert.deepEqual(log, []);
});

test("each side's idle CPU is measured over the other's turns when pids are given", async () => {
  const log: string[] = [];
  const result = await runAlternatedWrites({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1) }, { rounds: 1, turnMs: 30, warmupMs: 5, pids: { etcd: [process.pid], orch: [process.pid] } });
  // This process runs both loops, so each side's "idle" CPU is the loop's own: some, and finite.
  for (const side of [result.etcd, result.orch]) assert.ok(side.idleCpuMsPerSecond !== null && side.idleCpuMsPerSecond >= 0 && Number.isFinite(side.idleCpuMsPerSecond), JSON.stringify(side));
  const without = await runAlternatedWrites({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1) }, { rounds: 1, turnMs: 10, warmupMs: 5 });
  assert.equal(without.orch.idleCpuMsPerSecond, null);
});
