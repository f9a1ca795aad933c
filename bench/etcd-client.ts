// A client of etcd's v3 JSON gateway (HTTP/1.1 + JSON, base64 keys and values) with a keep-alive
// pool per member. It drives both sides of the store level: etcd's members, and orch's store
// replicas, which answer the same two calls (bench/store-shim.ts), so both pay the same client and
// HTTP+JSON cost. Why the gateway and not gRPC: orch's clients speak HTTP+JSON, so its shim does
// too, and then etcd must sit behind the same kind of layer to be like for like. The gateway adds
// a hop inside etcd (it proxies to its own gRPC server), so etcd's numbers here are a lower bound
// of etcd.
import { Pool } from 'undici';

/** A running cluster that answers etcd's JSON gateway calls (etcd, or orch's store): one client URL per member, and a stop that ends every process. */
export interface GatewayCluster {
  readonly clientUrls: readonly string[];
  readonly pids: readonly number[];
  stop(): Promise<void>;
}

/** Puts and linearizable ranges against an etcd cluster (or orch's store shim); operation `i` goes to member i mod N. */
export class EtcdJsonClient {
  private readonly pools: Pool[];

  constructor(clientUrls: readonly string[], options: { connectionsPerMember: number; timeoutMs: number }) {
    this.pools = clientUrls.map((url) => new Pool(url, {
      connections: options.connectionsPerMember,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    }));
  }

  /** Writes `value` at `key` through member `i mod N`; throws on any non-200 answer. */
  async put(i: number, key: string, value: string): Promise<void> {
    await this.post(i, '/v3/kv/put', { key: b64(key), value: b64(value) });
  }

  /** Reads `key` linearizably (serializable: false) through member `i mod N`; throws when it is missing. */
  async get(i: number, key: string): Promise<void> {
    const body = await this.post(i, '/v3/kv/range', { key: b64(key) }) as { kvs?: unknown[] };
    if (!Array.isArray(body.kvs) || body.kvs.length !== 1) throw new Error(`etcd range ${key}: not found`);
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((p) => p.close()));
  }

  private async post(i: number, path: string, body: unknown): Promise<unknown> {
    const pool = this.pools[i % this.pools.length];
    if (pool === undefined) throw new Error('assert: etcd client has no members');
    const res = await pool.request({ method: 'POST', path, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`etcd ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    return JSON.parse(text) as unknown;
  }
}

function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}
