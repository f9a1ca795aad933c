// The identity provider's signing keys: discovery (`<issuer>/.well-known/openid-configuration`)
// gives the JWKS URL; the JWKS is fetched over HTTPS trusting --oidc-ca-file, and fetched again
// when a token names a key we do not have (key rotation), at most once per
// jwksRefreshIntervalMsMin so that tokens naming made-up kids cannot make us hammer the provider.
import { createLocalJWKSet } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import type { JwsAlgorithm } from '../jwt/algorithms.ts';
import { verifyJwsSignature } from '../jwt/compact-jws.ts';
import type { UnverifiedJws, VerificationKey } from '../jwt/compact-jws.ts';
import type { OutboundRequest, OutboundResponse } from '../https-client.ts';
import { jwksKeysMax, jwksRefreshIntervalMsMin } from '../limits.ts';

/** What the key source needs. */
export interface ProviderKeysOptions {
  readonly issuerUrl: string;
  readonly caPem?: string;
  readonly clock: () => number;
  readonly send: (request: OutboundRequest) => Promise<OutboundResponse>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The usable keys of a JWKS document as jose's local key set: RSA and EC signing keys only, private
 * members dropped, at most jwksKeysMax. jose picks by `kid` and by the token's algorithm (type and
 * curve); a key it cannot import is skipped, as go-jose skips it.
 */
function keySetFromJwks(document: unknown): VerificationKey {
  if (!isRecord(document) || !Array.isArray(document['keys'])) throw new Error('oidc: JWKS has no keys array');
  const keys: JWK[] = [];
  for (const jwk of document['keys'].slice(0, jwksKeysMax)) {
    if (!isRecord(jwk) || (jwk['use'] !== undefined && jwk['use'] !== 'sig')) continue;
    if (jwk['kty'] !== 'RSA' && jwk['kty'] !== 'EC') continue;
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, ...publicPart } = jwk;
    keys.push(publicPart as JWK);
  }
  return createLocalJWKSet({ keys });
}

/**
 * Verifies `jws` against a key set: a token naming a `kid` only against that key, one naming none
 * against every key of its algorithm's type (jose's JWKSMultipleMatchingKeys lists them).
 */
async function verifyWithKeySet(jws: UnverifiedJws, keySet: VerificationKey, allowed: readonly JwsAlgorithm[]): Promise<boolean> {
  try {
    return await verifyJwsSignature(jws, keySet, allowed);
  } catch (error) {
    if (!(Symbol.asyncIterator in (error as object))) return false;
    for await (const key of error as AsyncIterable<CryptoKey>) {
      if (await verifyJwsSignature(jws, async () => key, allowed)) return true;
    }
    return false;
  }
}

/** The provider's keys, discovered and refreshed on demand. */
export class ProviderKeys {
  private jwksUrl: URL | undefined;
  private keys: VerificationKey | undefined;
  private lastFetchMs = Number.NEGATIVE_INFINITY;
  private inflight: Promise<void> | undefined;

  constructor(private readonly options: ProviderKeysOptions) {}

  /** Whether discovery succeeded (tokens are refused until it has). */
  get discovered(): boolean {
    return this.jwksUrl !== undefined;
  }

  /** Reads the discovery document and the JWKS; rejects when either cannot be had or is wrong. */
  async discover(): Promise<void> {
    const base = this.options.issuerUrl.replace(/\/$/, '');
    const document = await this.getJson(new URL(`${base}/.well-known/openid-configuration`));
    if (!isRecord(document)) throw new Error('oidc: discovery document is not an object');
    if (document['issuer'] !== this.options.issuerUrl) throw new Error('oidc: issuer did not match the issuer returned by provider');
    const jwksUri = document['jwks_uri'];
    if (typeof jwksUri !== 'string') throw new Error('oidc: discovery document has no jwks_uri');
    const url = new URL(jwksUri);
    if (url.protocol !== 'https:') throw new Error('oidc: jwks_uri is not https');
    await this.fetchKeys(url);
    this.jwksUrl = url;
  }

  /** Whether `jws` is signed by a provider key with an allowed algorithm; refreshes keys once when none fits. */
  async verify(jws: UnverifiedJws, allowed: readonly JwsAlgorithm[]): Promise<boolean> {
    if (await this.verifyWithCachedKeys(jws, allowed)) return true;
    const url = this.jwksUrl;
    if (url === undefined || this.options.clock() - this.lastFetchMs < jwksRefreshIntervalMsMin) return false;
    this.inflight ??= this.fetchKeys(url).finally(() => (this.inflight = undefined));
    try {
      await this.inflight;
    } catch {
      return false;
    }
    return await this.verifyWithCachedKeys(jws, allowed);
  }

  private async verifyWithCachedKeys(jws: UnverifiedJws, allowed: readonly JwsAlgorithm[]): Promise<boolean> {
    return this.keys !== undefined && (await verifyWithKeySet(jws, this.keys, allowed));
  }

  private async fetchKeys(url: URL): Promise<void> {
    this.lastFetchMs = this.options.clock();
    this.keys = keySetFromJwks(await this.getJson(url));
  }

  private async getJson(url: URL): Promise<unknown> {
    const tls = this.options.caPem === undefined ? {} : { ca: this.options.caPem };
    const response = await this.options.send({ method: 'GET', url, headers: { accept: 'application/json' }, tls });
    if (response.status !== 200) throw new Error(`oidc: ${url.pathname} answered ${response.status}`);
    return JSON.parse(response.body.toString('utf8')) as unknown;
  }
}
