// Random fault schedules over 3- and 5-node clusters: every safety invariant holds at every
// event, and the cluster is live once the faults stop. A failure names the seed to replay
// with `make sim-soak SEED=<n>`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSeed } from './run-seed.ts';

const seedCount = 320;

test(`raft keeps every safety invariant and recovers liveness over ${seedCount} seeded fault schedules`, () => {
  const profiles = new Map<string, number>();
  const sizes = new Map<number, number>();
  for (let seed = 1; seed <= seedCount; seed++) {
    const r = runSeed({ seed });
    assert.ok(r.ok, `SEED=${seed} (nodes=${r.nodes}, profile=${r.profile}): ${r.violation}`);
    profiles.set(r.profile, (profiles.get(r.profile) ?? 0) + 1);
    sizes.set(r.nodes, (sizes.get(r.nodes) ?? 0) + 1);
  }
  assert.ok((sizes.get(3) ?? 0) > 100 && (sizes.get(5) ?? 0) > 100, 'both cluster sizes ran');
  assert.equal(profiles.size, 4, `every fault profile ran: ${[...profiles.keys()].join(', ')}`);
});

test('the simulated clusters do real work: leaders change, proposals commit, reads answer, snapshots happen', () => {
  let termsSum = 0;
  let applied = 0;
  let reads = 0;
  let snapshots = 0;
  let confChanges = 0;
  for (let seed = 1; seed <= 20; seed++) {
    const r = runSeed({ seed });
    assert.ok(r.ok, `SEED=${seed}: ${r.violation}`);
    termsSum += r.stats.highestLeaderTerm;
    applied += r.stats.proposalsAccepted;
    reads += r.stats.readsAnswered;
    snapshots += r.stats.snapshots;
    confChanges += r.stats.confChanges;
  }
  assert.ok(termsSum > 40, `sum of highest leader terms ${termsSum}`);
  assert.ok(applied > 200, `accepted proposals ${applied}`);
  assert.ok(reads > 20, `answered reads ${reads}`);
  assert.ok(snapshots > 10, `snapshots ${snapshots}`);
  assert.ok(confChanges > 5, `membership changes ${confChanges}`);
});
