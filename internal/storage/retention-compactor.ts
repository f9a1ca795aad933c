// Keeps history for the retention window and compacts what is older, periodically. Only the
// replica that `shouldRun()` (the leader) acts; the clock is read here, never in apply.
import { compactionIntervalMsMax } from './limits.ts';
import type { Revision } from './storage.ts';

/** What the compactor needs: where history stands and how to propose a compaction. */
export interface RetentionCompactorOptions {
  readonly retentionMs: number;
  /** Period between runs; default a quarter of the retention, at most `compactionIntervalMsMax`, at least 10 ms. */
  readonly intervalMs?: number;
  /** Whether this replica should compact now (the leader). */
  readonly shouldRun: () => boolean;
  /** The newest revision written at or before a wall-clock time (by the rows' `ts`). */
  readonly revisionAtOrBefore: (timestampMs: number) => Revision;
  readonly compactedRevision: () => Revision;
  readonly compact: (rev: Revision) => Promise<void>;
  readonly now?: () => number;
}

/** A running compactor. */
export interface RetentionCompactor {
  /** One pass now (what the timer does); never throws, a failed pass is retried next period. */
  runOnce(): Promise<void>;
  stop(): void;
}

/** Starts compacting history older than `retentionMs` every interval. */
export function startRetentionCompactor(options: RetentionCompactorOptions): RetentionCompactor {
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? Math.min(compactionIntervalMsMax, Math.max(10, Math.floor(options.retentionMs / 4)));
  let running = false;
  const runOnce = async (): Promise<void> => {
    if (running || !options.shouldRun()) return;
    running = true;
    try {
      const target = options.revisionAtOrBefore(now() - options.retentionMs);
      if (target > options.compactedRevision()) await options.compact(target);
    } catch {
      // Not the leader any more, or the store is closing: the next period tries again.
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void runOnce(), intervalMs);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
