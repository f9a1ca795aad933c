// An HTTPS client of one orch replica for the benchmark: keep-alive pool, bounded timeouts,
// admin token, and a throw on any unexpected status so failures are counted, not timed.
import { Pool } from 'undici';

/** One orch replica's API, as the benchmark drives it. */
export class OrchClient {
  private readonly pool: Pool;

  constructor(readonly baseUrl: string, caPem: string, private readonly token: string, options: { connections: number; timeoutMs: number }) {
    this.pool = new Pool(baseUrl, {
      connect: { ca: caPem },
      connections: options.connections,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Sends a request and returns the parsed JSON body; throws unless the status is one of `expect`. */
  async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, expect: readonly number[] = [200, 201]): Promise<unknown> {
    return (await this.request(method, path, body, expect)).body;
  }

  /** call, with the response's headers. */
  async request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, expect: readonly number[] = [200, 201]): Promise<{ body: unknown; headers: Record<string, string | string[] | undefined> }> {
    const res = await this.pool.request({
      method,
      path,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    if (!expect.includes(res.statusCode)) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    return { body: text === '' ? undefined : JSON.parse(text) as unknown, headers: res.headers };
  }

  /** The text of /metrics (Prometheus format). */
  async metrics(): Promise<string> {
    const res = await this.pool.request({ method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${this.token}` } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`/metrics: ${res.statusCode}`);
    return text;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/** A ConfigMap named `name` whose data holds `valueBytes` bytes of `fill` (change it to make an update a real write). */
export function configMap(name: string, valueBytes: number, resourceVersion?: string, fill = 'x'): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
    data: { v: fill.repeat(valueBytes) },
  };
}

/** The resourceVersion of an object answer; throws when there is none. */
export function resourceVersionOf(object: unknown): string {
  const rv = (object as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
  if (typeof rv !== 'string') throw new Error('answer has no metadata.resourceVersion');
  return rv;
}
