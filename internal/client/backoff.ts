// Exponential backoff with full jitter: spreads retries of many clients so that a recovering
// replica is not hit by all of them at once.

/** Injected time and randomness, so tests (and simulations) control both. */
export interface Clock {
  /** Milliseconds, monotonic enough for backoff arithmetic. */
  now(): number;
  /** Uniform in [0, 1). */
  random(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/** The real clock: Date.now, Math.random, setTimeout. */
export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Delay before retry number `attempt` (1-based): uniform in [0, min(maxMs, baseMs * 2^(attempt-1))). */
export function jitteredBackoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/** Ejection period after `failures` consecutive failures: the capped exponential, jittered by +-20%. */
export function ejectionMs(failures: number, baseMs: number, maxMs: number, random: () => number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const period = Math.min(maxMs, baseMs * 2 ** exponent);
  return Math.floor(period * (0.8 + 0.4 * random()));
}
