// One client's writes and linearizable reads (c=1) with etcd and orch's store measured in turns.
// The store-level phases measure etcd's c=1 points and orch's about a minute apart, and on this
// shared machine one client's latency drifts by more than the difference between the two over
// minutes (the same orch build: write p50 2.2 ms in one run of the probe, 3.5 ms a minute later).
// Here both clusters run at once and take short turns, etcd first in even rounds and orch first in
// odd ones, so that a drift weighs on both alike; each system's percentiles are taken over all of
// its turns' operations together. Running both at once is not free: each side's idle CPU during
// the other's turns is measured too.
import { runClosedLoop, type LoadResult } from './load.ts';
import { clockTicksPerSecond, processCpuMs } from './proc-stats.ts';
import { summarize, type LatencySummary } from './stats.ts';
import type { StoreDriver } from './store-bench.ts';

/** One system's operations of one kind over all of its turns. */
export interface TurnsSide {
  readonly ops: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly latency: LatencySummary;
  /** Operations per second of its turns' time. */
  readonly opsPerSecond: number;
  /** Each turn's own p50, in the order run: how much the machine drifted meanwhile. */
  readonly turnP50sMs: readonly number[];
  /**
   * CPU this system's processes spent, idle, during the other's turns (ms per second of turn):
   * what it took from the other's operations. Null without pids.
   */
  readonly idleCpuMsPerSecond: number | null;
}

/** The turns of one kind of operation. */
export interface TurnsResult {
  readonly rounds: number;
  readonly turnMs: number;
  readonly etcd: TurnsSide;
  readonly orch: TurnsSide;
}

/** Writes in turns, then reads in turns (null when no round of them fitted after the writes). */
export interface InTurnsResult {
  readonly writes: TurnsResult;
  readonly reads: TurnsResult | null;
}

type Side = 'etcd' | 'orch';
type Kind = 'write' | 'read';

/** The order of the two turns of round `round`: etcd first in even rounds, orch first in odd ones. */
export function turnOrder(round: number): readonly [Side, Side] {
  return round % 2 === 0 ? ['etcd', 'orch'] : ['orch', 'etcd'];
}

export interface InTurnsOptions {
  readonly rounds: number;
  readonly turnMs: number;
  readonly warmupMs: number;
  /** Keys written before the reads, which read them round-robin. */
  readonly readKeys: number;
  /** performance.now() by which the rounds end: a round starts only if both its turns fit. */
  readonly deadline?: number;
  /** Each system's processes, to measure what one spends idle while the other works. */
  readonly pids?: Readonly<Record<Side, readonly number[]>>;
}

/**
 * Warms both stores (`warmupMs` of writes at c=16, then one turn of writes and one of reads at
 * c=1, all unmeasured), then runs up to `rounds` rounds of one c=1 write turn of `turnMs` per
 * system, then as many rounds of reads as fit. Written keys are new in every turn (a put over an
 * existing key is two commands in orch's store shim). Throws when the warm-ups and one round of
 * writes do not fit before the deadline.
 */
export async function runInTurns(drivers: Readonly<Record<Side, StoreDriver>>, options: InTurnsOptions): Promise<InTurnsResult> {
  const warmupsMs = 2 * (options.warmupMs + 2 * options.turnMs);
  const fits = (ms: number): boolean => options.deadline === undefined || performance.now() + ms <= options.deadline;
  if (!fits(warmupsMs + 2 * options.turnMs)) throw new Error(`no time left for the warm-ups and one round (${(warmupsMs + 2 * options.turnMs) / 1000} s)`);
  const readKeys = Array.from({ length: Math.max(1, options.readKeys) }, (_, i) => `turns-r-${i}`);
  for (const side of ['etcd', 'orch'] as const) {
    const driver = drivers[side];
    await driver.prepare(readKeys);
    await runClosedLoop({ concurrency: 16, durationMs: options.warmupMs, op: (seq) => driver.write(seq, `turns-warm-${seq}`) });
    // The one client's own paths warm too (orch's JIT): a turn of each kind.
    await runClosedLoop({ concurrency: 1, durationMs: options.turnMs, op: (seq) => driver.write(seq, `turns-warm1-${seq}`) });
    await runClosedLoop({ concurrency: 1, durationMs: options.turnMs, op: (seq) => driver.read(seq, readKeys[seq % readKeys.length] ?? 'turns-r-0') });
  }
  const writes = await turns(drivers, 'write', options, readKeys, fits);
  if (writes === null) throw new Error('no round of writes fitted in the time left after the warm-ups');
  return { writes, reads: await turns(drivers, 'read', options, readKeys, fits) };
}

/** Up to `rounds` rounds of `kind` in turns, each starting only if both its turns fit; null if none did. */
async function turns(drivers: Readonly<Record<Side, StoreDriver>>, kind: Kind, options: InTurnsOptions, readKeys: readonly string[], fits: (ms: number) => boolean): Promise<TurnsResult | null> {
  const latencies: Record<Side, number[]> = { etcd: [], orch: [] };
  const loads: Record<Side, LoadResult[]> = { etcd: [], orch: [] };
  const ticks = options.pids === undefined ? 0 : clockTicksPerSecond();
  const cpuOf = (side: Side): number => (options.pids?.[side] ?? []).reduce((sum, pid) => sum + processCpuMs(pid, ticks), 0);
  /** CPU (ms) each side spent while the other worked, and the time the other worked (ms). */
  const idle: Record<Side, { cpuMs: number; turnsMs: number }> = { etcd: { cpuMs: 0, turnsMs: 0 }, orch: { cpuMs: 0, turnsMs: 0 } };
  for (let round = 0; round < options.rounds; round++) {
    if (!fits(2 * options.turnMs)) break;
    for (const side of turnOrder(round)) {
      const driver = drivers[side];
      const other: Side = side === 'etcd' ? 'orch' : 'etcd';
      const otherCpuBefore = options.pids === undefined ? 0 : cpuOf(other);
      const turnStarted = performance.now();
      const operation = kind === 'write'
        ? (seq: number): Promise<void> => driver.write(seq, `turns-${round}-${seq}`)
        : (seq: number): Promise<void> => driver.read(seq, readKeys[seq % readKeys.length] ?? 'turns-r-0');
      const load = await runClosedLoop({ concurrency: 1, durationMs: options.turnMs, op: operation, keepLatencies: true });
      loads[side].push(load);
      latencies[side].push(...(load.latenciesMs ?? []));
      if (options.pids !== undefined) {
        idle[other].cpuMs += cpuOf(other) - otherCpuBefore;
        idle[other].turnsMs += performance.now() - turnStarted;
      }
    }
  }
  if (loads.etcd.length === 0) return null;
  const sideOf = (side: Side): TurnsSide => {
    const elapsedMs = loads[side].reduce((sum, t) => sum + t.elapsedMs, 0);
    return {
      ops: latencies[side].length,
      errors: loads[side].reduce((sum, t) => sum + t.errors, 0),
      firstError: loads[side].find((t) => t.firstError !== null)?.firstError ?? null,
      latency: summarize(latencies[side]),
      opsPerSecond: elapsedMs > 0 ? (latencies[side].length * 1000) / elapsedMs : 0,
      turnP50sMs: loads[side].map((t) => t.latency.p50Ms),
      idleCpuMsPerSecond: options.pids === undefined || idle[side].turnsMs === 0 ? null : (idle[side].cpuMs * 1000) / idle[side].turnsMs,
    };
  };
  return { rounds: loads.etcd.length, turnMs: options.turnMs, etcd: sideOf('etcd'), orch: sideOf('orch') };
}
