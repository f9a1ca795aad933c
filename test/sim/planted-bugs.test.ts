// The simulator must be able to fail: each planted core bug (config.bugs) has to produce a
// safety violation within the first 200 seeds. A liveness failure does not count as catching
// a safety bug. Seeds scan in order and stop at the first catch, so the test is quick.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlantedBugs } from '../../raft/core/types.ts';
import { runSeed } from './run-seed.ts';

const seedsMax = 200;

function firstCatch(bugs: PlantedBugs, steps: number): { seed: number; violation: string } | undefined {
  for (let seed = 1; seed <= seedsMax; seed++) {
    const r = runSeed({ seed, bugs, steps });
    if (!r.ok && r.violation !== undefined && !r.violation.startsWith('liveness')) return { seed, violation: r.violation };
  }
  return undefined;
}

test('a vote lost in a crash (voteNotPersisted) is caught as a double vote or two leaders in one term', () => {
  const hit = firstCatch({ voteNotPersisted: true }, 300);
  assert.ok(hit, `voteNotPersisted not caught in seeds 1..${seedsMax}`);
  assert.match(hit.violation, /election safety|log matching/, `SEED=${hit.seed}: ${hit.violation}`);
});

test('votes granted without the log check (voteWithoutLogCheck) are caught as a leader lacking committed entries', () => {
  const hit = firstCatch({ voteWithoutLogCheck: true }, 300);
  assert.ok(hit, `voteWithoutLogCheck not caught in seeds 1..${seedsMax}`);
  assert.match(hit.violation, /leader completeness|state machine safety/, `SEED=${hit.seed}: ${hit.violation}`);
});

test('committing a prior-term entry by counting replicas (Figure 8) is caught under leader churn', () => {
  const hit = firstCatch({ commitPriorTermByCounting: true }, 1000);
  assert.ok(hit, `commitPriorTermByCounting not caught in seeds 1..${seedsMax}`);
  assert.match(hit.violation, /leader completeness|state machine safety/, `SEED=${hit.seed}: ${hit.violation}`);
});
