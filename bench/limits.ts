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
   * Unmeasured writes at c=16 before a store's points, the turns of one client and the service
   * account's creates, the same for every system: a JIT-compiled server (orch) is measured warm, as
   * a compiled one (etcd) is. V8 compiles a replica's hot paths over its first 10-15 s of writes;
   * bench/probe-warmup.ts shows the curve, and bench/README.md gives its numbers.
   */
  readonly warmupMs: number;
  /** Unmeasured reads after the writes' warm-up (the read path is short and warms in seconds). */
  readonly readWarmupMs: number;
  /** Rounds of one client's writes, then reads, with etcd and orch's store in turns (bench/in-turns.ts), and each turn's length. */
  readonly singleClientTurns: number;
  readonly singleClientTurnMs: number;
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
  /** Leader SIGKILLs of the failover phase (each followed by a restart and catch-up of the killed replica). */
  readonly failoverKills: number;
  /** Bound on one kill's wait for the first acknowledged write. */
  readonly failoverMsMax: number;
  /** Object counts of the scale curve (bench/scale-bench.ts), one fresh cluster each; 100,000 only with BENCH_SCALE=1. */
  readonly scaleCounts: readonly number[];
  /** Writes a stopped follower misses in the scale curve before it is started again. */
  readonly scaleCatchUpWrites: number;
  /** Each phase's time budget, by phase name (`phaseBudgetMs`); the run's limit is their sum plus a margin. */
  readonly phaseBudgetsMs: Readonly<Record<string, number>>;
  /** BENCH_PHASES: words of the phases to run (a phase runs when its name contains one of them); null = all. */
  readonly phases: readonly string[] | null;
}

/** The budget of a phase not listed in `phaseBudgetsMs`. */
export const defaultPhaseBudgetMs = 60_000;
/** What the run's limit adds to the sum of the budgets: cleanup, the table and a phase's grace past its budget. */
const runMarginMs = 60_000;

/**
 * Each phase's budget, full and BENCH_QUICK. A phase that measures in a loop stops sampling when its
 * budget is spent and reports what it has; one still running past budget + grace is abandoned
 * (a failure row) so that every later phase still runs.
 */
const phaseBudgets = {
  'machine limits': { full: 45_000, quick: 30_000 },
  'etcd store level': { full: 100_000, quick: 45_000 },
  'orch store (3 processes)': { full: 120_000, quick: 60_000 },
  'store single client, etcd and orch in turns': { full: 175_000, quick: 60_000 },
  'orch start': { full: 90_000, quick: 90_000 },
  'orch store points through the API': { full: 100_000, quick: 45_000 },
  'orch API creates c=64 as a service account': { full: 45_000, quick: 30_000 },
  'orch API level': { full: 240_000, quick: 60_000 },
  'orch Protobuf against JSON': { full: 150_000, quick: 60_000 },
  'orch RBAC-authorized creates against the admin\'s': { full: 45_000, quick: 30_000 },
  'orch creates queued by flow control against exempt ones': { full: 45_000, quick: 30_000 },
  'orch creates with one validating webhook against none': { full: 45_000, quick: 30_000 },
  'orch creates audited at Metadata against unaudited ones': { full: 45_000, quick: 30_000 },
  'orch creates of a custom kind with three CEL rules against ConfigMaps': { full: 45_000, quick: 30_000 },
  'orch creates while another client floods LISTs': { full: 60_000, quick: 40_000 },
  'orch watch fan-out': { full: 90_000, quick: 60_000 },
  'orch failover': { full: 420_000, quick: 90_000 },
  'orch scale curve': { full: 300_000, quick: 120_000 },
} as const satisfies Readonly<Record<string, { full: number; quick: number }>>;

/** The name of a phase of `make bench`: a typo in a phase's name fails to compile. */
export type PhaseName = keyof typeof phaseBudgets;

/** A phase's time budget as its body sees it: the loops inside stop sampling at `deadline`. */
export interface PhaseBudget {
  readonly ms: number;
  /** performance.now() at which the budget is spent. */
  readonly deadline: number;
}

/** The time budget of the phase named `name`. */
export function phaseBudgetMs(limits: BenchLimits, name: string): number {
  return limits.phaseBudgetsMs[name] ?? defaultPhaseBudgetMs;
}

/** Whether the phase named `name` runs: every phase without BENCH_PHASES, else those whose name contains one of its words. */
export function phaseSelected(limits: BenchLimits, name: string): boolean {
  return limits.phases === null || limits.phases.some((word) => name.includes(word));
}

/** The limits for this run (full unless BENCH_QUICK=1). */
export function benchLimits(env: NodeJS.ProcessEnv = process.env): BenchLimits {
  const quick = env['BENCH_QUICK'] === '1';
  const phaseBudgetsMs: Record<string, number> = Object.fromEntries(Object.entries(phaseBudgets).map(([name, b]) => [name, quick ? b.quick : b.full]));
  // BENCH_SCALE=1 adds the 100,000-object point (about 4 minutes of creates alone): its budget, and so the run's limit, grow.
  const scale = env['BENCH_SCALE'] === '1' && !quick;
  if (scale) phaseBudgetsMs['orch scale curve' satisfies PhaseName] = 900_000;
  return {
    quick,
    // Every phase's budget, so that the watchdog never cuts a run whose phases keep to theirs.
    runMsMax: Object.values(phaseBudgetsMs).reduce((a, b) => a + b, 0) + runMarginMs,
    pointMs: quick ? 1_000 : 5_000,
    concurrencies: [1, 16, 64, 256],
    valueBytes: 1024,
    readKeys: quick ? 50 : 200,
    warmupMs: quick ? 500 : 15_000,
    readWarmupMs: quick ? 500 : 3_000,
    singleClientTurns: quick ? 2 : 6,
    singleClientTurnMs: quick ? 1_000 : 3_000,
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
    failoverKills: quick ? 3 : 20,
    failoverMsMax: 30_000,
    scaleCounts: quick ? [1_000] : scale ? [1_000, 10_000, 100_000] : [1_000, 10_000],
    scaleCatchUpWrites: quick ? 1_000 : 10_000,
    phaseBudgetsMs,
    phases: env['BENCH_PHASES'] ? env['BENCH_PHASES'].split(',').map((w) => w.trim()).filter((w) => w !== '') : null,
  };
}
