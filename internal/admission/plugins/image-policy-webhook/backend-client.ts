// Asks the image policy back end: POST the ImageReview to the kubeconfig's server with its TLS
// trust and client certificate, retrying what may pass (a reset connection, a timeout, 429,
// 5xx) with kube's webhook backoff from `retryBackoff`. Any other failure is final.
import { OutboundRequestError, sendOutboundRequest } from '../../../authn/https-client.ts';
import type { OutboundRequest, OutboundResponse } from '../../../authn/https-client.ts';
import type { WebhookEndpoint } from '../../../authn/webhook/kubeconfig.ts';
import { defaultWebhookBackoff, withRetries } from '../../../authn/webhook/retry-backoff.ts';
import { parseImageReviewStatus } from './image-review.ts';
import type { ImageReviewStatus } from './image-review.ts';

/** How the client reaches the back end; `send` and `sleep` are injectable for tests. */
export interface BackendClientOptions {
  readonly endpoint: WebhookEndpoint;
  readonly retryBackoffMs: number;
  readonly send?: (request: OutboundRequest) => Promise<OutboundResponse>;
  readonly sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs `body` and reads the answer's status; rejects with an Error when the back end fails. */
export function askBackend(options: BackendClientOptions, body: string): Promise<ImageReviewStatus> {
  const send = options.send ?? sendOutboundRequest;
  const { endpoint } = options;
  const request: OutboundRequest = {
    method: 'POST',
    url: endpoint.url,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(endpoint.bearerToken === undefined ? {} : { authorization: `Bearer ${endpoint.bearerToken}` }),
    },
    body,
    tls: endpoint.tls,
  };
  return withRetries(
    { ...defaultWebhookBackoff, initialDelayMs: options.retryBackoffMs },
    async () => {
      let response: OutboundResponse;
      try {
        response = await send(request);
      } catch (error) {
        const failure = new Error(`Post "${endpoint.url.href}": ${error instanceof Error ? error.message : 'request failed'}`);
        if (error instanceof OutboundRequestError && error.transient) return { done: false, error: failure };
        throw failure;
      }
      const failed = new Error(`Error contacting webhook: ${response.status}`);
      if (response.status === 429 || response.status >= 500) return { done: false, error: failed };
      if (response.status < 200 || response.status >= 300) throw failed;
      return { done: true, value: parseImageReviewStatus(response.body.toString('utf8')) };
    },
    options.sleep ?? sleepFor,
  );
}
