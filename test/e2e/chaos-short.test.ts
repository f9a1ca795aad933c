// The short, seeded chaos run inside `make test`: real replica processes, the workload through the
// client library, leader SIGKILLs, pauses, restarts and peer partitions, then every checker.
// Replay a failing seed with `node --import tsx test/chaos/run-chaos.ts --duration=30 --seed=<seed>`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeResult, runChaos } from '../chaos/chaos-run.ts';
import { faultSchedule, type ScheduledFault } from '../chaos/nemesis.ts';

const seed = Number(process.env.ORCH_CHAOS_SEED ?? 20261122);
const durationMs = 30_000;

test('a short seeded chaos run (leader kills, pauses, partitions) shows no linearizability, watch, durability or replica-agreement violation', { timeout: 170_000 }, async (t) => {
  // A leader kill and an isolated leader first, whatever the seed draws after them.
  const opening: ScheduledFault[] = [
    { kind: 'kill-leader', replicaIndex: 0, durationMs: 1_500, gapMs: 1_000, linkMode: 'drop' },
    { kind: 'isolate-leader', replicaIndex: 0, durationMs: 2_500, gapMs: 1_000, linkMode: 'blackhole' },
  ];
  const result = await runChaos({
    durationMs,
    seed,
    processes: 4,
    keys: 20,
    schedule: [...opening, ...faultSchedule(seed, 3, durationMs)],
    log: (line) => t.diagnostic(line),
    onStarted: (close) => t.after(close),
  });
  for (const line of describeResult(result)) t.diagnostic(line);
  assert.deepEqual(result.verdict.violations, [], `seed ${seed}: violations found`);
  assert.ok(result.outcomes.ok > 100, 'the workload made progress');
  assert.ok(result.nemesis.windows.length >= 1, 'a leader kill was measured');
  assert.ok(result.nemesis.windows.every((w) => w.writeMs !== null && w.readMs !== null), 'writes and consistent reads resumed after every leader kill');
});
