// Diagnostic: the store benchmark's writes (bench/store-bench.ts, 1 KiB puts through the etcd JSON
// gateway shim of bench/store-shim.ts) on the 3-process store cluster, split by where a write lands
// (the leader, a follower, round-robin over all three as the benchmark does), with the replicas'
// CPU time per write (user + system from /proc/<pid>/stat, leader and followers apart): on a shared
// machine CPU per write is steadier than latency. Prints one JSON line per point. Every point writes
// new keys: a put over an existing key is two Raft entries in the shim (a refused create, then an update).
// `node dist/bench/probe-store-writes.js [pointMs] [points]` (points: comma list of
// leader-c1, follower-c1, all-c1, all-c16, all-c256; default all of them)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { runCleanups } from './cleanup.ts';
import { EtcdJsonClient } from './etcd-client.ts';
import { runClosedLoop } from './load.ts';
import { clockTicksPerSecond, processCpuMs } from './proc-stats.ts';
import { startStoreCluster } from './store-cluster.ts';
import type { TimingSamples } from './server-timings.ts';
import { summarize } from './stats.ts';

const valueBytes = 1024;
const warmupMs = 3_000;

const pointMs = Number(process.argv[2] ?? 5_000);
const wanted = (process.argv[3] ?? 'leader-c1,follower-c1,all-c1,all-c16,all-c256').split(',');
const ticksPerSecond = clockTicksPerSecond();
const cpuMs = (pid: number): number => processCpuMs(pid, ticksPerSecond);

async function takeTimings(url: string): Promise<TimingSamples> {
  const res = await request(`${url}/timings`);
  return (await res.body.json()) as TimingSamples;
}

const dataDir = mkdtempSync(join(process.env['BENCH_DATA_DIR'] ?? tmpdir(), 'orch-probe-store-'));
const cluster = await startStoreCluster({ dataDir, replicas: 3, readyTimeoutMs: 60_000 });
const client = new EtcdJsonClient(cluster.clientUrls, { connectionsPerMember: 256, timeoutMs: 15_000 });
try {
  const value = 'x'.repeat(valueBytes);
  await runClosedLoop({ concurrency: 16, durationMs: warmupMs, op: (seq) => client.put(seq, `/bench/warm-${seq}`, value) });
  // The leader is the replica that timed commits of its own proposals (followers relay theirs).
  await Promise.all(cluster.clientUrls.map((url) => takeTimings(url)));
  for (let i = 0; i < 30; i++) await client.put(i, `/bench/find-${i}`, value);
  const commits = await Promise.all(cluster.clientUrls.map(async (url) => (await takeTimings(url)).commitMs.length));
  const leader = commits.indexOf(Math.max(...commits));
  const follower = (leader + 1) % 3;
  const member = (where: string, seq: number): number => (where === 'leader' ? leader : where === 'follower' ? follower : seq);
  for (const [pointIndex, point] of wanted.entries()) {
    const [where = 'all', c = 'c1'] = point.split('-');
    const concurrency = Number(c.slice(1));
    const taken = await Promise.all(cluster.clientUrls.map((url) => takeTimings(url)));
    const before = cluster.pids.map(cpuMs);
    const result = await runClosedLoop({ concurrency, durationMs: pointMs, op: (seq) => client.put(member(where, seq), `/bench/${pointIndex}-${point}-${seq}`, value) });
    const after = cluster.pids.map(cpuMs);
    const timings = await Promise.all(cluster.clientUrls.map((url) => takeTimings(url)));
    const spent = after.map((a, i) => a - (before[i] ?? 0));
    const leaderCpu = spent[leader] ?? 0;
    const total = spent.reduce((s, x) => s + x, 0);
    const perWrite = (amount: number): number => Math.round((amount / Math.max(1, result.ops)) * 1000) / 1000;
    console.log(JSON.stringify({
      point, ops: result.ops, errors: result.errors, opsPerSecond: Math.round(result.opsPerSecond),
      p50: round(result.latency.p50Ms), p99: round(result.latency.p99Ms),
      cpuMsPerWrite: perWrite(total), leaderCpuMsPerWrite: perWrite(leaderCpu), followersCpuMsPerWrite: perWrite(total - leaderCpu),
      commitP50: round(summarize(timings.flatMap((t) => t.commitMs)).p50Ms), fsyncP50: round(summarize(timings.flatMap((t) => t.fsyncMs)).p50Ms),
      fsyncs: timings.map((t) => t.fsyncMs.length),
      // Raft entries each replica persisted per write, and the leader's term: more than one entry per write, or a new term, is not a write's own cost.
      entriesPerWrite: timings.map((t, i) => perWrite((t.raft?.persistedEntries ?? 0) - (taken[i]?.raft?.persistedEntries ?? 0))),
      term: timings[leader]?.raft?.term, firstError: result.firstError,
    }));
  }
} finally {
  await client.close().catch(() => undefined);
  await cluster.stop();
  runCleanups();
  rmSync(dataDir, { recursive: true, force: true });
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
