// A bounded cache of token authentication results with a time to live, keyed by a SHA-256 of a
// per-process random secret, the audiences and the token (so the cache never holds a token and its
// keys are useless outside this process). Concurrent lookups of one token share one call.
import { hash, randomBytes } from 'node:crypto';
import type { AuthenticationOutcome, TokenAuthenticator } from './authenticator.ts';
import { tokenCacheEntriesMax } from './limits.ts';

interface Entry {
  readonly outcome: AuthenticationOutcome;
  readonly expiresAtMs: number;
}

/** What the cache does with a result: keep it for `ttlMs`, or not at all. */
export type CacheDecision = { readonly outcome: AuthenticationOutcome; readonly ttlMs: number };

/** The cache. */
export class TokenResultCache {
  // A keyed hash rather than an HMAC object per lookup (about 17 us of each request's CPU): the
  // one-shot hash of the secret before the data is as unguessable a key, and nothing is verified with it.
  private readonly secret = randomBytes(32).toString('base64');
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<AuthenticationOutcome>>();

  constructor(private readonly clock: () => number, private readonly entriesMax = tokenCacheEntriesMax) {}

  /** The cached outcome for (token, audiences), or the one `compute` gives (stored per its decision). */
  async get(token: string, audiences: readonly string[], compute: () => Promise<CacheDecision>): Promise<AuthenticationOutcome> {
    const key = hash('sha256', `${this.secret}\0${JSON.stringify(audiences)}\0${token}`, 'base64');
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiresAtMs > this.clock()) return entry.outcome;
    if (entry !== undefined) this.entries.delete(key);
    const running = this.inflight.get(key);
    if (running !== undefined) return running;
    const promise = compute()
      .then((decision) => {
        if (decision.ttlMs > 0) this.store(key, { outcome: decision.outcome, expiresAtMs: this.clock() + decision.ttlMs });
        return decision.outcome;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, promise);
    return promise;
  }

  /** How many results are cached (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    while (this.entries.size >= this.entriesMax) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }
}

/** How long the token chain's answers are kept (kube-apiserver's built-in 10 s success, 0 failure). */
export interface TokenCacheTtls {
  readonly successTtlMs: number;
  readonly failureTtlMs: number;
}

/**
 * `inner` behind a cache (kube's cached token authenticator over the token union): a success is
 * reused for `successTtlMs`, so a revoked token may work that much longer, which kube accepts to
 * spare a signature check and store lookups on every request.
 */
export function cachedTokenAuthenticator(inner: TokenAuthenticator, ttls: TokenCacheTtls, clock: () => number): TokenAuthenticator {
  if (ttls.successTtlMs <= 0 && ttls.failureTtlMs <= 0) return inner;
  const cache = new TokenResultCache(clock);
  return {
    name: inner.name,
    authenticateToken(token, audiences) {
      return cache.get(token, audiences ?? [], async () => {
        const outcome = await inner.authenticateToken(token, audiences);
        return { outcome, ttlMs: outcome.kind === 'authenticated' ? ttls.successTtlMs : ttls.failureTtlMs };
      });
    },
  };
}
