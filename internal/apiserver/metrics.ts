import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The API's request metrics, registered on one prom-client Registry. */
export class ApiMetrics {
  readonly requests: Counter<'verb' | 'group' | 'version' | 'resource' | 'subresource' | 'code'>;
  readonly duration: Histogram<'verb' | 'group' | 'version' | 'resource' | 'subresource'>;
  /** kube's apiserver_requested_deprecated_apis: 1 for each deprecated API some request was served from. */
  readonly deprecatedApis: Gauge<'group' | 'version' | 'resource' | 'subresource' | 'removed_release'>;

  constructor(readonly registry: Registry = new Registry()) {
    this.requests = new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of API requests, by verb, group, version, resource, subresource and HTTP code.',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'code'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency of API requests in seconds, by verb, group, version, resource and subresource.',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource'],
      buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
      registers: [registry],
    });
    this.deprecatedApis = new Gauge({
      name: 'apiserver_requested_deprecated_apis',
      help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
      registers: [registry],
    });
  }

  /** Marks a deprecated API as requested (kube sets 1; it is never reset while the server runs). */
  deprecatedApiRequested(labels: { group: string; version: string; resource: string; subresource: string }, removedRelease: string): void {
    this.deprecatedApis.set({ ...labels, removed_release: removedRelease }, 1);
  }

  /** Records one finished request. */
  observe(labels: { verb: string; group: string; version: string; resource: string; subresource: string }, code: number, seconds: number): void {
    this.requests.inc({ ...labels, code: String(code) });
    this.duration.observe(labels, seconds);
  }

  /** The text exposition of every metric on the registry (ours and those others registered). */
  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
