// One HTTP attempt against one endpoint over undici, and the classification of how it failed.
// The classification is the heart of the retry rules, so it lives in one small function.
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { responseBodyBytesMax } from './limits.ts';

/** TLS and credential settings shared by every endpoint of a client. */
export interface TransportSecurity {
  readonly caPem?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
}

/** Creates the connection pool of one endpoint; the caller owns it and closes it. */
export function createPool(url: string, security: TransportSecurity): Pool {
  return new Pool(url, {
    allowH2: false,
    connect: {
      ...(security.caPem === undefined ? {} : { ca: security.caPem }),
      ...(security.clientCertPem === undefined ? {} : { cert: security.clientCertPem }),
      ...(security.clientKeyPem === undefined ? {} : { key: security.clientKeyPem }),
      rejectUnauthorized: security.insecureSkipTlsVerify !== true,
    },
  });
}

/**
 * Error codes that can only happen while establishing the connection (TCP connect, DNS, TLS
 * handshake), i.e. before a single byte of the request was written: such a request certainly did
 * not reach the server. Every other transport error (reset, socket closed, timeouts after connect)
 * happened after the request may have been sent.
 */
const notSentCodes = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Whether a transport error proves that the request was never sent. */
export function isNotSentError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && notSentCodes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether an error is the caller's own abort (never retried). */
export function isAbortError(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown } | null;
  return e !== null && typeof e === 'object' && (e.name === 'AbortError' || e.code === 'UND_ERR_ABORTED');
}

/** A buffered HTTP answer. */
export interface BufferedResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** Reads a response body as text, refusing bodies over `responseBodyBytesMax`. */
export async function readBodyText(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buffer.length;
    if (total > responseBodyBytesMax) {
      body.destroy();
      throw new Error(`response body larger than ${responseBodyBytesMax} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Joins a path and a query object into a request target; undefined values are left out. */
export function requestTarget(path: string, query: Readonly<Record<string, string | number | boolean | undefined>> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  if (search === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}
