// The single writer's latency with etcd and orch's store measured in turns. The store-level
// phases measure etcd's c=1 point and orch's about a minute apart, and on this shared machine a
// single writer's latency drifts by more than the difference between the two over minutes (the same
// orch build: p50 2.2 ms in one run of the probe, 3.5 ms a minute later). Here both clusters run at
// once and take short turns, etcd first in even rounds and orch first in odd ones, so that a drift
// weighs on both alike; each system's p50 is taken over all of its turns' writes together.
import { runClosedLoop, type LoadResult } from './load.ts';
import { clockTicksPerSecond, processCpuMs } from './proc-stats.ts';
import { summarize, type LatencySummary } from './stats.ts';
import type { StoreDriver } from './store-bench.ts';

/** One system's writes over all of its turns. */
export interface AlternatedSide {
  readonly ops: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly latency: LatencySummary;
  /** Each turn's own p50, in the order run: how much the machine drifted meanwhile. */
  readonly turnP50sMs: readonly number[];
  /**
   * CPU this system's processes spent, idle, during the other's turns (ms per second of turn):
   * what it took from the other's writes. Null without pids.
   */
  readonly idleCpuMsPerSecond: number | null;
}

export interface AlternatedWritesResult {
  readonly rounds: number;
  readonly turnMs: number;
  readonly etcd: AlternatedSide;
  readonly orch: AlternatedSide;
}

type Side = 'etcd' | 'orch';

/** The order of the two turns of round `round`: etcd first in even rounds, orch first in odd ones. */
export function turnOrder(round: number): readonly [Side, Side] {
  return round % 2 === 0 ? ['etcd', 'orch'] : ['orch', 'etcd'];
}

/**
 * Warms both stores (`warmupMs` of writes at c=16, then one turn at c=1, each unmeasured), then runs `rounds` rounds of
 * one c=1 write turn of `turnMs` per system. Keys are new in every turn (a put over an existing key
 * is two commands in orch's store shim).
 */
export async function runAlternatedWrites(drivers: Readonly<Record<Side, StoreDriver>>, options: {
  rounds: number;
  turnMs: number;
  warmupMs: number;
  /** performance.now() by which the rounds end: a round starts only if both its turns fit. */
  deadline?: number;
  /** Each system's processes, to measure what one spends idle while the other writes. */
  pids?: Readonly<Record<Side, readonly number[]>>;
}): Promise<AlternatedWritesResult> {
  const warmupsMs = 2 * (options.warmupMs + options.turnMs);
  const fits = (ms: number): boolean => options.deadline === undefined || performance.now() + ms <= options.deadline;
  if (!fits(warmupsMs + 2 * options.turnMs)) throw new Error(`no time left for the warm-ups and one round (${(warmupsMs + 2 * options.turnMs) / 1000} s)`);
  for (const side of ['etcd', 'orch'] as const) {
    const driver = drivers[side];
    await runClosedLoop({ concurrency: 16, durationMs: options.warmupMs, op: (seq) => driver.write(seq, `alt-warm-${seq}`) });
    // The single writer's own path warm too: without it orch's first turn ran 0.5 ms slower than its others.
    await runClosedLoop({ concurrency: 1, durationMs: options.turnMs, op: (seq) => driver.write(seq, `alt-warm1-${seq}`) });
  }
  const latencies: Record<Side, number[]> = { etcd: [], orch: [] };
  const turns: Record<Side, LoadResult[]> = { etcd: [], orch: [] };
  const ticks = options.pids === undefined ? 0 : clockTicksPerSecond();
  const cpuOf = (side: Side): number => (options.pids?.[side] ?? []).reduce((sum, pid) => sum + processCpuMs(pid, ticks), 0);
  /** CPU (ms) each side spent while the other wrote, and the time it wrote (ms). */
  const idle: Record<Side, { cpuMs: number; turnsMs: number }> = { etcd: { cpuMs: 0, turnsMs: 0 }, orch: { cpuMs: 0, turnsMs: 0 } };
  for (let round = 0; round < options.rounds; round++) {
    if (!fits(2 * options.turnMs)) break;
    for (const side of turnOrder(round)) {
      const driver = drivers[side];
      const samples = latencies[side];
      const other: Side = side === 'etcd' ? 'orch' : 'etcd';
      const otherCpuBefore = options.pids === undefined ? 0 : cpuOf(other);
      const turnStarted = performance.now();
      turns[side].push(await runClosedLoop({
        concurrency: 1,
        durationMs: options.turnMs,
        op: async (seq) => {
          const started = performance.now();
          await driver.write(seq, `alt-${round}-${seq}`);
          samples.push(performance.now() - started);
        },
      }));
      if (options.pids !== undefined) {
        idle[other].cpuMs += cpuOf(other) - otherCpuBefore;
        idle[other].turnsMs += performance.now() - turnStarted;
      }
    }
  }
  if (turns.etcd.length === 0) throw new Error('no round fitted in the time left after the warm-ups');
  const sideOf = (side: Side): AlternatedSide => ({
    ops: latencies[side].length,
    errors: turns[side].reduce((sum, t) => sum + t.errors, 0),
    firstError: turns[side].find((t) => t.firstError !== null)?.firstError ?? null,
    latency: summarize(latencies[side]),
    turnP50sMs: turns[side].map((t) => t.latency.p50Ms),
    idleCpuMsPerSecond: options.pids === undefined || idle[side].turnsMs === 0 ? null : (idle[side].cpuMs * 1000) / idle[side].turnsMs,
  });
  return { rounds: turns.etcd.length, turnMs: options.turnMs, etcd: sideOf('etcd'), orch: sideOf('orch') };
}
