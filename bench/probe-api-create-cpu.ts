// Diagnostic: what a ConfigMap create costs the replicas on the full API path (authentication of a
// service-account token, RBAC through a RoleBinding, the default admission chain), at concurrency 64
// spread over the 3 replicas. Per round it prints one JSON line: creates/s, and each replica's CPU
// (user + system, /proc/<pid>/stat) per create, the leader marked, also less the replicas' idle CPU
// (sampled for 3 s before the round); the probe's own CPU too, since the load generator shares the
// machine. CPU per create is the number to compare across builds:
// throughput follows whatever else the machine runs.
// `node dist/bench/probe-api-create-cpu.js [creates per round] [rounds] [concurrency]`
// With ORCH_REPLICA_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>" the replicas stop with SIGTERM and
// a grace period, so that each writes its profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCleanups } from './cleanup.ts';
import { createObjects } from './create-phases.ts';
import type { LoadResult } from './load.ts';
import { configMap, type OrchClient } from './orch-client.ts';
import { findLeader, startOrch, type OrchTarget } from './orch-target.ts';
import { clockTicksPerSecond, processCpuMs } from './proc-stats.ts';
import { serviceAccountClients } from './rbac-bench.ts';

const creates = Number(process.argv[2] ?? 3000);
const rounds = Number(process.argv[3] ?? 3);
const concurrency = Number(process.argv[4] ?? 64);
const valueBytes = 1024;
const namespace = 'probe-cpu';
const serviceAccount = 'probe-writer';
const profiling = (process.env['ORCH_REPLICA_NODE_ARGS'] ?? '').includes('--cpu-prof');
/** How long the replicas' idle CPU is sampled before each round. */
const idleSampleMs = 3000;

const ticksPerSecond = clockTicksPerSecond();
const cpuMs = (pid: number): number => processCpuMs(pid, ticksPerSecond);

function replicaPids(target: OrchTarget): number[] {
  return target.cluster.replicas.map((r) => {
    const pid = r.process?.pid;
    if (pid === undefined) throw new Error(`replica ${r.spec.name} is not running`);
    return pid;
  });
}

function createRound(clients: readonly OrchClient[], prefix: string, count: number): Promise<LoadResult> {
  return createObjects(clients, `/api/v1/namespaces/${namespace}/configmaps`, (name) => configMap(name, valueBytes), prefix, count, { concurrency, phaseMsMax: 120_000 });
}

const round1 = (n: number) => Math.round(n * 1000) / 1000;

const dataDir = mkdtempSync(join(process.env['BENCH_DATA_DIR'] ?? tmpdir(), 'orch-probe-cpu-'));
const orch = await startOrch({ dataDir, replicas: 3, readyTimeoutMs: 120_000, connections: 16, timeoutMs: 30_000 });
const saClients: OrchClient[] = [];
try {
  saClients.push(...await serviceAccountClients(orch, { connections: 16, timeoutMs: 30_000 }, { namespace, serviceAccount }));
  await createRound(saClients, 'warmup', Math.min(creates, 1000));
  const pids = replicaPids(orch);
  for (let round = 0; round < rounds; round++) {
    const leader = await findLeader(orch);
    // What the replicas spend with no request (heartbeats, timers, controllers' resyncs), per ms:
    // at a few hundred creates/s on a loaded machine it is a visible share of the CPU per create.
    const idleBefore = pids.map(cpuMs);
    const idleStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, idleSampleMs));
    const idlePerMs = pids.map((pid, i) => (cpuMs(pid) - idleBefore[i]!) / (performance.now() - idleStart));
    const before = pids.map(cpuMs);
    const selfBefore = process.cpuUsage();
    const result = await createRound(saClients, `r${round}`, creates);
    const self = process.cpuUsage(selfBefore);
    const perCreate = pids.map((pid, i) => (cpuMs(pid) - before[i]!) / Math.max(1, result.ops));
    const idlePerCreate = idlePerMs.map((rate) => (rate * result.elapsedMs) / Math.max(1, result.ops));
    console.log(JSON.stringify({
      round,
      creates: result.ops,
      errors: result.errors,
      ...(result.firstError === null ? {} : { firstError: result.firstError }),
      createsPerSecond: Math.round(result.opsPerSecond),
      p50Ms: round1(result.latency.p50Ms),
      p99Ms: round1(result.latency.p99Ms),
      leader,
      cpuMsPerCreate: { total: round1(perCreate.reduce((a, b) => a + b, 0)), replicas: perCreate.map(round1) },
      // The same less what the replicas spent as fast while idle just before the round.
      cpuMsPerCreateLessIdle: round1(perCreate.reduce((a, b) => a + b, 0) - idlePerCreate.reduce((a, b) => a + b, 0)),
      probeCpuMsPerCreate: round1((self.user + self.system) / 1000 / Math.max(1, result.ops)),
    }));
  }
} finally {
  await Promise.all(saClients.map((c) => c.close().catch(() => undefined)));
  if (profiling) await orch.cluster.stop(20_000);
  await orch.stop();
  runCleanups();
  rmSync(dataDir, { recursive: true, force: true });
}
