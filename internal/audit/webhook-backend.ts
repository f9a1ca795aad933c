// The webhook backend (k8s.io/apiserver plugin/pkg/audit/webhook): each batch is POSTed to the
// server of the --audit-webhook-config-file kubeconfig as one audit.k8s.io/v1 EventList, retried as
// kube's webhook client retries (5 attempts from --audit-webhook-initial-backoff, growing 1.5x with
// 20% jitter) on what says "try again": a reset connection, a timeout, 429, 5xx, a Retry-After.
// A batch that still fails is counted (apiserver_audit_error_total{plugin="webhook"}) and logged.
import { OutboundRequestError, sendOutboundRequest, type OutboundRequest, type OutboundResponse } from '../authn/https-client.ts';
import { withRetries } from '../authn/webhook/retry-backoff.ts';
import type { WebhookEndpoint } from '../authn/webhook/kubeconfig.ts';
import { pluginErrorMessage } from './log-backend.ts';
import { webhookAttemptsMax, webhookRequestTimeoutMs } from './limits.ts';
import type { AuditMetrics } from './metrics.ts';
import type { EncodedEvent } from './sink.ts';

/** What the webhook sender needs. */
export interface WebhookSenderOptions {
  readonly endpoint: WebhookEndpoint;
  readonly initialBackoffMs: number;
  readonly metrics: AuditMetrics;
  /** The replica's `(message, err?)` log: with an error, a line at level error. */
  readonly log: (message: string, err?: unknown) => void;
  /** The HTTPS client (tests may replace it). */
  readonly send?: (request: OutboundRequest) => Promise<OutboundResponse>;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The EventList of a batch, its items the events' JSON as encoded once. */
export function eventListJson(batch: readonly EncodedEvent[]): string {
  return `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${batch.map((e) => e.json).join(',')}]}`;
}

function retryable(response: OutboundResponse): boolean {
  return response.status === 429 || response.status >= 500 || response.headers['retry-after'] !== undefined;
}

/** A function that sends one batch; it never rejects (a failure is counted and logged). */
export function webhookSender(options: WebhookSenderOptions): (batch: readonly EncodedEvent[]) => Promise<void> {
  const send = options.send ?? sendOutboundRequest;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { endpoint } = options;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, */*' };
  if (endpoint.bearerToken !== undefined) headers.authorization = `Bearer ${endpoint.bearerToken}`;
  const backoff = { attempts: webhookAttemptsMax, initialDelayMs: options.initialBackoffMs, factor: 1.5, jitter: 0.2 };
  return async (batch) => {
    if (batch.length === 0) return;
    const body = eventListJson(batch);
    try {
      await withRetries(backoff, async () => {
        try {
          const response = await send({ method: 'POST', url: endpoint.url, headers, body, tls: endpoint.tls, timeoutMs: webhookRequestTimeoutMs });
          if (response.status >= 200 && response.status < 300) return { done: true, value: undefined };
          const error = new Error(`the server answered ${response.status}: ${response.body.toString('utf8').slice(0, 200)}`);
          if (retryable(response)) return { done: false, error };
          throw error;
        } catch (err) {
          if (err instanceof OutboundRequestError && err.transient) return { done: false, error: err };
          throw err;
        }
      }, sleep);
    } catch (err) {
      options.metrics.pluginError('webhook', batch.length);
      options.log(pluginErrorMessage('webhook', (err as Error).message, batch.map((e) => e.event)), err);
    }
  };
}
