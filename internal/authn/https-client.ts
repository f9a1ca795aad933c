// The one outbound HTTP client of authentication (OIDC discovery and JWKS, token webhooks): TLS
// trust and client certificate from configuration, a timeout and a response-size bound on every
// call. node:https keeps it free of any process-wide agent or proxy setting.
import * as http from 'node:http';
import * as https from 'node:https';
import { remoteRequestTimeoutMs, remoteResponseBytesMax } from './limits.ts';

/** TLS settings of an outbound connection (PEM text, not file names). */
export interface TlsClientSettings {
  /** CAs trusted for the server's certificate; absent: the host's roots. */
  readonly ca?: string;
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  /** The name the server's certificate must hold, when not the URL's host. */
  readonly serverName?: string;
  readonly insecureSkipTlsVerify?: boolean;
}

/** One request. */
export interface OutboundRequest {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly tls: TlsClientSettings;
  readonly timeoutMs?: number;
}

/** A response: status and body bytes (never more than remoteResponseBytesMax). */
export interface OutboundResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** An outbound request failed before a complete response (refused, reset, timeout, too large). */
export class OutboundRequestError extends Error {
  constructor(message: string, readonly transient: boolean) {
    super(message);
    this.name = 'OutboundRequestError';
  }
}

function requestOptions(request: OutboundRequest): https.RequestOptions {
  const tls = request.tls;
  return {
    method: request.method,
    headers: { ...(request.headers ?? {}), ...(request.body === undefined ? {} : { 'content-length': Buffer.byteLength(request.body) }) },
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.clientCertificate === undefined ? {} : { cert: tls.clientCertificate }),
    ...(tls.clientKey === undefined ? {} : { key: tls.clientKey }),
    ...(tls.serverName === undefined ? {} : { servername: tls.serverName }),
    rejectUnauthorized: tls.insecureSkipTlsVerify !== true,
    agent: false,
  };
}

/** Sends `request` and reads the whole response. Rejects with OutboundRequestError. */
export function sendOutboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  const transport = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(request.url, requestOptions(request), (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > remoteResponseBytesMax) {
          req.destroy(new OutboundRequestError('response too large', false));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(asOutboundError(err)));
    });
    // A deadline for the whole exchange, not only idle time: a server dripping bytes cannot hold us.
    const deadline = setTimeout(() => req.destroy(new OutboundRequestError('request timed out', true)), request.timeoutMs ?? remoteRequestTimeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (err) => reject(asOutboundError(err)));
    req.end(request.body);
  });
}

function asOutboundError(err: Error): OutboundRequestError {
  if (err instanceof OutboundRequestError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  // kube retries a reset connection, not a refused one (DefaultShouldRetry).
  return new OutboundRequestError(`${code || 'request failed'}`, code === 'ECONNRESET' || code === 'EPIPE');
}
