// The connection pools of a client, one per endpoint, and their replacement when the client
// certificate changes: TLS presents the certificate only at the handshake, so a new certificate
// needs new connections (client-go closes every connection of its dialer for the same reason).
import type { Pool } from 'undici';
import type { Endpoint } from './endpoints.ts';
import { createPool, type TransportSecurity } from './transport.ts';

/** One pool per endpoint, all presenting the same client certificate. */
export class EndpointPools {
  private pools = new Map<Endpoint, Pool>();
  /** Replaced pools still finishing their in-flight requests (watches included). */
  private readonly retiring = new Set<Pool>();
  private security: TransportSecurity;
  /** Set by destroy(): a credential answer arriving after it must not make pools nothing would close. */
  private destroyed = false;

  constructor(
    private readonly endpoints: readonly Endpoint[],
    security: TransportSecurity,
  ) {
    this.security = security;
    for (const endpoint of endpoints) this.pools.set(endpoint, createPool(endpoint.url, security));
  }

  /** The pool for `endpoint`; use it at once (before any await) so a replacement cannot close it under you. */
  get(endpoint: Endpoint): Pool {
    const pool = this.pools.get(endpoint);
    if (pool === undefined) throw new Error('assertion failed: endpoint without a pool');
    return pool;
  }

  /**
   * Presents this certificate and key on new connections from now on. When they differ from the
   * current pair every pool is replaced, so the next request makes a new handshake; the old pools
   * close once their in-flight requests end.
   */
  useClientCertificate(clientCertPem: string, clientKeyPem: string): void {
    if (this.destroyed) return;
    if (this.security.clientCertPem === clientCertPem && this.security.clientKeyPem === clientKeyPem) return;
    this.security = { ...this.security, clientCertPem, clientKeyPem };
    const old = this.pools;
    this.pools = new Map(this.endpoints.map((endpoint) => [endpoint, createPool(endpoint.url, this.security)]));
    for (const pool of old.values()) {
      this.retiring.add(pool);
      pool.close().catch(() => undefined).finally(() => this.retiring.delete(pool));
    }
  }

  /** Destroys every pool, retiring ones included; in-flight requests fail. */
  async destroy(): Promise<void> {
    this.destroyed = true;
    await Promise.all([...this.pools.values(), ...this.retiring].map((pool) => pool.destroy()));
  }
}
