import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleNotes, scaleRows, type ScalePoint, type ScaleResult } from '../../../bench/scale-bench.ts';
import { directoryBytes, MarkerCounter } from '../../../bench/scale-probes.ts';
import { summarizeLists, type ListSample } from '../../../bench/scale-steps.ts';

const mib = 1024 * 1024;

function sample(replica: string, ms: number, growthBytes: number | null): ListSample {
  return { replica, role: 'follower', ms, bytes: 10 * mib, items: 100_000, rssBeforeBytes: 100 * mib, peakBytes: growthBytes === null ? null : 100 * mib + growthBytes, growthBytes, peakReset: true };
}

function point(count: number, growthBytes: number, errors: string[] = [], watcherBytes = 300 * 1024): ScalePoint {
  const lists = [sample('orch-1', 30, growthBytes), sample('orch-2', 10, growthBytes / 2), sample('orch-3', 20, null)];
  const load = { ops: count, errors: 0, firstError: null, elapsedMs: 1000, opsPerSecond: count, latency: { count, p50Ms: 1, p99Ms: 2, maxMs: 3 } };
  return {
    count, snapshotEveryEntries: count + 12_000, create: load, lists, list: summarizeLists(lists),
    watchers: { replica: 'orch-2', watchers: 100, rssBeforeBytes: 100 * mib, peakBytes: 100 * mib + 100 * watcherBytes, growthBytesPerWatcher: watcherBytes, peakReset: true, initialEventsMs: 250, heldMs: 3000 },
    disk: [{ replica: 'orch-1', stateBytes: 2 * mib, raftBytes: mib }, { replica: 'orch-2', stateBytes: 3 * mib, raftBytes: mib }],
    snapshotSave: { replica: 'orch-1', ms: 40, bytes: 3 * mib },
    restart: { replica: 'orch-1', msToReady: 900 },
    catchUp: { replica: 'orch-1', writes: load, entriesBehind: 10_000, msToCaughtUp: 1500, installedSnapshot: false },
    install: { triggerWrites: 100, leaderSnapshotIndex: 5, leaderFirstIndex: 2, leaderAppliedIndex: 6, msToApplied: 2000, memberSnapshotIndex: 5 },
    errors,
  };
}

function result(points: ScalePoint[], skipped: number[] = []): ScaleResult {
  return { points, skipped, catchUpWrites: 10_000, concurrency: 32 };
}

test('a marker split across two chunks is counted once, and overlapping text is not counted twice', () => {
  const counter = new MarkerCounter('"name":"s-');
  for (const chunk of ['{"items":[{"metadata":{"name', '":"s-1"}},{"metadata":{"name":"s-2"}},{"metadata":{"na', 'me":"other"}}]}']) counter.push(chunk);
  assert.equal(counter.count, 2);
  const repeats = new MarkerCounter('aa');
  repeats.push('aaa');
  repeats.push('a');
  assert.equal(repeats.count, 2);
});

test('a directory\'s bytes are its files\' sizes, nested ones included; a missing one has none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-scale-bytes-'));
  try {
    mkdirSync(join(dir, 'raft', 'snapshots'), { recursive: true });
    writeFileSync(join(dir, 'raft', 'raft.db'), Buffer.alloc(1000));
    writeFileSync(join(dir, 'raft', 'snapshots', 'a.snap'), Buffer.alloc(234));
    assert.equal(directoryBytes(dir), 1234);
    assert.equal(directoryBytes(join(dir, 'missing')), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the LIST summary takes the p50 time and the largest growth of the serving replicas against the response', () => {
  const summary = summarizeLists([sample('orch-1', 30, 25 * mib), sample('orch-2', 10, 5 * mib), sample('orch-3', 20, null)]);
  assert.equal(summary.p50Ms, 20);
  assert.equal(summary.growthBytesMax, 25 * mib);
  assert.equal(summary.growthRatio, 2.5);
  assert.equal(summarizeLists([sample('orch-1', 30, null)]).growthRatio, null);
});

test('each count gives the same rows in the scale section, a failed step an empty cell', () => {
  const failed = { ...point(1_000, mib), restart: null };
  const rows = scaleRows(result([failed, point(10_000, 2 * mib)]));
  assert.equal(rows.length, 28);
  assert.ok(rows.every((r) => r.section === 'scale' && r.etcd === null));
  const byName = (name: string) => rows.find((r) => r.name === name);
  assert.equal(byName('1000 configmaps: follower restart to ready')?.orch, null);
  assert.equal(byName('10000 configmaps: follower restart to ready')?.orch, 900);
  assert.equal(byName('10000 configmaps: state database on disk (one replica)')?.orch, 3, 'the replica with the most bytes');
  assert.equal(byName('10000 configmaps: LIST peak RSS growth / response size')?.orch, 0.2);
  assert.equal(byName('10000 configmaps: follower catch-up after 10000 missed writes')?.orch, 1500);
  assert.equal(byName('10000 configmaps: peak RSS growth per stalled watcher (100 watches of all, unread, on a follower)')?.orch, 300);
  assert.equal(byName('10000 configmaps: one watch\'s initial events (request to the last object\'s ADDED)')?.orch, 250);
});

test('memory per stalled watcher: largest over smallest of every count at most 2x, a target only with 100,000 objects', () => {
  const held = (notes: string[]) => notes.find((n) => n.includes('per stalled watcher')) ?? '';
  assert.match(held(scaleNotes(result([point(1_000, mib, [], 200 * 1024), point(10_000, mib, [], 380 * 1024), point(100_000, mib, [], 390 * 1024)]))),
    /^target: memory per stalled watcher .*: met \(200 KiB at 1000, 380 KiB at 10000, 390 KiB at 100000; 1\.95x\)$/);
  // A bump at a middle count counts too.
  assert.match(held(scaleNotes(result([point(1_000, mib, [], 300 * 1024), point(10_000, mib, [], 900 * 1024), point(100_000, mib, [], 300 * 1024)]))), /^target: .*: missed \(.*; 3x\)$/);
  assert.match(held(scaleNotes(result([point(1_000, mib, [], 100 * 1024), point(10_000, mib, [], 150 * 1024)]))), /^info: memory per stalled watcher .*: 1\.5x \(100 KiB at 1000, 150 KiB at 10000; the target is judged with 100000: BENCH_SCALE=1\)$/);
  assert.equal(held(scaleNotes(result([point(1_000, mib)]))), '', 'one count judges nothing');
  // A count whose watchers were held short, or whose peak could not be reset, is left out (and said so).
  const short = point(100_000, mib, [], 5 * mib);
  const notes = scaleNotes(result([point(1_000, mib, [], 300 * 1024), point(10_000, mib, [], 310 * 1024), { ...short, watchers: { ...short.watchers!, heldMs: 1200 } }]));
  assert.match(held(notes), /^info: .*: 1\.03x/);
  assert.ok(notes.includes('scale 100000: the watchers were held 1200 ms, not 3000 (time budget)'), notes.join('\n'));
});

test('the LIST memory target is judged at 100,000 objects only; smaller curves give an info line', () => {
  assert.match(scaleNotes(result([point(1_000, mib), point(100_000, 25 * mib)]))[0] ?? '', /^target: LIST of 100000 objects.*: met \(growth 25 MiB for a 10 MiB response, 2\.5x\)$/);
  assert.match(scaleNotes(result([point(100_000, 31 * mib)]))[0] ?? '', /: missed \(growth 31 MiB/);
  assert.match(scaleNotes(result([point(1_000, mib), point(10_000, 2 * mib)]))[0] ?? '', /^info: LIST of 10000 objects: growth 2 MiB .*BENCH_SCALE=1\)$/);
});

test('failed steps, skipped counts and a member that caught up without a snapshot are reported', () => {
  const noSnapshot = point(1_000, mib, ['restart: not ready']);
  const notes = scaleNotes(result([{ ...noSnapshot, install: { ...noSnapshot.install!, memberSnapshotIndex: 0 } }], [10_000]));
  assert.ok(notes.includes('scale 1000: restart: not ready'), notes.join('\n'));
  assert.ok(notes.includes('scale 1000: the joining member caught up without installing a snapshot'), notes.join('\n'));
  assert.ok(notes.some((n) => n.startsWith('scale: 10000 objects skipped')), notes.join('\n'));
});
