// One HTTPS POST of a ConversionReview, with a deadline for the whole exchange and a bounded
// response, its failures worded as Go's http client words them (`Post "<url>": ...`), which kube
// puts after "conversion webhook for <kind> failed: ". node:https through one keep-alive agent of
// its own: connections are reused only between calls with the same address and TLS material, as
// kube's cached webhook REST clients do. (The admission layer has its own client; the layering
// keeps this one below it.)
import * as https from 'node:https';
import { isIP } from 'node:net';
import { conversionIdleSocketMs, conversionResponseBytesMax, conversionSocketsPerHostMax } from './limits.ts';

/** Where a request goes: `url` is what it names (and the TLS server name); `dial` the address connected to when it differs. */
export interface WebhookPost {
  readonly url: URL;
  /** The URL as Go prints it (an explicit port kept), for the Host header and error messages. */
  readonly shown: string;
  readonly authority: string;
  readonly dial?: { readonly host: string; readonly port: number };
  readonly body: string;
  /** Trusted CAs (PEM); absent: the host's roots. */
  readonly ca?: string;
  readonly timeoutMs: number;
}

/** The whole answer. */
export interface WebhookAnswer {
  readonly status: number;
  readonly body: Buffer;
}

/** A failed exchange; `message` is Go's wording (`Post "<url>": <reason>`). */
export class WebhookPostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookPostError';
  }
}

const unknownAuthority = 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
const certificateErrors: Readonly<Record<string, string>> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: unknownAuthority,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: unknownAuthority,
  SELF_SIGNED_CERT_IN_CHAIN: unknownAuthority,
  DEPTH_ZERO_SELF_SIGNED_CERT: unknownAuthority,
  CERT_HAS_EXPIRED: 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid',
  CERT_NOT_YET_VALID: 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid',
};

/** Go's text for a transport failure. */
function goReason(err: NodeJS.ErrnoException, address: string): string {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return `dial tcp ${address}: connect: connection refused`;
  if (code === 'ECONNRESET') return 'read: connection reset by peer';
  if (code === 'ENOTFOUND') return `dial tcp: lookup ${address.replace(/:\d+$/, '')}: no such host`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: x509: ${err.message}`;
  return certificateErrors[code] ?? err.message;
}

/** The conversion webhooks' connection pool. */
const conversionAgent = new https.Agent({ keepAlive: true, maxSockets: conversionSocketsPerHostMax, maxFreeSockets: conversionSocketsPerHostMax, timeout: conversionIdleSocketMs });

function requestOptions(post: WebhookPost): https.RequestOptions {
  const servername = post.url.hostname.replace(/^\[|\]$/g, '');
  return {
    method: 'POST',
    host: post.dial?.host ?? servername,
    port: post.dial?.port ?? (post.url.port === '' ? 443 : Number(post.url.port)),
    path: `${post.url.pathname}${post.url.search}`,
    headers: {
      host: post.authority,
      'content-type': 'application/json',
      accept: 'application/json, */*',
      'user-agent': 'kube-apiserver-admission',
      'content-length': String(Buffer.byteLength(post.body)),
    },
    // Node refuses an IP address as SNI name; the certificate is still checked against it.
    ...(isIP(servername) === 0 ? { servername } : {}),
    ...(post.ca === undefined ? {} : { ca: post.ca }),
    agent: conversionAgent,
  };
}

/** Sends `post`; rejects with WebhookPostError (deadline, refused, TLS, too large an answer). */
export function postConversionReview(post: WebhookPost): Promise<WebhookAnswer> {
  const options = requestOptions(post);
  const address = `${options.host}:${options.port}`;
  const prefix = `Post ${JSON.stringify(post.shown)}`;
  const failure = (err: Error): WebhookPostError => (err instanceof WebhookPostError ? err : new WebhookPostError(`${prefix}: ${goReason(err, address)}`));
  return new Promise((resolve, reject) => {
    const req = https.request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > conversionResponseBytesMax) req.destroy(new WebhookPostError(`${prefix}: response body larger than ${conversionResponseBytesMax} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(failure(err)));
    });
    // One deadline for the whole exchange, as kube's request context: a webhook that never answers, or drips, cannot hold the read.
    const deadline = setTimeout(() => req.destroy(new WebhookPostError(`${prefix}: context deadline exceeded`)), post.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (err) => reject(failure(err)));
    req.end(post.body);
  });
}
