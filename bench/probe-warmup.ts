// Diagnostic: how long a fresh store cluster takes to reach its steady write speed, against etcd's.
// Starts a 3-member etcd and a 3-replica orch store at once, gives both `warmupMs` of 1 KiB puts at
// c=16, then alternates turns of puts at `concurrency` (etcd first in even rounds), and prints each
// system's turns in order: writes/s, p50 and the cluster's CPU per write (user + system from
// /proc/<pid>/stat). etcd, compiled ahead of time, starts at its speed; orch's replicas speed up
// while V8 compiles their hot paths, which is what the benchmark's warm-up (`warmupMs` in
// bench/limits.ts) must cover.
// `node dist/bench/probe-warmup.js [warmupMs] [concurrency] [rounds] [turnMs]`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCleanups } from './cleanup.ts';
import { EtcdJsonClient } from './etcd-client.ts';
import { startEtcdCluster } from './etcd-cluster.ts';
import { runClosedLoop } from './load.ts';
import { clockTicksPerSecond, processCpuMs } from './proc-stats.ts';
import { startStoreCluster } from './store-cluster.ts';
import { turnOrder } from './in-turns.ts';

const warmupMs = Number(process.argv[2] ?? 100);
const concurrency = Number(process.argv[3] ?? 16);
const rounds = Number(process.argv[4] ?? 10);
const turnMs = Number(process.argv[5] ?? 3_000);
const value = 'x'.repeat(1024);
const ticksPerSecond = clockTicksPerSecond();

interface Side {
  readonly pids: readonly number[];
  readonly client: EtcdJsonClient;
  readonly turns: string[];
}

const dataDir = mkdtempSync(join(process.env['BENCH_DATA_DIR'] ?? tmpdir(), 'orch-probe-warmup-'));
const etcd = await startEtcdCluster({ dataDir: join(dataDir, 'etcd'), members: 3, readyTimeoutMs: 60_000 });
const orch = await startStoreCluster({ dataDir: join(dataDir, 'orch'), replicas: 3, readyTimeoutMs: 60_000 });
const side = (pids: readonly number[], urls: readonly string[]): Side => ({
  pids,
  client: new EtcdJsonClient(urls, { connectionsPerMember: Math.max(16, concurrency), timeoutMs: 15_000 }),
  turns: [],
});
const sides = { etcd: side(etcd.pids, etcd.clientUrls), orch: side(orch.pids, orch.clientUrls) };
const cpuMs = (s: Side): number => s.pids.reduce((sum, pid) => sum + processCpuMs(pid, ticksPerSecond), 0);
try {
  for (const s of Object.values(sides)) {
    await runClosedLoop({ concurrency: 16, durationMs: warmupMs, op: (seq) => s.client.put(seq, `/probe/warm-${seq}`, value) });
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of turnOrder(round)) {
      const s = sides[name];
      const before = cpuMs(s);
      const result = await runClosedLoop({ concurrency, durationMs: turnMs, op: (seq) => s.client.put(seq, `/probe/${round}-${seq}`, value) });
      const perWrite = (cpuMs(s) - before) / Math.max(1, result.ops);
      s.turns.push(`${Math.round(result.opsPerSecond)}/s p50 ${result.latency.p50Ms.toFixed(2)} ms, ${perWrite.toFixed(2)} ms CPU/write`);
    }
  }
  console.log(JSON.stringify({ warmupMs, concurrency, turnMs, etcd: sides.etcd.turns, orch: sides.orch.turns }, null, 1));
} finally {
  for (const s of Object.values(sides)) await s.client.close().catch(() => undefined);
  await orch.stop();
  await etcd.stop();
  runCleanups();
  rmSync(dataDir, { recursive: true, force: true });
}
