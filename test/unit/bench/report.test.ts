import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runClosedLoop, type LoadResult } from '../../../bench/load.ts';
import { apiRows, apiStoreLabels, machineRows, pointWarnings, storeRows, targetLines } from '../../../bench/report.ts';
import { makeRow, summarize } from '../../../bench/stats.ts';

function load(opsPerSecond: number, p50Ms: number): LoadResult {
  return { ops: 1, errors: 0, firstError: null, elapsedMs: 1, opsPerSecond, latency: { ...summarize([p50Ms]) } };
}

test('store rows pair orch with etcd at the same concurrency and give the commit limit at c=1', () => {
  const machine = { fdatasyncPerSecond: 500, fdatasyncInStepP50Ms: 3, loopbackRoundTripP50Ms: 0.05, http2RequestsPerSecond: 10_000, warnings: [] };
  const rows = storeRows(
    [{ concurrency: 1, write: load(100, 4), read: load(300, 1) }],
    [{ concurrency: 1, write: load(400, 2), read: load(600, 1) }],
    machine,
  );
  const write = rows.find((r) => r.name === 'write throughput c=1');
  assert.equal(write?.ratio, 0.25);
  const p50 = rows.find((r) => r.name === 'write p50 c=1');
  assert.equal(p50?.ratio, 2);
  assert.equal(p50?.limit, 2.05);
  assert.equal(rows.find((r) => r.name === 'linearizable read throughput c=1')?.limit, 10_000);
});

test('store rows keep the reference column empty when etcd did not run', () => {
  const rows = storeRows([{ concurrency: 16, write: load(100, 4), read: load(300, 1) }], null, null);
  assert.ok(rows.length > 0);
  assert.ok(rows.every((r) => r.etcd === null && r.ratio === null && r.limit === null));
});

test('closed loop stops at its operation budget and counts errors apart from successes', async () => {
  const seen: number[] = [];
  const result = await runClosedLoop({
    concurrency: 4,
    durationMs: 60_000,
    opsMax: 10,
    op: async (seq) => {
      seen.push(seq);
      if (seq % 5 === 0) throw new Error(`boom ${seq}`);
    },
  });
  assert.deepEqual([...seen].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(result.ops, 8);
  assert.equal(result.errors, 2);
  assert.equal(result.firstError, 'boom 0');
  assert.equal(result.latency.count, 8);
});

test('target lines judge the issue targets and say when a row was not measured', () => {
  const lines = targetLines([
    makeRow({ section: 'store', name: 'write throughput c=256', unit: 'ops/s', orch: 600, etcd: 1000 }),
    makeRow({ section: 'store', name: 'write p50 c=1', unit: 'ms', orch: 10, limit: 2 }),
  ]);
  assert.match(lines[0] ?? '', /: met \(0\.6x\)/);
  assert.match(lines[1] ?? '', /: missed \(5x; etcd -x\)/);
  assert.match(lines[2] ?? '', /: not measured/);
  assert.equal(lines.length, 4, 'no shared-disk line without the machine rows');
});

test('the single-writer target gives etcd multiple of the same bound, and an info line the bound of fsyncs in step', () => {
  const machine = { fdatasyncPerSecond: 500, fdatasyncInStepP50Ms: 0.45, loopbackRoundTripP50Ms: 0.05, http2RequestsPerSecond: 10_000, warnings: [] };
  const rows = [
    ...machineRows(machine),
    ...storeRows([{ concurrency: 1, write: load(100, 4), read: load(300, 1) }], [{ concurrency: 1, write: load(400, 3), read: load(600, 1) }], machine),
  ];
  const lines = targetLines(rows);
  // fsync + RTT = 1000 / 500 + 0.05 = 2.05 ms
  assert.match(lines[1] ?? '', /: met \(1\.95x; etcd 1\.46x\)/);
  assert.equal(lines[4], 'info: single-writer p50 against 3 fsyncs in step + RTT (0.5 ms): orch 8x, etcd 6x');
});

test('API store rows are named after ConfigMaps and keep etcd as the reference and the commit limit', () => {
  const machine = { fdatasyncPerSecond: 500, fdatasyncInStepP50Ms: 3, loopbackRoundTripP50Ms: 0.05, http2RequestsPerSecond: 10_000, warnings: [] };
  const rows = storeRows([{ concurrency: 1, write: load(100, 4), read: load(300, 1) }], [{ concurrency: 1, write: load(400, 2), read: load(600, 1) }], machine, apiStoreLabels);
  assert.ok(rows.every((r) => r.section === 'api'));
  assert.equal(rows.find((r) => r.name === 'ConfigMap create throughput c=1')?.ratio, 0.25);
  assert.equal(rows.find((r) => r.name === 'ConfigMap create p50 c=1')?.limit, 2.05);
  assert.equal(rows.find((r) => r.name === 'ConfigMap consistent GET throughput c=1')?.etcd, 600);
});

test('target lines judge the store section and give the same numbers through the API as information', () => {
  const lines = targetLines([
    makeRow({ section: 'store', name: 'write throughput c=256', unit: 'ops/s', orch: 600, etcd: 1000 }),
    makeRow({ section: 'api', name: 'ConfigMap create throughput c=256', unit: 'ops/s', orch: 300, etcd: 1000 }),
    makeRow({ section: 'api', name: 'ConfigMap create p50 c=1', unit: 'ms', orch: 11, limit: 2 }),
  ]);
  assert.match(lines[0] ?? '', /: met \(0\.6x\)/);
  assert.match(lines[1] ?? '', /: not measured/);
  assert.equal(lines[3], 'info: through the full API: ConfigMap create c=256 = 0.3x etcd; c=1 p50 = 5.5x (fsync + RTT)');
});

test("orch's own timings of a write point become rows, and the c=1 commit an info line against fsync + RTT", () => {
  const machine = { fdatasyncPerSecond: 500, fdatasyncInStepP50Ms: 0.45, loopbackRoundTripP50Ms: 0.05, http2RequestsPerSecond: 10_000, warnings: [] };
  const server = { fsync: summarize([0.5]), commit: summarize([4.1]), apply: summarize([0.2]), dropped: 0 };
  const rows = [
    ...machineRows(machine),
    ...storeRows([{ concurrency: 1, write: load(100, 5), read: load(300, 1), server }, { concurrency: 16, write: load(900, 9), read: load(900, 1), server }], null, machine),
  ];
  const commit = rows.find((r) => r.name === "leader's commit p50 (writes sent to it) c=1");
  assert.deepEqual([commit?.orch, commit?.limit, commit?.etcd], [4.1, 2.05, null]);
  assert.deepEqual([rows.find((r) => r.name === 'log fdatasync p50 (every replica) c=1')?.limit, rows.find((r) => r.name === 'apply p50 (one Ready, every replica) c=1')?.orch], [0.45, 0.2]);
  assert.equal(rows.find((r) => r.name === "leader's commit p50 (writes sent to it) c=16")?.limit, null, 'fsync + RTT bounds a lone commit only');
  assert.ok(targetLines(rows).includes("info: single-writer commit p50 (leader's own proposals, propose to commit) = 2x (fsync + RTT)"));
  assert.ok(!targetLines(storeRows([{ concurrency: 1, write: load(100, 5), read: load(300, 1) }], null, machine)).some((l) => l.includes('commit')));
  assert.deepEqual(pointWarnings('orch store', [{ concurrency: 1, write: load(100, 5), read: load(300, 1), server }]), []);
  assert.deepEqual(pointWarnings('orch store', [{ concurrency: 1, write: load(100, 5), read: load(300, 1), server: { ...server, dropped: 7 } }]), [
    'orch store c=1: the replicas dropped 7 timing samples; their rows cover the start of the point',
  ]);
});

test('a Pod create row sits next to the ConfigMap creates of the same count, with their time ratio as an info line', () => {
  const all = (result: LoadResult): LoadResult => ({ ...result, ops: 100 });
  const point = { count: 100, create: all(load(50, 2)), update: all(load(50, 2)), get: all(load(50, 1)), podCreate: all(load(10, 8)), listMs: 5, listedItems: 100, peakMemoryMiB: 100, peakReset: true };
  const rows = apiRows([{ ...point, create: { ...point.create, elapsedMs: 2000 }, podCreate: { ...point.podCreate, elapsedMs: 5000 } }]);
  const names = rows.map((r) => r.name);
  assert.equal(names.indexOf('create 100 pods (3 containers each)'), names.indexOf('create 100 configmaps') + 1);
  assert.equal(rows.find((r) => r.name === 'create 100 pods (3 containers each)')?.etcd, null, 'no reference: etcd stores no Pods');
  assert.ok(targetLines(rows).includes('info: create 100 pods (3 containers each) took 2.5x the time of 100 ConfigMap creates (same concurrency)'));
  assert.deepEqual(pointWarnings('orch api', [{ ...point, podCreate: { ...point.podCreate, ops: 90, errors: 10, firstError: 'boom' } }]), [
    'orch api pod create n=100: 10 errors (first: boom)',
    'orch api n=100: only 90 pod creates finished in time',
  ]);
});
