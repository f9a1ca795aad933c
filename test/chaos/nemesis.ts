// The nemesis: a fault schedule drawn from a seed (the same seed gives the same schedule: kinds,
// targets by index, durations and gaps), and its execution against a ChaosCluster. At most one
// replica is down, paused or cut off at a time: each fault is healed (and a killed replica
// restarted and ready) before the next one starts. A target "leader" is resolved when the fault
// starts, so which replica that is depends on the run.
import { setTimeout as sleep } from 'node:timers/promises';
import { Rng } from '../sim/rng.ts';
import { waitUntil, type ChaosCluster, type Link } from './chaos-cluster.ts';
import { measureUnavailability, type UnavailabilityWindow } from './unavailability.ts';

/** Kinds of fault. */
export type FaultKind =
  | 'kill-leader' | 'kill-replica' | 'pause-replica' | 'pause-leader' | 'restart-replica'
  | 'isolate-replica' | 'isolate-leader' | 'one-way-out' | 'one-way-in';

/** One scheduled fault: what, on whom (an index into the replicas, or the leader), for how long, then a gap. */
export interface ScheduledFault {
  readonly kind: FaultKind;
  readonly replicaIndex: number;
  readonly durationMs: number;
  readonly gapMs: number;
  readonly linkMode: 'drop' | 'blackhole';
}

/** A fault as it happened. */
export interface FaultRecord {
  readonly kind: FaultKind;
  readonly target: string;
  readonly atMs: number;
  readonly note?: string;
}

const weights: ReadonlyArray<[FaultKind, number]> = [
  ['kill-leader', 30], ['kill-replica', 10], ['pause-replica', 10], ['pause-leader', 5], ['restart-replica', 5],
  ['isolate-replica', 15], ['isolate-leader', 10], ['one-way-out', 8], ['one-way-in', 7],
];

/** The fault schedule of `seed` for `replicas` replicas, long enough to fill `durationMs`. */
export function faultSchedule(seed: number, replicas: number, durationMs: number): ScheduledFault[] {
  const rng = new Rng(seed).derive('nemesis');
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  const schedule: ScheduledFault[] = [];
  for (let planned = 0; planned < durationMs;) {
    let roll = rng.int(total);
    const kind = weights.find(([, w]) => (roll -= w) < 0)?.[0] ?? 'kill-leader';
    const fault: ScheduledFault = { kind, replicaIndex: rng.int(replicas), durationMs: rng.between(1_000, 4_000), gapMs: rng.between(1_000, 3_000), linkMode: rng.chance(0.5) ? 'drop' : 'blackhole' };
    schedule.push(fault);
    planned += fault.durationMs + fault.gapMs;
  }
  return schedule;
}

/** Options of `runNemesis`. */
export interface NemesisOptions {
  readonly cluster: ChaosCluster;
  readonly schedule: readonly ScheduledFault[];
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  /** Time origin of recorded fault times. */
  readonly epochMs: number;
}

/** What the nemesis did. */
export interface NemesisReport {
  readonly faults: FaultRecord[];
  readonly windows: UnavailabilityWindow[];
}

/** Runs the schedule until it ends or the signal aborts; always leaves every replica up and every link healed. */
export async function runNemesis(options: NemesisOptions, report: NemesisReport): Promise<void> {
  for (const fault of options.schedule) {
    if (options.signal.aborted) break;
    try {
      await inject(options, fault, report);
    } finally {
      await recover(options.cluster);
    }
    await sleep(fault.gapMs);
  }
}

async function inject(options: NemesisOptions, fault: ScheduledFault, report: NemesisReport): Promise<void> {
  const { cluster } = options;
  const byLeader = fault.kind.endsWith('-leader');
  const target = byLeader ? await awaitLeader(cluster) : cluster.names[fault.replicaIndex % cluster.names.length];
  if (target === null || target === undefined) {
    options.log(`nemesis: ${fault.kind}: no leader found, skipped`);
    return;
  }
  const record = (note?: string): void => {
    report.faults.push({ kind: fault.kind, target, atMs: Date.now() - options.epochMs, ...(note === undefined ? {} : { note }) });
    options.log(`nemesis: ${fault.kind} ${target}${note === undefined ? '' : ` (${note})`} for ${fault.durationMs} ms`);
  };
  switch (fault.kind) {
    case 'kill-leader':
    case 'kill-replica': {
      const faultAtMs = Date.now();
      await cluster.kill(target);
      record();
      const probing = fault.kind === 'kill-leader' ? measureAfterKill(cluster, target, faultAtMs, fault.kind) : undefined;
      await sleep(fault.durationMs);
      if (probing !== undefined) report.windows.push(await probing);
      return;
    }
    case 'restart-replica':
      await cluster.terminate(target);
      record('SIGTERM');
      return;
    case 'pause-replica':
    case 'pause-leader':
      cluster.pause(target);
      record('SIGSTOP');
      await sleep(fault.durationMs);
      cluster.resume(target);
      return;
    default:
      cluster.cut(linksFor(cluster, fault.kind, target), fault.linkMode);
      record(fault.linkMode);
      await sleep(fault.durationMs);
      cluster.healAll();
  }
}

/** The leader, waiting (bounded) through an election that a previous fault may have started. */
async function awaitLeader(cluster: ChaosCluster): Promise<string | null> {
  let leader: string | null = null;
  await waitUntil(async () => (leader = await cluster.leader()) !== null, 10_000, 200);
  return leader;
}

function linksFor(cluster: ChaosCluster, kind: FaultKind, target: string): Link[] {
  const all = cluster.linksOf(target);
  if (kind === 'one-way-out') return all.filter((l) => l.from === target);
  if (kind === 'one-way-in') return all.filter((l) => l.to === target);
  return all;
}

function measureAfterKill(cluster: ChaosCluster, killed: string, faultAtMs: number, fault: string): Promise<UnavailabilityWindow> {
  const live = cluster.names.filter((n) => n !== killed && cluster.condition(n) === 'up');
  return measureUnavailability({
    servers: live.map((n) => cluster.apiUrls.get(n) ?? ''),
    caPem: cluster.caPem,
    token: cluster.token,
    faultAtMs,
    fault: `${fault} ${killed}`,
    deadlineMs: 60_000,
  });
}

/** Heals links, resumes paused replicas and restarts killed ones, waiting (bounded) until they are ready. */
export async function recover(cluster: ChaosCluster): Promise<void> {
  cluster.healAll();
  for (const name of cluster.names) {
    if (cluster.condition(name) === 'paused') cluster.resume(name);
    if (cluster.condition(name) === 'killed') await cluster.restart(name, 90_000);
  }
}
