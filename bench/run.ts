// `make bench`: measures the machine, a 3-member etcd, orch's 3-replica store and a 3-replica orch
// in one run, prints one table and writes it as JSON under bench/results/. Bounded in time; kills
// everything it started.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../internal/cluster/build-layout.ts';
import { runApiBench, type ApiPoint } from './api-bench.ts';
import { runCleanups } from './cleanup.ts';
import { EtcdJsonClient, type GatewayCluster } from './etcd-client.ts';
import { startEtcdCluster } from './etcd-cluster.ts';
import { runInTurns, type InTurnsResult } from './in-turns.ts';
import { runFailover } from './failover.ts';
import { benchLimits, phaseBudgetMs, phaseSelected, type PhaseBudget, type PhaseName } from './limits.ts';
import { measureMachineLimits, type MachineLimits } from './machine-limits.ts';
import { extraOrchArgs, startOrch, type OrchTarget } from './orch-target.ts';
import { protobufBenchOptions, protobufNotes, protobufRows, runProtobufBench } from './protobuf-bench.ts';
import { rbacNotes, rbacRows, runRbacBench } from './rbac-bench.ts';
import { runWebhookBench, webhookNotes, webhookRows } from './webhook-bench.ts';
import { auditNotes, auditReplicaArgs, auditRows, runAuditBench } from './audit-bench.ts';
import { crdNotes, crdRows, runCrdBench } from './crd-bench.ts';
import { floodNotes, floodRows, runFloodBench } from './flood-bench.ts';
import { flowControlNotes, flowControlRows, runFlowControlBench } from './flow-control-bench.ts';
import { runScaleBench, scaleNotes, scaleRows } from './scale-bench.ts';
import { runServiceAccountPoint, serviceAccountRows } from './api-service-account-bench.ts';
import { acceptance, apiRows, apiStoreLabels, failoverRows, inTurnsRows, machineRows, pointWarnings, storeRows, targetLines, watchRows } from './report.ts';
import { renderTable, type BenchRow } from './stats.ts';
import { takeServerTimings, type ServerTimings } from './server-timings.ts';
import { etcdStoreDriver, orchStoreDriver, runStoreBench, type StorePoint } from './store-bench.ts';
import { startStoreCluster } from './store-cluster.ts';
import { runWatchBench } from './watch-bench.ts';

const limits = benchLimits();
const resultsDir = join(repoRoot, 'bench', 'results');
const baseDir = mkdtempSync(join(process.env['BENCH_DATA_DIR'] ?? tmpdir(), 'orch-bench-'));
const auditDir = join(baseDir, 'audit');
const startedAt = new Date();
const failures: { phase: string; error: string }[] = [];
const warnings: string[] = [];
const raw: Record<string, unknown> = {};
let machine: MachineLimits | null = null;
let etcdPoints: StorePoint[] | null = null;
/** orch's replicated store in 3 processes, through the same client as etcd. */
let storePoints: StorePoint[] | null = null;
/** One client's writes and reads with etcd and orch's store in turns. */
let inTurns: InTurnsResult | null = null;
/** The same points through orch's full API (ConfigMap creates and consistent GETs). */
let apiStorePoints: StorePoint[] | null = null;
let apiPoints: ApiPoint[] = [];
/** Service-account creates at acceptance.apiConcurrency (64) through the full API, shown under the API's store points. */
let serviceAccountPointRows: BenchRow[] = [];
const tailRows: BenchRow[] = [];
/** How long each phase that ran took, against its budget. */
const phaseTimes: { phase: PhaseName; seconds: number; budgetSeconds: number; abandoned: boolean }[] = [];
let finished = false;

function log(message: string): void {
  process.stderr.write(`[bench ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)}s] ${message}\n`);
}

/** How long past its budget a phase may run before the run leaves it behind: a fifth of the budget, at least 15 s. */
const phaseGraceMs = (budgetMs: number): number => Math.max(15_000, budgetMs / 5);

/**
 * Runs one phase within its budget (bench/limits.ts); a failure is recorded and the run goes on with
 * the next phase. A body still running at budget + grace is left behind (a failure row says so; rows
 * it adds later still show, under that failure), so that one stuck phase does not cost every later one.
 */
async function phase(name: PhaseName, body: (budget: PhaseBudget) => Promise<void>, options: { always?: boolean } = {}): Promise<void> {
  if (finished) return;
  if (options.always !== true && !phaseSelected(limits, name)) {
    log(`${name}: skipped (BENCH_PHASES=${process.env['BENCH_PHASES'] ?? ''})`);
    return;
  }
  const ms = phaseBudgetMs(limits, name);
  log(`${name} (budget ${ms / 1000} s)...`);
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<'overrun'>((resolve) => {
    timer = setTimeout(() => resolve('overrun'), ms + phaseGraceMs(ms));
  });
  let abandoned = false;
  try {
    abandoned = await Promise.race([body({ ms, deadline: start + ms }).then(() => 'done' as const), overrun]) === 'overrun';
    if (abandoned) {
      failures.push({ phase: name, error: `still running ${Math.round((ms + phaseGraceMs(ms)) / 1000)} s after it started (budget ${ms / 1000} s): left behind` });
      log(`${name} LEFT BEHIND after its budget`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    failures.push({ phase: name, error: message });
    log(`${name} FAILED: ${message}`);
  } finally {
    clearTimeout(timer);
    const seconds = (performance.now() - start) / 1000;
    phaseTimes.push({ phase: name, seconds, budgetSeconds: ms / 1000, abandoned });
    log(`${name}: ${seconds.toFixed(1)} s`);
  }
}

/** One line of every phase's time against its budget. */
function phaseTimesLine(): string {
  return `info: phase seconds (of budget): ${phaseTimes.map((p) => `${p.phase} ${p.seconds.toFixed(0)}/${p.budgetSeconds.toFixed(0)}${p.abandoned ? ' (left behind)' : ''}`).join('; ')}`;
}

function allRows(): BenchRow[] {
  return [
    ...(machine === null ? [] : machineRows(machine)),
    ...storeRows(storePoints, etcdPoints, machine),
    ...(inTurns === null ? [] : inTurnsRows(inTurns, machine)),
    ...(apiStorePoints === null ? [] : storeRows(apiStorePoints, etcdPoints, machine, apiStoreLabels)),
    ...serviceAccountPointRows,
    ...apiRows(apiPoints),
    ...tailRows,
  ];
}

function etcdVersion(): string {
  try {
    return execFileSync('etcd', ['--version'], { encoding: 'utf8' }).split('\n')[0] ?? '?';
  } catch {
    return 'missing';
  }
}

/** Prints the table, writes the JSON, kills what is left, removes the data, and exits. */
function finish(reason: string): never {
  finished = true;
  runCleanups();
  const rows = allRows();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  const header = [
    `orch benchmark (${limits.quick ? 'BENCH_QUICK smoke' : 'full'}) ${startedAt.toISOString()}; ${reason}`,
    `machine: ${cpus().length} cpus, load average ${load}; ${etcdVersion()}; node ${process.version}`,
    ...(extraOrchArgs.length > 0 ? [`orch replicas' extra flags (BENCH_ORCH_ARGS): ${extraOrchArgs.join(' ')}`] : []),
    'store: orch = its replicated store (Raft over gRPC+mTLS, SQLite, fsync), 3 processes, each behind a thin HTTP/1.1 shim of',
    '  etcd\'s v3 JSON gateway (put, range); etcd = 3 members (peer mTLS, as kubeadm runs them) through that gateway. Same client,',
    '  same HTTP+JSON cost on both sides.',
    'api: orch = 3 replicas through the full HTTPS Kubernetes API. There is no API-level reference: the ConfigMap rows carry etcd\'s',
    '  store numbers, so their ratio is orch\'s full API against etcd\'s bare KV. The Pod create rows have no reference either:',
    '  an info line gives their time against the ConfigMap creates of the same count and concurrency.',
    'protobuf: the same replicas answering in Protobuf and in JSON, the formats alternated: a LIST of the api rows\' Pods and Pod',
    '  creates; bytes = the body on the wire (no gzip asked), CPU = the 3 replicas\' user+system time from /proc/<pid>/stat.',
    'watch: limit = a bare node:https server (own process) writing orch\'s event bytes to as many open responses, same run.',
    'failover: leader SIGKILL to the first acknowledged write, each killed replica restarted and caught up before the next kill.',
    'ratio = orch / etcd. limit = the machine: fsync+RTT for one commit, a bare HTTP/2 server for requests.',
  ].join('\n');
  const notes = [...targetLines(rows), ...warnings, ...failures.map((f) => `phase "${f.phase}" failed: ${f.error}`), phaseTimesLine()];
  process.stdout.write(`\n${header}\n\n${renderTable(rows)}\n${notes.length > 0 ? `\n${notes.join('\n')}\n` : ''}`);
  try {
    mkdirSync(resultsDir, { recursive: true });
    const file = join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ startedAt, reason, targets: targetLines(rows), quick: limits.quick, loadAverage: loadavg(), cpus: cpus().length, etcd: etcdVersion(), node: process.version, limits, rows, warnings, failures, phaseTimes, raw }, null, 2));
    process.stdout.write(`\nresults: ${file}\n`);
  } catch (error) {
    process.stderr.write(`could not write results: ${String(error)}\n`);
  }
  try {
    rmSync(baseDir, { recursive: true, force: true });
  } catch (error) {
    process.stderr.write(`could not remove ${baseDir}: ${String(error)}\n`);
  }
  process.exit(failures.length > 0 ? 1 : 0);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    failures.push({ phase: 'signal', error: `interrupted by ${signal}` });
    finish(`interrupted by ${signal}`);
  });
}

const watchdog = setTimeout(() => {
  failures.push({ phase: 'watchdog', error: `run stopped after ${limits.runMsMax / 1000} s` });
  finish('stopped by the time limit');
}, limits.runMsMax);

await phase('machine limits', async () => {
  machine = await measureMachineLimits({ dataDir: baseDir, ...limits });
  raw['machine'] = machine;
  warnings.push(...machine.warnings);
}, { always: true });

/** The store points against a cluster that speaks etcd's JSON gateway, stopped however the points end. */
async function gatewayStorePoints(label: string, cluster: GatewayCluster, options: { takeServerTimings?: () => Promise<ServerTimings> } = {}): Promise<StorePoint[]> {
  const client = new EtcdJsonClient(cluster.clientUrls, { connectionsPerMember: Math.max(...limits.concurrencies), timeoutMs: limits.requestTimeoutMs });
  try {
    const points = await runStoreBench(etcdStoreDriver(client, limits.valueBytes), { ...limits, ...options });
    warnings.push(...pointWarnings(label, points));
    return points;
  } finally {
    await client.close().catch(() => undefined);
    await cluster.stop();
  }
}

await phase('etcd store level', async () => {
  etcdPoints = await gatewayStorePoints('etcd', await startEtcdCluster({ dataDir: join(baseDir, 'etcd'), members: 3, readyTimeoutMs: 60_000 }));
  raw['etcdStore'] = etcdPoints;
});

// The main comparison, so it runs in BENCH_QUICK mode too.
await phase('orch store (3 processes)', async () => {
  const cluster = await startStoreCluster({ dataDir: join(baseDir, 'orch-store'), replicas: 3, readyTimeoutMs: limits.clusterReadyMs });
  storePoints = await gatewayStorePoints('orch store', cluster, { takeServerTimings: () => takeServerTimings(cluster.clientUrls) });
  raw['orchStore'] = storePoints;
});

// After both store levels, so that their points are measured as before; both clusters run at once here.
await phase('store single client, etcd and orch in turns', async (budget) => {
  const etcd = await startEtcdCluster({ dataDir: join(baseDir, 'etcd-turns'), members: 3, readyTimeoutMs: Math.min(60_000, budget.ms) });
  try {
    const store = await startStoreCluster({ dataDir: join(baseDir, 'orch-store-turns'), replicas: 3, readyTimeoutMs: Math.max(1, Math.min(limits.clusterReadyMs, budget.deadline - performance.now())) });
    const client = (cluster: GatewayCluster): EtcdJsonClient => new EtcdJsonClient(cluster.clientUrls, { connectionsPerMember: 16, timeoutMs: limits.requestTimeoutMs });
    const clients = { etcd: client(etcd), orch: client(store) };
    try {
      const drivers = { etcd: etcdStoreDriver(clients.etcd, limits.valueBytes), orch: etcdStoreDriver(clients.orch, limits.valueBytes) };
      const result = await runInTurns(drivers, {
        rounds: limits.singleClientTurns, turnMs: limits.singleClientTurnMs, warmupMs: limits.warmupMs, readKeys: limits.readKeys, deadline: budget.deadline,
        pids: { etcd: etcd.pids, orch: store.pids },
      });
      raw['singleClientInTurns'] = result;
      for (const [kind, turns] of [['writes', result.writes], ['reads', result.reads]] as const) {
        if (turns === null) {
          warnings.push('single client in turns: no round of reads fitted in the phase\'s budget after the writes');
          continue;
        }
        for (const side of ['etcd', 'orch'] as const) {
          if (turns[side].errors > 0) warnings.push(`single client in turns, ${side} ${kind}: ${turns[side].errors} errors (first: ${turns[side].firstError ?? '?'})`);
        }
      }
      inTurns = result;
    } finally {
      for (const c of Object.values(clients)) await c.close().catch(() => undefined);
      await store.stop();
    }
  } finally {
    await etcd.stop();
  }
});

/** The phases that run against the 3 replicas below (the replicas start only when one of them is selected). */
const orchPhases: readonly PhaseName[] = ['orch store points through the API', 'orch API creates c=64 as a service account', 'orch API level', 'orch Protobuf against JSON', 'orch RBAC-authorized creates against the admin\'s',
  'orch creates queued by flow control against exempt ones',
  'orch creates with one validating webhook against none', 'orch creates audited at Metadata against unaudited ones',
  'orch creates of a custom kind with three CEL rules against ConfigMaps', 'orch creates while another client floods LISTs', 'orch watch fan-out', 'orch failover'];
let orch: OrchTarget | null = null;
if (orchPhases.some((name) => phaseSelected(limits, name))) await phase('orch start', async (budget) => {
  // Audited only in the audit benchmark's namespace (bench/audit-bench.ts): every other request is checked against the policy and left out.
  mkdirSync(auditDir, { recursive: true });
  orch = await startOrch({ dataDir: join(baseDir, 'orch'), replicas: 3, readyTimeoutMs: Math.min(limits.clusterReadyMs, budget.ms), connections: Math.max(...limits.concurrencies), timeoutMs: limits.requestTimeoutMs, replicaArgs: auditReplicaArgs(auditDir) });
}, { always: true });
const target = orch as OrchTarget | null;
if (target !== null) {
  await phase('orch store points through the API', async () => {
    apiStorePoints = await runStoreBench(orchStoreDriver(target, limits.valueBytes), limits);
    raw['orchApiStore'] = apiStorePoints;
    warnings.push(...pointWarnings('orch ConfigMap', apiStorePoints));
  });
  await phase('orch API creates c=64 as a service account', async () => {
    const point = await runServiceAccountPoint(target, { concurrency: acceptance.apiConcurrency, valueBytes: limits.valueBytes, pointMs: limits.pointMs, warmupMs: limits.warmupMs, requestTimeoutMs: limits.requestTimeoutMs });
    raw['apiServiceAccount'] = point;
    serviceAccountPointRows = serviceAccountRows(point);
    if (point.create.errors > 0) warnings.push(`service account creates c=${point.concurrency}: ${point.create.errors} errors (first: ${point.create.firstError ?? '?'})`);
  });
  await phase('orch API level', async (budget) => {
    // Ten create/update/get loops over both counts; the 10,000 Pod creates take the longest, about a quarter.
    apiPoints = await runApiBench(target, { counts: limits.apiCounts, concurrency: limits.apiConcurrency, valueBytes: limits.valueBytes, phaseMsMax: budget.ms / 4, deadline: budget.deadline });
    raw['api'] = apiPoints;
    warnings.push(...pointWarnings('orch api', apiPoints));
    if (apiPoints.some((p) => !p.peakReset)) warnings.push('peak RSS could not be reset between counts: it covers the whole run so far');
  });
  await phase('orch Protobuf against JSON', async (budget) => {
    const result = await runProtobufBench(target, { ...protobufBenchOptions({ ...limits, budget }), log });
    raw['protobuf'] = result;
    tailRows.push(...protobufRows(result, limits.apiConcurrency));
    warnings.push(...protobufNotes(result));
  });
  // The A-B-B-A create phases run six loops each (two warm-ups, four halves): a sixth of the budget each.
  await phase('orch RBAC-authorized creates against the admin\'s', async (budget) => {
    const result = await runRbacBench(target, {
      creates: limits.quick ? 200 : 2_000, concurrency: limits.apiConcurrency, phaseMsMax: budget.ms / 6,
      connections: Math.max(...limits.concurrencies), requestTimeoutMs: limits.requestTimeoutMs,
    });
    raw['rbac'] = result;
    tailRows.push(...rbacRows(result, limits.apiConcurrency));
    warnings.push(...rbacNotes(result));
  });
  await phase('orch creates queued by flow control against exempt ones', async (budget) => {
    // Twice the other A-B-B-A phases' creates: its two sides differ by tens of microseconds a
    // request, and halves of about a second swung by half with any pause of the machine.
    const result = await runFlowControlBench(target, {
      creates: limits.quick ? 200 : 4_000, concurrency: limits.apiConcurrency, phaseMsMax: budget.ms / 6,
      connections: Math.max(...limits.concurrencies), requestTimeoutMs: limits.requestTimeoutMs,
    });
    raw['flowControl'] = result;
    tailRows.push(...flowControlRows(result, limits.apiConcurrency));
    warnings.push(...flowControlNotes(result));
  });
  await phase('orch creates with one validating webhook against none', async (budget) => {
    const result = await runWebhookBench(target, { creates: limits.quick ? 200 : 2_000, concurrency: limits.apiConcurrency, phaseMsMax: budget.ms / 6 });
    raw['webhook'] = result;
    tailRows.push(...webhookRows(result, limits.apiConcurrency));
    warnings.push(...webhookNotes(result));
  });
  await phase('orch creates audited at Metadata against unaudited ones', async (budget) => {
    const result = await runAuditBench(target, auditDir, { creates: limits.quick ? 200 : 2_000, concurrency: limits.apiConcurrency, phaseMsMax: budget.ms / 6 });
    raw['audit'] = result;
    tailRows.push(...auditRows(result, limits.apiConcurrency));
    warnings.push(...auditNotes(result));
  });
  await phase('orch creates of a custom kind with three CEL rules against ConfigMaps', async (budget) => {
    const result = await runCrdBench(target, { creates: limits.quick ? 200 : 2_000, concurrency: limits.apiConcurrency, phaseMsMax: budget.ms / 6 });
    raw['crd'] = result;
    tailRows.push(...crdRows(result, limits.apiConcurrency));
    warnings.push(...crdNotes(result));
  });
  await phase('orch creates while another client floods LISTs', async (budget) => {
    const floodConcurrency = 200;
    const result = await runFloodBench(target, {
      creates: limits.quick ? 200 : 2_000, concurrency: limits.apiConcurrency, floodConcurrency, listedObjects: limits.quick ? 500 : 2_000,
      phaseMsMax: budget.ms / 5, requestTimeoutMs: limits.requestTimeoutMs,
    });
    raw['flood'] = result;
    tailRows.push(...floodRows(result, limits.apiConcurrency, floodConcurrency));
    warnings.push(...floodNotes(result));
  });
  await phase('orch watch fan-out', async () => {
    const result = await runWatchBench(target, { watchers: limits.watchers, writes: limits.watchWrites, connectMsMax: 30_000, settleMs: 10_000, dataDir: baseDir });
    raw['watch'] = result;
    tailRows.push(...watchRows(result));
    for (const [label, m] of [['watch', result], ['watch floor', result.floor]] as const) {
      if (m === null) continue;
      if (m.connected < m.watchers) warnings.push(`${label}: only ${m.connected} of ${m.watchers} watchers connected`);
      warnings.push(`${label}: ${m.beforeAnswer} of ${m.delay.count} events reached a watcher before the writer had its answer (delay 0)`);
      if (m.missed > 0) warnings.push(`${label}: ${m.missed} (watcher, write) events never arrived`);
    }
    if (result.floorError !== null) warnings.push(`watch floor: not measured: ${result.floorError}`);
  });
  await phase('orch failover', async (budget) => {
    const result = await runFailover(target, { kills: limits.failoverKills, deadline: budget.deadline, writeMsMax: limits.failoverMsMax, catchUpMsMax: 60_000 });
    raw['failover'] = result;
    tailRows.push(...failoverRows(result));
    if (result.stoppedEarly !== null) warnings.push(`failover: ${result.kills.length} of ${result.planned} kills: ${result.stoppedEarly}`);
  });
  await target.stop().catch((error: unknown) => failures.push({ phase: 'orch stop', error: String(error) }));
}

// Its own clusters, one per object count, each stopped in a finally; last, so that the largest
// count's disk and memory weigh on no other phase. Its waits end within its budget.
await phase('orch scale curve', async (budget) => {
  const result = await runScaleBench({
    counts: limits.scaleCounts, catchUpWrites: limits.scaleCatchUpWrites, concurrency: limits.apiConcurrency, valueBytes: limits.valueBytes,
    dataDir: join(baseDir, 'scale'), clusterReadyMs: limits.clusterReadyMs, requestTimeoutMs: limits.requestTimeoutMs, log,
    // Room for the last cluster's stop (and the removal of its data) within the budget.
    deadline: budget.deadline - 20_000,
  });
  raw['scale'] = result;
  tailRows.push(...scaleRows(result));
  warnings.push(...scaleNotes(result));
});

clearTimeout(watchdog);
finish('complete');
