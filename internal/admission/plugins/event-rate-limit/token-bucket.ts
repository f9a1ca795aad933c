// A token bucket on an injected clock (golang.org/x/time/rate behind client-go's
// NewTokenBucketRateLimiterWithClock): it starts full at `burst` tokens, refills at `qps` tokens
// a second up to `burst`, and each accepted event takes one token.

/** One bucket. Not shared between keys. */
export class TokenBucket {
  private tokens: number;
  private lastMs: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: () => number,
  ) {
    this.tokens = burst;
    this.lastMs = clock();
  }

  /** Takes a token if there is one now; never waits. */
  tryAccept(): boolean {
    const nowMs = this.clock();
    // A clock that steps back refills nothing (rate.Limiter does the same).
    const elapsedMs = Math.max(0, nowMs - this.lastMs);
    this.tokens = Math.min(this.burst, this.tokens + (elapsedMs / 1000) * this.qps);
    this.lastMs = Math.max(this.lastMs, nowMs);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
