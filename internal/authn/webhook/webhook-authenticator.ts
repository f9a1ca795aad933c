// --authentication-token-webhook-*: a TokenReview POSTed to a remote service decides (kube's
// webhook token authenticator behind its token cache). Answers, yes or no, are cached for the TTL;
// errors (the webhook's own, or a webhook that cannot be reached) are a 401, never a 500, and are
// not cached, so the webhook is asked again.
import { authenticated, failed, noOpinion } from '../authenticator.ts';
import type { TokenAuthenticator } from '../authenticator.ts';
import { OutboundRequestError } from '../https-client.ts';
import type { OutboundRequest, OutboundResponse } from '../https-client.ts';
import { TokenResultCache } from '../token-cache.ts';
import type { CacheDecision } from '../token-cache.ts';
import type { WebhookEndpoint } from './kubeconfig.ts';
import { defaultWebhookBackoff, withRetries } from './retry-backoff.ts';
import type { RetryBackoff } from './retry-backoff.ts';
import { tokenReviewRequest, tokenReviewStatus } from './token-review.ts';
import type { TokenReviewStatus, TokenReviewVersion } from './token-review.ts';

/** What the webhook authenticator needs. */
export interface WebhookAuthenticatorOptions {
  readonly endpoint: WebhookEndpoint;
  /** --authentication-token-webhook-version (default v1beta1). */
  readonly version: TokenReviewVersion;
  /** --authentication-token-webhook-cache-ttl in ms (default 2 minutes); 0 disables the cache. */
  readonly cacheTtlMs: number;
  /** --api-audiences: sent in spec.audiences, and the answer must share one of them. */
  readonly implicitAudiences: readonly string[];
  readonly clock: () => number;
  readonly send: (request: OutboundRequest) => Promise<OutboundResponse>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly backoff?: RetryBackoff;
}

/** The default cache TTL: two minutes. */
export const defaultWebhookCacheTtlMs = 2 * 60 * 1000;

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

async function review(options: WebhookAuthenticatorOptions, token: string, audiences: readonly string[]): Promise<TokenReviewStatus> {
  const request: OutboundRequest = {
    method: 'POST',
    url: options.endpoint.url,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(options.endpoint.bearerToken === undefined ? {} : { authorization: `Bearer ${options.endpoint.bearerToken}` }),
    },
    body: tokenReviewRequest(options.version, token, audiences),
    tls: options.endpoint.tls,
  };
  return withRetries(
    options.backoff ?? defaultWebhookBackoff,
    async () => {
      let response: OutboundResponse;
      try {
        response = await options.send(request);
      } catch (error) {
        const transient = error instanceof OutboundRequestError && error.transient;
        const failure = new Error(`webhook: ${error instanceof Error ? error.message : 'request failed'}`);
        if (transient) return { done: false, error: failure };
        throw failure;
      }
      if (retryable(response.status)) return { done: false, error: new Error(`webhook: answered ${response.status}`) };
      if (response.status < 200 || response.status > 299) throw new Error(`webhook: answered ${response.status}`);
      const status = tokenReviewStatus(response.body.toString('utf8'));
      if (status === undefined) throw new Error('webhook: answer is not a TokenReview');
      return { done: true, value: status };
    },
    options.sleep,
  );
}

async function decide(options: WebhookAuthenticatorOptions, token: string, wanted: readonly string[], checkAudiences: boolean): Promise<CacheDecision> {
  let status: TokenReviewStatus;
  try {
    status = await review(options, token, checkAudiences ? wanted : []);
  } catch (error) {
    return { outcome: failed(error instanceof Error ? error.message : 'webhook: request failed'), ttlMs: 0 };
  }
  const ttlMs = options.cacheTtlMs;
  // A plain "no" is cached; a "no" with an error is not (kube builds this cache with cacheErrs false).
  if (!status.authenticated) return status.error === '' ? { outcome: noOpinion, ttlMs } : { outcome: failed(`webhook: ${status.error}`), ttlMs: 0 };
  let audiences: string[] | undefined;
  if (checkAudiences) {
    const granted = status.audiences.length > 0 ? status.audiences : options.implicitAudiences;
    audiences = wanted.filter((a) => granted.includes(a));
    if (audiences.length === 0) return { outcome: noOpinion, ttlMs };
  }
  return { outcome: authenticated(status.user, audiences), ttlMs };
}

/** The webhook token authenticator with its cache. */
export function webhookTokenAuthenticator(options: WebhookAuthenticatorOptions): TokenAuthenticator {
  const cache = new TokenResultCache(options.clock);
  const checkAudiences = options.implicitAudiences.length > 0;
  return {
    name: 'webhook',
    authenticateToken(token, requestedAudiences) {
      const wanted = requestedAudiences ?? options.implicitAudiences;
      return cache.get(token, checkAudiences ? wanted : [], () => decide(options, token, wanted, checkAudiences));
    },
  };
}
