// kube's webhook retry (DefaultRetryBackoffWithInitialDelay(500ms), DefaultShouldRetry): up to 5
// attempts, waits of 500 ms growing 1.5x with 20% jitter, only for errors that say "try again"
// (a reset connection, a timeout, 429, 5xx); a refused connection or a 4xx is final at once.

/** The backoff: how many attempts and how long to wait before each retry. */
export interface RetryBackoff {
  readonly attempts: number;
  readonly initialDelayMs: number;
  readonly factor: number;
  readonly jitter: number;
}

/** kube's default webhook backoff. */
export const defaultWebhookBackoff: RetryBackoff = { attempts: 5, initialDelayMs: 500, factor: 1.5, jitter: 0.2 };

/** Runs `attempt` until it answers `done` or is out of attempts; `sleep` and `random` are injected for tests. */
export async function withRetries<T>(
  backoff: RetryBackoff,
  attempt: () => Promise<{ readonly done: true; readonly value: T } | { readonly done: false; readonly error: Error }>,
  sleep: (ms: number) => Promise<void>,
  random: () => number = Math.random,
): Promise<T> {
  let delayMs = backoff.initialDelayMs;
  let lastError: Error = new Error('no attempt made');
  for (let i = 0; i < backoff.attempts; i++) {
    if (i > 0) {
      await sleep(delayMs * (1 + backoff.jitter * random()));
      delayMs *= backoff.factor;
    }
    const result = await attempt();
    if (result.done) return result.value;
    lastError = result.error;
  }
  throw lastError;
}
