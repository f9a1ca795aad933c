// One HTTPS POST to a webhook, with a deadline for the whole exchange and a bounded response, its
// failures worded as Go's http client words them (`Post "<url>": context deadline exceeded`), which
// kube puts in its "failed calling webhook" messages. node:https through one keep-alive agent of
// its own (no proxy setting leaks in): connections are reused only between calls with the same
// address and TLS material (the agent keys its pool by them), as kube's cached webhook clients do,
// so a busy webhook costs no TLS handshake per request.
import * as https from 'node:https';
import { isIP } from 'node:net';
import { webhookIdleSocketMs, webhookResponseBytesMax, webhookSocketsPerHostMax } from './limits.ts';

/** TLS material of a call (PEM text). */
export interface PostTls {
  /** Trusted CAs; absent: the host's roots. */
  readonly ca?: string;
  readonly clientCertificate?: string;
  readonly clientKey?: string;
}

/** One call. `url` is what the request names; `dial` the address connected to when it differs (a service's endpoint). */
export interface PostRequest {
  readonly url: URL;
  /** The URL as error messages show it, and the Host header (Go keeps an explicit default port). */
  readonly shown: string;
  readonly authority: string;
  readonly dial?: { readonly host: string; readonly port: number };
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly tls: PostTls;
  readonly timeoutMs: number;
}

/** The whole response. */
export interface PostResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

/** A failed exchange; `message` is Go's wording. */
export class PostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostError';
  }
}

const certificateErrors: Readonly<Record<string, string>> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
  CERT_HAS_EXPIRED: 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid',
  CERT_NOT_YET_VALID: 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid',
};

/** Go's text for a transport failure (the cause after `Post "<url>": `). */
function goReason(err: NodeJS.ErrnoException, address: string): string {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return `dial tcp ${address}: connect: connection refused`;
  if (code === 'ECONNRESET') return 'read: connection reset by peer';
  if (code === 'ENOTFOUND') return `dial tcp: lookup ${address.replace(/:\d+$/, '')}: no such host`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: x509: ${err.message}`;
  return certificateErrors[code] ?? err.message;
}

function requestOptions(request: PostRequest): https.RequestOptions {
  const { url, dial, tls } = request;
  const host = dial?.host ?? url.hostname.replace(/^\[|\]$/g, '');
  const servername = url.hostname.replace(/^\[|\]$/g, '');
  return {
    method: 'POST',
    host,
    port: dial?.port ?? (url.port === '' ? 443 : Number(url.port)),
    path: `${url.pathname}${url.search}`,
    headers: { ...request.headers, host: request.authority, 'content-length': String(Buffer.byteLength(request.body)) },
    // Node refuses an IP address as SNI name; Go then checks the IP against the certificate, as Node does without it.
    ...(isIP(servername) === 0 ? { servername } : {}),
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.clientCertificate === undefined ? {} : { cert: tls.clientCertificate }),
    ...(tls.clientKey === undefined ? {} : { key: tls.clientKey }),
    agent: webhookAgent,
  };
}

/** The webhook calls' connection pool. */
const webhookAgent = new https.Agent({ keepAlive: true, maxSockets: webhookSocketsPerHostMax, maxFreeSockets: webhookSocketsPerHostMax, timeout: webhookIdleSocketMs });

/** Sends `request`; rejects with PostError (timeout, refused, TLS, too large a response). */
export function postOnce(request: PostRequest): Promise<PostResponse> {
  const options = requestOptions(request);
  const address = `${options.host}:${options.port}`;
  const prefix = `Post ${JSON.stringify(request.shown)}`;
  return new Promise((resolve, reject) => {
    const req = https.request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > webhookResponseBytesMax) req.destroy(new PostError(`${prefix}: response body larger than ${webhookResponseBytesMax} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(err instanceof PostError ? err : new PostError(`${prefix}: ${goReason(err, address)}`)));
    });
    // A deadline for the whole exchange, as kube's context: a server that never answers, or drips, cannot hold the request.
    const deadline = setTimeout(() => req.destroy(new PostError(`${prefix}: context deadline exceeded`)), request.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (err) => reject(err instanceof PostError ? err : new PostError(`${prefix}: ${goReason(err, address)}`)));
    req.end(request.body);
  });
}
