import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNumber, makeRow, percentile, ratio, renderTable, summarize } from '../../../bench/stats.ts';

test('percentile uses the nearest rank of the sorted samples', () => {
  const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
  assert.equal(percentile(samples, 50), 5);
  assert.equal(percentile(samples, 99), 10);
  assert.equal(percentile(samples, 0), 1);
  assert.equal(percentile(samples, 100), 10);
  assert.equal(percentile([42], 99), 42);
});

test('percentile of no samples is NaN and an out-of-range p is a bug', () => {
  assert.ok(Number.isNaN(percentile([], 50)));
  assert.throws(() => percentile([1], 101));
});

test('summarize reports count, p50, p99 and max', () => {
  const samples = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.deepEqual(summarize(samples), { count: 100, p50Ms: 50, p99Ms: 99, maxMs: 100 });
});

test('ratio is orch over reference and null when a side is missing or zero', () => {
  assert.equal(ratio(50, 100), 0.5);
  assert.equal(ratio(null, 100), null);
  assert.equal(ratio(5, 0), null);
  assert.equal(ratio(Number.NaN, 1), null);
  assert.equal(makeRow({ section: 's', name: 'n', unit: 'ops/s', orch: 30, etcd: 10 }).ratio, 3);
  assert.equal(makeRow({ section: 's', name: 'n', unit: 'ms', orch: 30 }).ratio, null);
});

test('renderTable aligns columns and shows missing values as a dash', () => {
  const text = renderTable([
    makeRow({ section: 'store', name: 'write c=1', unit: 'ops/s', orch: 1234.5, etcd: 2469, limit: 5000 }),
    makeRow({ section: 'api', name: 'list 1000', unit: 'ms', orch: 12.345 }),
  ]);
  const lines = text.split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[2] ?? '', /write c=1\s+ops\/s\s+1235\s+2469\s+0\.5\s+5000$/);
  assert.match(lines[3] ?? '', /12\.3\s+-\s+-\s+-$/);
  assert.equal(formatNumber(0.000123456), '0.000123');
});
