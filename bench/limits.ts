// Every size, count and time bound of the benchmark, in one place. BENCH_QUICK=1 picks the smoke set.

/** The bounds of one benchmark run. */
export interface BenchLimits {
  readonly quick: boolean;
  /** The whole run is stopped (processes killed, partial table printed) after this long. */
  readonly runMsMax: number;
  /** Duration of each measured point of the store level (one system, one operation, one concurrency). */
  readonly pointMs: number;
  readonly concurrencies: readonly number[];
  readonly valueBytes: number;
  /** Keys written before the read points so that reads hit existing keys. */
  readonly readKeys: number;
  /**
   * Unmeasured writes, then reads, at the middle concurrency before a store's points, the same
   * for every store: a JIT-compiled server (orch) is measured warm, as a compiled one (etcd) is.
   */
  readonly warmupMs: number;
  readonly fsyncMs: number;
  readonly roundTrips: number;
  readonly http2Ms: number;
  readonly http2Streams: number;
  /** Object counts of the API-level rows. */
  readonly apiCounts: readonly number[];
  readonly apiConcurrency: number;
  readonly watchers: number;
  readonly watchWrites: number;
  readonly requestTimeoutMs: number;
  readonly clusterReadyMs: number;
  readonly failoverMsMax: number;
  /** BENCH_PHASES: words of the phases to run (a phase runs when its name contains one of them); null = all. */
  readonly phases: readonly string[] | null;
}

/** Whether the phase named `name` runs: every phase without BENCH_PHASES, else those whose name contains one of its words. */
export function phaseSelected(limits: BenchLimits, name: string): boolean {
  return limits.phases === null || limits.phases.some((word) => name.includes(word));
}

/** The limits for this run (full unless BENCH_QUICK=1). */
export function benchLimits(env: NodeJS.ProcessEnv = process.env): BenchLimits {
  const quick = env['BENCH_QUICK'] === '1';
  return {
    quick,
    runMsMax: quick ? 4 * 60_000 : 14 * 60_000,
    pointMs: quick ? 1_000 : 5_000,
    concurrencies: [1, 16, 256],
    valueBytes: 1024,
    readKeys: quick ? 50 : 200,
    warmupMs: quick ? 500 : 3_000,
    fsyncMs: quick ? 500 : 2_000,
    roundTrips: quick ? 500 : 5_000,
    http2Ms: quick ? 1_000 : 3_000,
    http2Streams: 64,
    apiCounts: quick ? [100] : [1_000, 10_000],
    apiConcurrency: 32,
    watchers: quick ? 50 : 500,
    watchWrites: quick ? 5 : 20,
    requestTimeoutMs: 15_000,
    clusterReadyMs: 120_000,
    failoverMsMax: 60_000,
    phases: env['BENCH_PHASES'] ? env['BENCH_PHASES'].split(',').map((w) => w.trim()).filter((w) => w !== '') : null,
  };
}
