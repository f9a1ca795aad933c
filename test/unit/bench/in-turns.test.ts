import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInTurns, turnOrder } from '../../../bench/in-turns.ts';
import type { StoreDriver } from '../../../bench/store-bench.ts';

/** A driver that records which side did what with which key, taking `ms` per operation. */
function recording(side: string, log: string[], ms: number, failing = false): StoreDriver {
  const op = (kind: string) => async (_seq: number, key: string): Promise<void> => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (failing && key.startsWith('turns-') && !key.startsWith('turns-warm') && !key.startsWith('turns-r-')) throw new Error(`${side} refused`);
    log.push(`${side} ${kind} ${key}`);
  };
  return {
    write: op('write'),
    read: op('read'),
    prepare: async (keys) => {
      for (const key of keys) log.push(`${side} prepare ${key}`);
    },
  };
}

test('turns alternate which system goes first, so that a drift of the machine weighs on both alike', () => {
  assert.deepEqual([0, 1, 2, 3].map(turnOrder), [['etcd', 'orch'], ['orch', 'etcd'], ['etcd', 'orch'], ['orch', 'etcd']]);
});

test('writes then reads in turns: new keys in every write turn, reads of the prepared keys, each side pooled over its turns', async () => {
  const log: string[] = [];
  const result = await runInTurns({ etcd: recording('etcd', log, 2), orch: recording('orch', log, 4) }, { rounds: 2, turnMs: 40, warmupMs: 10, readKeys: 3 });
  assert.equal(result.writes.rounds, 2);
  assert.equal(result.reads?.rounds, 2);
  // Each side is warmed at c=16 and then by a turn of each kind at c=1, unmeasured.
  for (const side of ['etcd', 'orch']) {
    assert.ok(log.some((l) => l.startsWith(`${side} write turns-warm1-`)), `${side} had no write warm-up turn at c=1`);
    assert.deepEqual(log.filter((l) => l.startsWith(`${side} prepare`)), [0, 1, 2].map((i) => `${side} prepare turns-r-${i}`));
  }
  const writes = log.filter((l) => / write turns-\d/.test(l));
  // Round 0 is etcd then orch, round 1 orch then etcd; no key is written twice.
  const sides = writes.map((l) => l.split(' ')[0]).filter((s, i, all) => i === 0 || all[i - 1] !== s);
  assert.deepEqual(sides, ['etcd', 'orch', 'etcd']);
  assert.equal(new Set(writes).size, writes.length);
  assert.equal(result.writes.etcd.ops + result.writes.orch.ops, writes.length);
  const lastWrite = log.reduce((last, l, i) => (/ write turns-\d/.test(l) ? i : last), -1);
  const measuredReads = log.slice(lastWrite + 1).filter((l) => l.includes(' read '));
  assert.ok(measuredReads.length > 0 && measuredReads.every((l) => / read turns-r-[012]$/.test(l)), measuredReads.join(', '));
  assert.equal(result.writes.etcd.turnP50sMs.length, 2);
  assert.ok(result.writes.orch.latency.p50Ms > result.writes.etcd.latency.p50Ms, JSON.stringify(result.writes));
  assert.ok(result.reads !== null && result.reads.etcd.opsPerSecond > result.reads.orch.opsPerSecond, JSON.stringify(result.reads));
});

test('a side whose writes fail has its errors counted and no latency', async () => {
  const log: string[] = [];
  const result = await runInTurns({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1, true) }, { rounds: 1, turnMs: 20, warmupMs: 5, readKeys: 2 });
  assert.equal(result.writes.orch.ops, 0);
  assert.ok(result.writes.orch.errors > 0);
  assert.equal(result.writes.orch.firstError, 'orch refused');
  assert.ok(Number.isNaN(result.writes.orch.latency.p50Ms));
  assert.ok(result.writes.etcd.ops > 0);
});

test('rounds stop before a deadline that leaves no room for both turns, and reads may find none left', async () => {
  const log: string[] = [];
  const result = await runInTurns({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1) }, { rounds: 50, turnMs: 50, warmupMs: 5, readKeys: 1, deadline: performance.now() + 2000 });
  assert.ok(result.writes.rounds >= 1 && result.writes.rounds < 50, `rounds ${result.writes.rounds}`);
  // The writes took every round that fitted: nothing was left for reads.
  assert.equal(result.reads, null);
});

test('turns refuse to start when the warm-ups and one round do not fit before the deadline', async () => {
  const log: string[] = [];
  await assert.rejects(
    runInTurns({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1) }, { rounds: 5, turnMs: 50, warmupMs: 50, readKeys: 1, deadline: performance.now() + 100 }),
    /no time left for the warm-ups and one round/,
  );
  assert.deepEqual(log, []);
});

test("each side's idle CPU is measured over the other's turns when pids are given", async () => {
  const log: string[] = [];
  const result = await runInTurns({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1) }, { rounds: 1, turnMs: 30, warmupMs: 5, readKeys: 1, pids: { etcd: [process.pid], orch: [process.pid] } });
  // This process runs both loops, so each side's "idle" CPU is the loop's own: some, and finite.
  for (const side of [result.writes.etcd, result.writes.orch]) assert.ok(side.idleCpuMsPerSecond !== null && side.idleCpuMsPerSecond >= 0 && Number.isFinite(side.idleCpuMsPerSecond), JSON.stringify(side));
  const without = await runInTurns({ etcd: recording('etcd', log, 1), orch: recording('orch', log, 1) }, { rounds: 1, turnMs: 10, warmupMs: 5, readKeys: 1 });
  assert.equal(without.writes.orch.idleCpuMsPerSecond, null);
});
