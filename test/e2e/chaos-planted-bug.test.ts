// The chaos checkers must catch a planted bug: with ORCH_TESTING_PLANTED_BUG=stale-reads the
// replicas serve consistent reads locally without ReadIndex, so an isolated (lagging) follower
// answers stale data while the others accept writes. The linearizability checker must say so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeResult, runChaos } from '../chaos/chaos-run.ts';

test('the linearizability checker catches consistent reads served without ReadIndex (planted stale-reads bug)', { timeout: 150_000 }, async (t) => {
  const result = await runChaos({
    durationMs: 12_000,
    seed: 7,
    processes: 4,
    keys: 10,
    // Isolate one replica (then another) while the workload writes through the rest and reads everywhere.
    schedule: [
      { kind: 'isolate-replica', replicaIndex: 1, durationMs: 4_000, gapMs: 500, linkMode: 'drop' },
      { kind: 'isolate-replica', replicaIndex: 2, durationMs: 4_000, gapMs: 500, linkMode: 'blackhole' },
    ],
    replicaEnv: { ORCH_TESTING_PLANTED_BUG: 'stale-reads' },
    log: (line) => t.diagnostic(line),
    onStarted: (close) => t.after(close),
  });
  for (const line of describeResult(result).slice(0, 10)) t.diagnostic(line);
  assert.equal(result.verdict.linearizability, 'violation', 'stale reads were not detected');
  assert.ok(result.verdict.violations.some((v) => v.startsWith('linearizability:')));
});
