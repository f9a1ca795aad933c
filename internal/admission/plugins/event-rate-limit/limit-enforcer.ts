// One configured limit at work: it picks the event's key for its type (nothing for Server, the
// namespace, the user name, or the event's source and involved object run together) and takes a
// token from that key's bucket. A refusal names the type and the key, as kube's does.
import type { AdmissionAttributes } from '../../attributes.ts';
import type { Limit, LimitType } from './config.ts';
import { LruCache } from './lru-cache.ts';
import { TokenBucket } from './token-bucket.ts';

/** Keys kept per limit when the configuration leaves cacheSize 0 (kube's default). */
export const defaultCacheSize = 4096;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function sourceAndObjectKey(event: unknown): string {
  const source = field(event, 'source');
  const involved = field(event, 'involvedObject');
  return [
    text(field(source, 'component')),
    text(field(source, 'host')),
    ...['kind', 'namespace', 'name', 'uid', 'apiVersion'].map((name) => text(field(involved, name))),
  ].join('');
}

const keyOf: Record<LimitType, (attributes: AdmissionAttributes) => string> = {
  Server: () => '',
  Namespace: (attributes) => attributes.namespace,
  User: (attributes) => attributes.userInfo.username,
  SourceAndObject: (attributes) => (attributes.object === undefined ? '' : sourceAndObjectKey(attributes.object)),
};

/** Enforces one limit. */
export class LimitEnforcer {
  private readonly buckets: LruCache<TokenBucket>;

  constructor(
    private readonly limit: Limit,
    private readonly clock: () => number,
  ) {
    // Server has one key, so a one-entry cache is its single bucket.
    this.buckets = new LruCache(limit.type === 'Server' ? 1 : limit.cacheSize || defaultCacheSize);
  }

  /** Takes a token for the event; returns kube's refusal text when the key's bucket is empty. */
  accept(attributes: AdmissionAttributes): string | undefined {
    const key = keyOf[this.limit.type](attributes);
    const bucket = this.buckets.getOrAdd(key, () => new TokenBucket(this.limit.qps, this.limit.burst, this.clock));
    return bucket.tryAccept() ? undefined : `limit reached on type ${this.limit.type} for key ${key}`;
  }
}
