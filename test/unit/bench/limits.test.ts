import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchLimits, defaultPhaseBudgetMs, phaseBudgetMs } from '../../../bench/limits.ts';

test("the run's time limit holds the sum of every phase's budget, full and quick", () => {
  for (const env of [{}, { BENCH_QUICK: '1' }]) {
    const limits = benchLimits(env);
    const sum = Object.values(limits.phaseBudgetsMs).reduce((a, b) => a + b, 0);
    assert.ok(limits.runMsMax > sum, `runMsMax ${limits.runMsMax} <= budgets ${sum}`);
  }
  assert.ok(benchLimits({ BENCH_QUICK: '1' }).runMsMax < benchLimits({}).runMsMax);
});

test('the Protobuf and failover phases have budgets of their own; an unknown phase gets the default', () => {
  const limits = benchLimits({});
  assert.equal(phaseBudgetMs(limits, 'orch Protobuf against JSON'), limits.phaseBudgetsMs['orch Protobuf against JSON']);
  assert.ok(phaseBudgetMs(limits, 'orch failover') > 0);
  assert.equal(phaseBudgetMs(limits, 'no such phase'), defaultPhaseBudgetMs);
});

test('the store points run at concurrency 64 as well, and a full run plans 20 leader kills', () => {
  assert.deepEqual(benchLimits({}).concurrencies, [1, 16, 64, 256]);
  assert.equal(benchLimits({}).failoverKills, 20);
});
