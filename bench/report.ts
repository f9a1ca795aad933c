// Turns the measurements into table rows: orch, etcd where it is the reference, and the machine's
// limit where one applies. Missing measurements (a failed phase) give missing cells, never zeros.
import type { ApiPoint } from './api-bench.ts';
import type { FailoverResult } from './failover.ts';
import type { InTurnsResult, TurnsResult, TurnsSide } from './in-turns.ts';
import { replicasOnOneDisk, type MachineLimits } from './machine-limits.ts';
import type { ServerTimings } from './server-timings.ts';
import type { StorePoint } from './store-bench.ts';
import type { WatchResult } from './watch-bench.ts';
import { serviceAccountCreateRow } from './api-service-account-bench.ts';
import { formatNumber, makeRow, percentile, ratio, type BenchRow } from './stats.ts';

/** Names of the machine rows the target lines read back. */
const fsyncInStepRow = `fdatasync p50, ${replicasOnOneDisk} appenders in step (one disk)`;
/** The row of what orch's leader measured from its own proposals to their commit. */
const commitP50Row = (c: number): string => `leader's commit p50 (writes sent to it) c=${c}`;
const roundTripRow = 'loopback TCP round trip p50 (two processes)';

/** The starts of the one client's rows with etcd and orch in turns (bench/in-turns.ts) that the targets read back. */
const inTurnsWriteP50Prefix = 'write p50 c=1, etcd and orch in turns';
const inTurnsReadsPrefix = 'linearizable reads per second c=1, etcd and orch in turns';

/** One commit's bound on this machine: an fdatasync of an append plus a loopback round trip. */
function commitLimitMs(machine: MachineLimits | null): number | null {
  return machine === null ? null : 1000 / machine.fdatasyncPerSecond + machine.loopbackRoundTripP50Ms;
}

/** The machine's own rows: the value goes in the limit column. */
export function machineRows(machine: MachineLimits): BenchRow[] {
  return [
    makeRow({ section: 'machine', name: 'fdatasync of 4 KiB appends', unit: 'ops/s', orch: null, limit: machine.fdatasyncPerSecond }),
    makeRow({ section: 'machine', name: fsyncInStepRow, unit: 'ms', orch: null, limit: machine.fdatasyncInStepP50Ms }),
    makeRow({ section: 'machine', name: roundTripRow, unit: 'ms', orch: null, limit: machine.loopbackRoundTripP50Ms }),
    makeRow({ section: 'machine', name: 'bare node:http2 server (h2c)', unit: 'req/s', orch: null, limit: machine.http2RequestsPerSecond }),
  ];
}

/** What the store rows of one section are called: their section and the names of a write and a read. */
export interface StoreRowLabels {
  readonly section: string;
  readonly write: string;
  readonly read: string;
}

/** orch's replicated store (3 processes) against etcd's KV, both through etcd's JSON gateway calls. */
const storeLabels: StoreRowLabels = { section: 'store', write: 'write', read: 'linearizable read' };

/** orch's full Kubernetes API doing the store points; etcd's bare KV stays the reference (there is no API-level one). */
export const apiStoreLabels: StoreRowLabels = { section: 'api', write: 'ConfigMap create', read: 'ConfigMap consistent GET' };

/** Store rows per concurrency: write throughput, p50, p99; read throughput and p50 (named `<label> <metric> c=<n>`). */
export function storeRows(orch: readonly StorePoint[] | null, etcd: readonly StorePoint[] | null, machine: MachineLimits | null, labels: StoreRowLabels = storeLabels): BenchRow[] {
  const concurrencies = [...new Set([...(orch ?? []), ...(etcd ?? [])].map((p) => p.concurrency))];
  const commitMs = commitLimitMs(machine);
  // Both sections answer over a node HTTP server; the store's shim speaks HTTP/1.1, so for it the
  // bare HTTP/2 server is an order of magnitude rather than a strict bound.
  const http2 = machine?.http2RequestsPerSecond ?? null;
  const rows: BenchRow[] = [];
  for (const c of concurrencies) {
    const o = orch?.find((p) => p.concurrency === c) ?? null;
    const e = etcd?.find((p) => p.concurrency === c) ?? null;
    const row = (name: string, unit: string, pick: (p: StorePoint) => number, limit: number | null = null): BenchRow =>
      makeRow({ section: labels.section, name: `${name} c=${c}`, unit, orch: o === null ? null : pick(o), etcd: e === null ? null : pick(e), limit });
    const writeLimit = c === 1 && commitMs !== null ? Math.min(1000 / commitMs, http2 ?? Infinity) : http2;
    rows.push(
      row(`${labels.write} throughput`, 'ops/s', (p) => p.write.opsPerSecond, writeLimit),
      row(`${labels.write} p50`, 'ms', (p) => p.write.latency.p50Ms, c === 1 ? commitMs : null),
      row(`${labels.write} p99`, 'ms', (p) => p.write.latency.p99Ms),
      row(`${labels.read} throughput`, 'ops/s', (p) => p.read.opsPerSecond, http2),
      row(`${labels.read} p50`, 'ms', (p) => p.read.latency.p50Ms),
    );
    if (o?.server !== undefined) rows.push(...serverRows(labels.section, c, o.server, c === 1 ? commitMs : null, machine?.fdatasyncInStepP50Ms ?? null));
  }
  return rows;
}

/**
 * What orch's replicas measured of one write point's writes: where a write's time goes. The
 * commit covers the writes sent to the leader (a third of them), from propose() to their commit;
 * at c=1 its limit is fsync + RTT, what a commit cannot beat. A write sent to a follower adds the
 * relay to the leader and the wait for the commit to come back; every write adds the client's
 * hop, the HTTP and JSON work, and the apply.
 */
function serverRows(section: string, c: number, server: ServerTimings, commitMs: number | null, fsyncInStepMs: number | null): BenchRow[] {
  return [
    makeRow({ section, name: commitP50Row(c), unit: 'ms', orch: server.commit.p50Ms, limit: commitMs }),
    makeRow({ section, name: `log fdatasync p50 (every replica) c=${c}`, unit: 'ms', orch: server.fsync.p50Ms, limit: fsyncInStepMs }),
    makeRow({ section, name: `apply p50 (one Ready, every replica) c=${c}`, unit: 'ms', orch: server.apply.p50Ms }),
  ];
}

/**
 * One client with etcd and orch's store in turns: the writes' p50 (against fsync + RTT, as the c=1
 * point's) and p99, the linearizable reads' rate and p50, each over every turn of its kind, and
 * what each cluster spent idle during the other's write turns. The c=1 targets are judged on these
 * when they ran.
 */
export function inTurnsRows(result: InTurnsResult, machine: MachineLimits | null): BenchRow[] {
  const commitMs = commitLimitMs(machine);
  const section = storeLabels.section;
  const turns = (t: TurnsResult): string => `${t.rounds} turns of ${formatNumber(t.turnMs / 1000)} s each`;
  const sides = (t: TurnsResult, pick: (s: TurnsSide) => number | null) => ({ orch: t.orch.ops === 0 ? null : pick(t.orch), etcd: t.etcd.ops === 0 ? null : pick(t.etcd) });
  const { writes, reads } = result;
  return [
    makeRow({ section, name: `${inTurnsWriteP50Prefix} (${turns(writes)})`, unit: 'ms', ...sides(writes, (s) => s.latency.p50Ms), limit: commitMs }),
    makeRow({ section, name: `write p99 c=1, etcd and orch in turns (${turns(writes)})`, unit: 'ms', ...sides(writes, (s) => s.latency.p99Ms) }),
    // Both clusters run at once: what each spent idle while the other wrote is what it took from the other's turns.
    makeRow({ section, name: 'CPU of each cluster while idle during the other\'s write turns', unit: 'ms/s', orch: writes.orch.idleCpuMsPerSecond, etcd: writes.etcd.idleCpuMsPerSecond }),
    ...(reads === null ? [] : [
      makeRow({ section, name: `${inTurnsReadsPrefix} (${turns(reads)})`, unit: 'ops/s', ...sides(reads, (s) => s.opsPerSecond) }),
      makeRow({ section, name: `linearizable read p50 c=1, etcd and orch in turns (${turns(reads)})`, unit: 'ms', ...sides(reads, (s) => s.latency.p50Ms) }),
    ]),
  ];
}

/** The row of `count` Pod creates, next to the ConfigMap creates of the same count and concurrency. */
const podCreateRow = (count: number): string => `create ${count} pods (3 containers each)`;

/** API rows per object count: seconds for each phase (Pod creates after ConfigMap creates), one list's time, and peak memory. */
export function apiRows(points: readonly ApiPoint[]): BenchRow[] {
  return points.flatMap((p) => [
    makeRow({ section: 'api', name: `create ${p.count} configmaps`, unit: 's', orch: p.create.elapsedMs / 1000 }),
    makeRow({ section: 'api', name: podCreateRow(p.count), unit: 's', orch: p.podCreate.elapsedMs / 1000 }),
    makeRow({ section: 'api', name: `update ${p.count} configmaps`, unit: 's', orch: p.update.elapsedMs / 1000 }),
    makeRow({ section: 'api', name: `get ${p.count} configmaps`, unit: 's', orch: p.get.elapsedMs / 1000 }),
    makeRow({ section: 'api', name: `list of ${p.count} (one request)`, unit: 'ms', orch: p.listMs }),
    makeRow({ section: 'api', name: `peak RSS, max replica, ${p.count} objects`, unit: 'MiB', orch: p.peakMemoryMiB }),
  ]);
}

/** Names of the watch rows the target line reads back. */
const watchP99Row = (watchers: number): string => `watch fan-out ${watchers} watchers p99`;
const floorP99Row = 'watch fan-out floor p99';

/**
 * Watch fan-out p50 and p99, with the floor's (a bare node:https server writing orch's event bytes
 * to as many connections, same run) as their limit, and the floor's own rows.
 */
export function watchRows(result: WatchResult): BenchRow[] {
  const floor = result.floor;
  const floorName = floor === null ? '' : ` (bare node:https, ${floor.connected} connections, ${formatNumber(result.eventBytes)} B per event)`;
  return [
    makeRow({ section: 'api', name: `watch fan-out ${result.watchers} watchers p50`, unit: 'ms', orch: result.delay.p50Ms, limit: floor?.delay.p50Ms ?? null }),
    makeRow({ section: 'api', name: watchP99Row(result.watchers), unit: 'ms', orch: result.delay.p99Ms, limit: floor?.delay.p99Ms ?? null }),
    ...(floor === null ? [] : [
      makeRow({ section: 'machine', name: `watch fan-out floor p50${floorName}`, unit: 'ms', orch: null, limit: floor.delay.p50Ms }),
      makeRow({ section: 'machine', name: `${floorP99Row}${floorName}`, unit: 'ms', orch: null, limit: floor.delay.p99Ms }),
    ]),
  ];
}

/** Names of the failover rows the target line reads back. */
const failoverKillsRow = 'leader SIGKILLs measured';
const failoverP99Row = 'leader SIGKILL -> first acknowledged write p99';

/** Failover over every kill: how many, p50, p99 and max to the first acknowledged write, and the restarts' catch-up p50. */
export function failoverRows(result: FailoverResult): BenchRow[] {
  const restarts = result.kills.map((k) => k.msToCaughtUp);
  return [
    makeRow({ section: 'failover', name: failoverKillsRow, unit: 'kills', orch: result.kills.length }),
    makeRow({ section: 'failover', name: 'leader SIGKILL -> first acknowledged write p50', unit: 'ms', orch: result.toFirstWrite.p50Ms }),
    makeRow({ section: 'failover', name: failoverP99Row, unit: 'ms', orch: result.toFirstWrite.p99Ms }),
    makeRow({ section: 'failover', name: 'leader SIGKILL -> first acknowledged write max', unit: 'ms', orch: result.toFirstWrite.maxMs }),
    makeRow({ section: 'failover', name: 'killed replica restarted -> ready and caught up p50', unit: 'ms', orch: restarts.length === 0 ? null : percentile(restarts, 50) }),
  ];
}

/** The per-point problems worth printing under the table (errors counted inside a point). */
export function pointWarnings(label: string, points: readonly StorePoint[] | readonly ApiPoint[]): string[] {
  const warnings: string[] = [];
  for (const p of points) {
    const loads = 'concurrency' in p ? { write: p.write, read: p.read } : { create: p.create, update: p.update, get: p.get, 'pod create': p.podCreate };
    const at = 'concurrency' in p ? `c=${p.concurrency}` : `n=${p.count}`;
    for (const [name, load] of Object.entries(loads)) {
      if (load.errors > 0) warnings.push(`${label} ${name} ${at}: ${load.errors} errors (first: ${load.firstError ?? '?'})`);
    }
    if ('server' in p && p.server !== undefined && p.server.dropped > 0) warnings.push(`${label} ${at}: the replicas dropped ${p.server.dropped} timing samples; their rows cover the start of the point`);
    if ('count' in p && p.create.ops < p.count) warnings.push(`${label} n=${p.count}: only ${p.create.ops} creates finished in time`);
    if ('count' in p && p.podCreate.ops < p.count) warnings.push(`${label} n=${p.count}: only ${p.podCreate.ops} pod creates finished in time`);
  }
  return warnings;
}

/** The write rows of one section that the target lines judge; null where a row is missing. */
interface StoreTargetRows {
  /** The single writer's p50 (c=1): against etcd (ratio) and against fsync + RTT (limit). */
  readonly p50: BenchRow | null;
  readonly write16: BenchRow | null;
  readonly write256: BenchRow | null;
  readonly p99at256: BenchRow | null;
  /** Write throughput at the full API's concurrency (acceptance.apiConcurrency). */
  readonly writeAtApi: BenchRow | null;
}

function storeTargets(rows: readonly BenchRow[], labels: StoreRowLabels): StoreTargetRows {
  const find = (name: string): BenchRow | null => rows.find((r) => r.section === labels.section && r.name === name) ?? null;
  const throughput = (c: number): BenchRow | null => find(`${labels.write} throughput c=${c}`);
  return {
    p50: find(`${labels.write} p50 c=1`),
    write16: throughput(16),
    write256: throughput(256),
    p99at256: find(`${labels.write} p99 c=256`),
    writeAtApi: throughput(acceptance.apiConcurrency),
  };
}

/** A c=1 p50 row's value (orch's or etcd's) as a multiple of its limit, fsync + RTT. */
function p50Multiple(p50: BenchRow | null, of: 'orch' | 'etcd'): number | null {
  return p50 === null ? null : ratio(p50[of], p50.limit);
}

/**
 * The single-writer p50s of orch and etcd against the commit bound on a disk the replicas share:
 * each commit waits for fsyncs started together on one disk, and `fdatasync of 4 KiB appends`
 * times a lone one. Null when a row is missing.
 */
function sharedDiskLine(rows: readonly BenchRow[], p50: BenchRow | null): string | null {
  const machine = (name: string): number | null => rows.find((r) => r.section === 'machine' && r.name === name)?.limit ?? null;
  const inStep = machine(fsyncInStepRow);
  const roundTrip = machine(roundTripRow);
  if (p50 === null || inStep === null || roundTrip === null) return null;
  const bound = inStep + roundTrip;
  return `info: single-writer p50 against ${replicasOnOneDisk} fsyncs in step + RTT (${formatNumber(bound)} ms): orch ${formatNumber(ratio(p50.orch, bound))}x, etcd ${formatNumber(ratio(p50.etcd, bound))}x`;
}

/** The acceptance of issue 28, as the target lines judge it. */
export const acceptance = {
  /** Store write p50 at c=1, as a multiple of etcd's: at most. */
  singleWriterP50: 1.0,
  /** Store write throughput at c=16 and c=256 against etcd's: at least. */
  writeThroughput: 1.0,
  /** Linearizable read throughput against etcd's, at every concurrency: at least. */
  readThroughput: 1.2,
  /** Service-account ConfigMap creates through the full API at c=64 against the store's writes at c=64: at least. */
  apiAgainstStore: 0.8,
  apiConcurrency: 64,
  /** orch's watch p99 against the bare Node floor's: at most. */
  watchAgainstFloor: 1.5,
  /** Failover p99 (ms), at most, over at least `failoverKills` kills. */
  failoverP99Ms: 1_000,
  failoverKills: 20,
} as const;

/**
 * Issue 28's acceptance, judged from the rows: one line each, 'met', 'missed' or 'not measured',
 * with the number it was judged on. The same store numbers through the full API, the commit
 * against fsync + RTT and the Pod cost follow as 'info:' lines.
 */
export function targetLines(rows: readonly BenchRow[]): string[] {
  const a = acceptance;
  const find = (section: string, name: string): BenchRow | undefined => rows.find((r) => r.section === section && r.name === name);
  const store = storeTargets(rows, storeLabels);
  const x = (v: number | null | undefined): string => `${formatNumber(v ?? null)}x`;
  // The writes in turns with etcd when they ran; else the c=1 point, measured a minute apart from etcd's.
  const writesInTurns = rows.find((r) => r.section === storeLabels.section && r.name.startsWith(inTurnsWriteP50Prefix) && r.ratio !== null);
  const p50Row = writesInTurns ?? store.p50;
  const p50 = p50Row?.ratio;
  const write16 = store.write16?.ratio;
  const write256 = store.write256?.ratio;
  const p99at256 = store.p99at256;
  // Each concurrency's read rate; at c=1 the reads in turns with etcd when they ran.
  const readsInTurns = rows.find((r) => r.section === storeLabels.section && r.name.startsWith(inTurnsReadsPrefix) && r.ratio !== null);
  const reads = rows
    .filter((r) => r.section === storeLabels.section && r.name.startsWith(`${storeLabels.read} throughput c=`))
    .map((r) => ({ label: r.name.slice(r.name.lastIndexOf(' ') + 1), ratio: r.ratio }))
    .map((r) => (r.label === 'c=1' && readsInTurns !== undefined ? { label: 'c=1 in turns', ratio: readsInTurns.ratio } : r));
  if (reads.length === 0 && readsInTurns !== undefined) reads.push({ label: 'c=1 in turns', ratio: readsInTurns.ratio });
  const readRatios = reads.map((r) => r.ratio);
  const worstRead = reads.length === 0 || readRatios.some((r) => r === null) ? null : Math.min(...(readRatios as number[]));
  const saCreates = find('api', serviceAccountCreateRow(a.apiConcurrency))?.orch ?? null;
  const storeWrites = store.writeAtApi?.orch ?? null;
  const apiRatio = ratio(saCreates, storeWrites);
  const watch = rows.find((r) => r.section === 'api' && /^watch fan-out \d+ watchers p99$/.test(r.name));
  const floorP99 = rows.find((r) => r.section === 'machine' && r.name.startsWith(floorP99Row))?.limit ?? null;
  const watchRatio = ratio(watch?.orch ?? null, floorP99);
  const kills = find('failover', failoverKillsRow)?.orch ?? null;
  const failoverP99 = find('failover', failoverP99Row)?.orch ?? null;
  // Too few kills cannot meet the target, whatever their p99.
  const failoverVerdict = failoverP99 === null || kills === null ? 'not measured' : kills < a.failoverKills ? 'missed' : verdict(failoverP99, (v) => v <= a.failoverP99Ms);
  const lines = [
    `target: store writes c=1 p50 <= ${a.singleWriterP50}x etcd's: ${verdict(p50, (v) => v <= a.singleWriterP50)} (${formatNumber(p50Row?.orch ?? null)} ms against ${formatNumber(p50Row?.etcd ?? null)} ms, ${x(p50)}${writesInTurns === undefined ? '' : `, in turns${store.p50?.ratio == null ? '' : `; the c=1 point: ${x(store.p50.ratio)}`}`})`,
    `target: store write throughput c=16 >= ${a.writeThroughput}x etcd's: ${verdict(write16, (v) => v >= a.writeThroughput)} (${x(write16)})`,
    `target: store write throughput c=256 >= ${a.writeThroughput}x etcd's: ${verdict(write256, (v) => v >= a.writeThroughput)} (${x(write256)})`,
    `target: store write p99 c=256 <= etcd's: ${verdict(p99at256?.ratio, (v) => v <= 1)} (${formatNumber(p99at256?.orch ?? null)} ms against ${formatNumber(p99at256?.etcd ?? null)} ms, ${x(p99at256?.ratio)})`,
    `target: linearizable reads >= ${a.readThroughput}x etcd's at every concurrency: ${verdict(worstRead, (v) => v >= a.readThroughput)} (${reads.map((r) => `${r.label} ${x(r.ratio)}`).join(', ') || '-'})`,
    `target: ConfigMap creates through the full API as a service account c=${a.apiConcurrency} >= ${a.apiAgainstStore}x orch store writes c=${a.apiConcurrency}: ${verdict(apiRatio, (v) => v >= a.apiAgainstStore)} (${formatNumber(saCreates)} against ${formatNumber(storeWrites)} ops/s, ${x(apiRatio)})`,
    `target: watch fan-out p99 <= ${a.watchAgainstFloor}x the bare Node floor's p99: ${verdict(watchRatio, (v) => v <= a.watchAgainstFloor)} (${formatNumber(watch?.orch ?? null)} ms against ${formatNumber(floorP99)} ms, ${x(watchRatio)})`,
    `target: failover p99 <= ${a.failoverP99Ms} ms over >= ${a.failoverKills} kills: ${failoverVerdict} (${formatNumber(failoverP99)} ms over ${formatNumber(kills)} kills)`,
  ];
  const api = storeTargets(rows, apiStoreLabels);
  const singleWriter = store.p50;
  lines.push(
    `info: single-writer p50 = ${formatNumber(p50Multiple(singleWriter, 'orch'))}x (fsync + RTT); etcd ${formatNumber(p50Multiple(singleWriter, 'etcd'))}x`,
    `info: through the full API (admin): ${apiStoreLabels.write} c=256 = ${formatNumber(api.write256?.ratio ?? null)}x etcd; c=1 p50 = ${formatNumber(p50Multiple(api.p50, 'orch'))}x (fsync + RTT)`,
  );
  const commit = rows.find((r) => r.section === storeLabels.section && r.name === commitP50Row(1));
  if (commit !== undefined) lines.push(`info: single-writer commit p50 (leader's own proposals, propose to commit) = ${formatNumber(ratio(commit.orch, commit.limit))}x (fsync + RTT)`);
  const sharedDisk = sharedDiskLine(rows, singleWriter);
  return [...lines, ...(sharedDisk === null ? [] : [sharedDisk]), ...podCostLines(rows)];
}

/** 'met', 'missed' (also when not finite) or 'not measured' (missing or NaN). */
function verdict(value: number | null | undefined, ok: (v: number) => boolean): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'not measured';
  return Number.isFinite(value) && ok(value) ? 'met' : 'missed';
}

/**
 * A Pod create's cost against a ConfigMap create's, per object count: both rows are the same
 * number of creates at the same concurrency, so their time ratio is the per-request cost ratio.
 * Neither has a reference (etcd stores no Pods): the ConfigMap row is the Pod row's yardstick.
 */
function podCostLines(rows: readonly BenchRow[]): string[] {
  return rows.flatMap((pods) => {
    const count = /^create (\d+) pods /.exec(pods.name)?.[1];
    const configMaps = rows.find((r) => r.section === 'api' && r.name === `create ${count ?? ''} configmaps`);
    if (count === undefined || configMaps === undefined) return [];
    return [`info: create ${count} pods (3 containers each) took ${formatNumber(ratio(pods.orch, configMaps.orch))}x the time of ${count} ConfigMap creates (same concurrency)`];
  });
}
