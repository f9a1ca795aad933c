// A closed-loop load generator: `concurrency` workers each run one operation at a time until a
// deadline or an operation budget is reached.
import { summarize, type LatencySummary } from './stats.ts';

/** What a closed-loop run measured. */
export interface LoadResult {
  readonly ops: number;
  readonly errors: number;
  /** The first error seen, so a failing point says why. */
  readonly firstError: string | null;
  readonly elapsedMs: number;
  /** Successful operations per second. */
  readonly opsPerSecond: number;
  readonly latency: LatencySummary;
  /** Every successful operation's latency (ms), when `keepLatencies` asked for them. */
  readonly latenciesMs?: readonly number[];
}

/** How to drive a closed loop. `op(seq)` gets a run-wide sequence number, unique per operation. */
export interface LoadOptions {
  readonly concurrency: number;
  /** Stop starting operations after this long. */
  readonly durationMs: number;
  /** Stop after this many operations (default: no budget). */
  readonly opsMax?: number;
  readonly op: (seq: number, worker: number) => Promise<void>;
  /** Return every latency too (to pool several loops' samples). */
  readonly keepLatencies?: boolean;
}

/** Runs the loop; the result counts only successful operations in throughput and latency. */
export async function runClosedLoop(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | null = null;
  const opsMax = options.opsMax ?? Number.POSITIVE_INFINITY;
  const start = performance.now();
  const deadline = start + options.durationMs;
  const worker = async (id: number): Promise<void> => {
    while (next < opsMax && performance.now() < deadline) {
      const seq = next++;
      const t0 = performance.now();
      try {
        await options.op(seq, id);
        latencies.push(performance.now() - t0);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, i) => worker(i)));
  const elapsedMs = performance.now() - start;
  return {
    ops: latencies.length,
    errors,
    firstError,
    elapsedMs,
    opsPerSecond: elapsedMs > 0 ? (latencies.length * 1000) / elapsedMs : 0,
    latency: summarize(latencies),
    ...(options.keepLatencies === true ? { latenciesMs: latencies } : {}),
  };
}
