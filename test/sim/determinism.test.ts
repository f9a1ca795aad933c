// A seed must replay exactly: the soak's SEED=<n> is only useful if the same seed gives the
// same trace. Pins down that nothing outside the seed (time, Math.random, map order) leaks in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSeed } from './run-seed.ts';
import { Rng } from './rng.ts';

test('the same seed gives the same trace hash and stats, run twice', () => {
  for (const seed of [7, 8, 1234]) {
    const a = runSeed({ seed });
    const b = runSeed({ seed });
    assert.equal(a.traceHash, b.traceHash, `SEED=${seed} trace differs`);
    assert.deepEqual(a.stats, b.stats, `SEED=${seed} stats differ`);
  }
});

test('different seeds give different traces', () => {
  const hashes = new Set([1, 2, 3, 4, 5, 6].map((seed) => runSeed({ seed }).traceHash));
  assert.equal(hashes.size, 6);
});

test('a derived random stream does not depend on draws from its parent after derivation', () => {
  const a = new Rng(42);
  const b = new Rng(42);
  const da = a.derive('x');
  b.derive('y').next();
  const db = b.derive('x');
  assert.deepEqual([da.next(), da.next()], [db.next(), db.next()]);
});
