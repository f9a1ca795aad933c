// One chaos run end to end: a cluster with proxied peer links, watchers on every replica, the
// workload and the nemesis for `durationMs`, recovery, final lists from every replica, and the
// verdict. Shared by the `make chaos` CLI and the short seeded run inside `make test`.
import { setTimeout as sleep } from 'node:timers/promises';
import { OrchClient } from '../../internal/client/index.ts';
import type { Operation, VersionedValue, WatchLog } from './checkers/history.ts';
import { startChaosCluster, waitUntil, type ChaosCluster } from './chaos-cluster.ts';
import { faultSchedule, recover, runNemesis, type NemesisReport, type ScheduledFault } from './nemesis.ts';
import { percentile } from './unavailability.ts';
import { judge, type Verdict } from './verdict.ts';
import { startWatcher, type RecordingWatcher } from './watchers.ts';
import { runWorkload, versioned, workloadLabel, workloadPath, type RecordedHistory } from './workload.ts';

/** Options of one run. */
export interface ChaosRunOptions {
  readonly durationMs: number;
  readonly seed: number;
  readonly processes?: number;
  readonly keys?: number;
  /** Replaces the seeded schedule (e.g. only partitions, for the planted-bug test). */
  readonly schedule?: readonly ScheduledFault[];
  /** Environment for the replica processes (e.g. ORCH_TESTING_PLANTED_BUG). */
  readonly replicaEnv?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
  readonly showReplicaLogs?: boolean;
  /** Called once the cluster runs with a function that ends every process and proxy of the run (for interrupts and test timeouts). */
  readonly onStarted?: (close: () => Promise<void>) => void;
}

/** Numbers and verdict of a run. */
export interface ChaosRunResult {
  readonly seed: number;
  readonly operations: number;
  readonly outcomes: Readonly<Record<'ok' | 'fail' | 'unknown', number>>;
  readonly watchEvents: number;
  /** Failed operations by HTTP code ('none': refused before reaching the store, or a read that failed). */
  readonly failCodes: Readonly<Record<string, number>>;
  readonly nemesis: NemesisReport;
  /** The records the verdict was drawn from, for a post-mortem. */
  readonly history: readonly Operation[];
  readonly watchLogs: readonly WatchLog[];
  readonly verdict: Verdict;
  /** How long judging took, and the harness process's peak resident memory by then. */
  readonly check: { readonly elapsedMs: number; readonly peakRssMiB: number };
}

/** Runs the whole experiment; every process and proxy it started is gone when it settles. */
export async function runChaos(options: ChaosRunOptions): Promise<ChaosRunResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const cluster = await startChaosCluster({ ...(options.replicaEnv === undefined ? {} : { env: options.replicaEnv }), showLogs: options.showReplicaLogs === true });
  const watchers: RecordingWatcher[] = [];
  options.onStarted?.(() => cluster.close());
  try {
    const servers = cluster.names.map((n) => cluster.apiUrls.get(n) ?? '');
    const startRv = await listRevision(cluster, servers);
    const replicaOf = (url: string): string => cluster.names.find((n) => cluster.apiUrls.get(n) === url.replace(/\/+$/, '')) ?? url;
    const watcherBase = { replicaOf, caPem: cluster.caPem, token: cluster.token, fromResourceVersion: startRv };
    for (const name of cluster.names) watchers.push(startWatcher({ ...watcherBase, name: `watch-${name}`, servers: [cluster.apiUrls.get(name) ?? ''] }));
    watchers.push(startWatcher({ ...watcherBase, name: 'watch-roaming', servers }));

    const history: RecordedHistory = { operations: [], epochMs: Date.now() };
    const report: NemesisReport = { faults: [], windows: [] };
    const stopWorkload = new AbortController();
    const stopNemesis = new AbortController();
    const schedule = options.schedule ?? faultSchedule(options.seed, cluster.names.length, options.durationMs);
    const workload = runWorkload({ servers, caPem: cluster.caPem, token: cluster.token, processes: options.processes ?? 6, keys: options.keys ?? 30, seed: options.seed, signal: stopWorkload.signal }, history);
    const nemesis = runNemesis({ cluster, schedule, signal: stopNemesis.signal, log, epochMs: history.epochMs }, report);
    await sleep(options.durationMs);
    stopNemesis.abort();
    await nemesis;
    stopWorkload.abort();
    await workload;
    await recover(cluster);
    await cluster.cluster.waitReady(undefined, 90_000);

    const finalLists = await listEveryReplica(cluster);
    // A loop, not a spread: an hour's history is millions of operations, past any call's argument limit.
    let lastRv = 0;
    for (const op of history.operations) lastRv = Math.max(lastRv, op.output?.resourceVersion ?? 0);
    for (const items of finalLists.values()) for (const item of items) lastRv = Math.max(lastRv, item.resourceVersion);
    const caughtUp = await waitUntil(() => watchers.every((w) => w.lastResourceVersion() >= lastRv), 60_000, 200);
    if (!caughtUp) log(`watchers did not reach revision ${lastRv}: ${watchers.map((w) => `${w.log.watcher}@${w.lastResourceVersion()}`).join(', ')}`);
    const stopped = watchers.splice(0);
    await Promise.all(stopped.map((w) => w.stop()));
    const logs = stopped.map((w) => w.log);
    log(`checking ${history.operations.length} operations and ${logs.length} watch logs`);
    const checkStarted = performance.now();
    const verdict = judge({ history: history.operations, watchLogs: logs, finalLists });
    const check = { elapsedMs: Math.round(performance.now() - checkStarted), peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) };
    const outcomes = { ok: 0, fail: 0, unknown: 0 };
    const failCodes: Record<string, number> = {};
    for (const op of history.operations) {
      outcomes[op.outcome] += 1;
      if (op.outcome === 'fail') failCodes[String(op.output?.code ?? 'none')] = (failCodes[String(op.output?.code ?? 'none')] ?? 0) + 1;
    }
    const watchEvents = logs.reduce((n, l) => n + l.segments.reduce((m, s) => m + s.events.length, 0), 0);
    return { seed: options.seed, operations: history.operations.length, outcomes, watchEvents, failCodes, nemesis: report, history: history.operations, watchLogs: logs, verdict, check };
  } finally {
    await Promise.all(watchers.map((w) => w.stop().catch(() => undefined)));
    await cluster.close();
  }
}

/** The revision of a consistent list of the workload's objects, with retries while the cluster settles. */
async function listRevision(cluster: ChaosCluster, servers: readonly string[]): Promise<number> {
  const client = new OrchClient({ servers, caPem: cluster.caPem, token: cluster.token });
  try {
    const list = await client.list<{ metadata: { resourceVersion: string } }>(workloadPath, { query: { labelSelector: workloadLabel } });
    return Number(list.metadata.resourceVersion);
  } finally {
    await client.close();
  }
}

/** A consistent list from each replica in turn (each client pinned to one replica), bounded retries. */
async function listEveryReplica(cluster: ChaosCluster): Promise<Map<string, VersionedValue[]>> {
  // One revision for all: a write of unknown outcome (a relay still being retried) may apply while
  // the replicas are read one after the other, so each is read at exactly the first one's revision.
  let revision = '';
  const lists = new Map<string, VersionedValue[]>();
  for (const name of cluster.names) {
    const client = new OrchClient({ servers: [cluster.apiUrls.get(name) ?? ''], caPem: cluster.caPem, token: cluster.token, requestAttemptsMax: 10 });
    try {
      type List = { metadata: { resourceVersion: string }; items: Parameters<typeof versioned>[0][] };
      // A consistent list first: afterwards this replica has applied at least `revision`.
      const latest = await client.list<List>(workloadPath, { query: { labelSelector: workloadLabel } });
      if (revision === '') revision = latest.metadata.resourceVersion;
      const list = await client.list<List>(workloadPath, { query: { labelSelector: workloadLabel, resourceVersion: revision, resourceVersionMatch: 'Exact' } });
      lists.set(name, list.items.map(versioned));
    } finally {
      await client.close();
    }
  }
  return lists;
}

/** Violations printed in full at the end of a run; the rest are counted (all are in the dump file). */
const violationsShown = 50;

/** The lines a person reads at the end of a run. */
export function describeResult(result: ChaosRunResult): string[] {
  const writes = result.nemesis.windows.map((w) => w.writeMs).filter((v): v is number => v !== null);
  const reads = result.nemesis.windows.map((w) => w.readMs).filter((v): v is number => v !== null);
  const stats = (values: number[]): string => `p50 ${percentile(values, 50) ?? '-'} ms, p99 ${percentile(values, 99) ?? '-'} ms, max ${percentile(values, 100) ?? '-'} ms`;
  const kinds = new Map<string, number>();
  for (const f of result.nemesis.faults) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
  const missed = result.nemesis.windows.filter((w) => w.writeMs === null || w.readMs === null).length;
  const hidden = result.verdict.violations.length - violationsShown;
  return [
    `seed ${result.seed}`,
    `operations ${result.operations} (ok ${result.outcomes.ok}, fail ${result.outcomes.fail} [${Object.entries(result.failCodes).map(([c, n]) => `${c}: ${n}`).join(', ')}], unknown ${result.outcomes.unknown}); watch events ${result.watchEvents}`,
    `faults ${result.nemesis.faults.length}: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    `leader kills measured ${result.nemesis.windows.length}${missed > 0 ? ` (${missed} without a success within the deadline)` : ''}`,
    `unavailability after leader SIGKILL, first write: ${stats(writes)}`,
    `unavailability after leader SIGKILL, first consistent read: ${stats(reads)}`,
    ...result.verdict.checkers.map((c) => `checker ${c.checker}: ${c.status}, ${c.violations} violations; ${c.scope}; ${c.elapsedMs} ms`),
    `checks took ${result.check.elapsedMs} ms; harness peak RSS ${result.check.peakRssMiB} MiB`,
    `linearizability: ${result.verdict.linearizability}`,
    ...result.verdict.notes.map((n) => `note: ${n}`),
    `violations: ${result.verdict.violations.length}`,
    ...result.verdict.violations.slice(0, violationsShown).map((v) => `VIOLATION ${v}`),
    ...(hidden > 0 ? [`... and ${hidden} more violations`] : []),
  ];
}
