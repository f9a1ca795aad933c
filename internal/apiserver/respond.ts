import { gzipSync } from 'node:zlib';
import { stringify } from 'yaml';
import type { StatusError } from '../registry/errors/status-error.ts';
import { gzipBytesMin, warningCharsMax, warningsMax } from './limits.ts';
import type { ResponseFormat } from './negotiation.ts';

/** The part of a Node HTTP/1 or HTTP/2 compat response the API uses. */
export interface RawResponse {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: string | number | readonly string[]): unknown;
  /** False when the chunk was buffered because the client is not taking data: wait for 'drain'. */
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  on(event: 'close', listener: () => void): unknown;
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
  /** Ends the response at once, buffered data included (HTTP/1.1: the connection; HTTP/2: the stream). */
  destroy(): unknown;
  flushHeaders?(): void;
  /** The HTTP/2 stream (HTTP/2 only). */
  readonly stream?: { close(code?: number): void; once(event: 'finish', listener: () => void): unknown };
}

/** `text` cut to `max` characters, ending in "..." when cut. */
export function elide(text: string, max = warningCharsMax): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** How one response is encoded: format, indentation, compression, warnings. */
export interface ResponseOptions {
  format: ResponseFormat;
  pretty: boolean;
  gzip: boolean;
}

/** Writes API responses: objects in the negotiated format, Status errors, plain text. */
export class Responder {
  readonly warnings: string[] = [];
  /** Set once the exchange was answered for a handler that runs on (expire): its sends are dropped. */
  private expired = false;

  constructor(
    readonly raw: RawResponse,
    readonly options: ResponseOptions,
  ) {}

  /** Adds a `Warning: 299 - "..."` header item (bounded in number and length). */
  warn(message: string): void {
    if (this.warnings.length < warningsMax) this.warnings.push(elide(message));
  }

  /** An object in the negotiated format (YAML, else JSON) with its media type, parameters not included. */
  encode(body: unknown): { readonly mediaType: 'application/json' | 'application/yaml'; readonly text: string } {
    if (this.options.format === 'yaml') return { mediaType: 'application/yaml', text: stringify(body, { version: '1.1' }) };
    return { mediaType: 'application/json', text: this.options.pretty ? `${JSON.stringify(body, null, 2)}\n` : `${JSON.stringify(body)}\n` };
  }

  /** Sends an object in the negotiated format. */
  send(code: number, body: unknown): void {
    const { mediaType, text } = this.encode(body);
    this.sendBytes(code, mediaType, text);
  }

  /** Sends a Status error (JSON, or YAML when YAML was negotiated). */
  sendError(err: StatusError): void {
    if (this.raw.headersSent) {
      this.raw.end();
      return;
    }
    if (err.details?.retryAfterSeconds !== undefined) this.raw.setHeader('Retry-After', String(err.details.retryAfterSeconds));
    const format = this.options.format === 'yaml' ? 'yaml' : 'json';
    const saved = this.options.format;
    this.options.format = format;
    this.send(err.code, err.toStatus());
    this.options.format = saved;
  }

  /** Answers `err` for a handler that runs on (its request timed out): whatever it sends later is dropped. */
  expire(err: StatusError): void {
    this.sendError(err);
    this.expired = true;
  }

  /** Sends plain text (health checks, metrics). */
  sendText(code: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
    this.sendBytes(code, contentType, text);
  }

  /** Writes headers for a stream (watch) and returns; the caller writes chunks. */
  startStream(contentType: string): void {
    if (this.expired) return;
    this.writeWarnings();
    this.raw.statusCode = 200;
    this.raw.setHeader('Content-Type', contentType);
    this.raw.setHeader('Cache-Control', 'no-cache, private');
    this.raw.flushHeaders?.();
  }

  private writeWarnings(): void {
    if (this.warnings.length > 0) this.raw.setHeader('Warning', this.warnings.map((w) => `299 - ${JSON.stringify(w)}`));
  }

  /**
   * Sends a body as it is (text is UTF-8 encoded). `headers` are set after the defaults, so they
   * may replace `Cache-Control: no-cache, private`.
   */
  sendBytes(code: number, contentType: string, data: string | Buffer, headers: Readonly<Record<string, string>> = {}): void {
    if (this.expired) return;
    this.writeWarnings();
    let body: Buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.raw.statusCode = code;
    this.raw.setHeader('Content-Type', contentType);
    this.raw.setHeader('Cache-Control', 'no-cache, private');
    for (const [name, value] of Object.entries(headers)) this.raw.setHeader(name, value);
    if (this.options.gzip && body.length >= gzipBytesMin) {
      body = gzipSync(body);
      this.raw.setHeader('Content-Encoding', 'gzip');
      this.raw.setHeader('Vary', 'Accept-Encoding');
    }
    this.raw.setHeader('Content-Length', String(body.length));
    this.raw.end(body);
  }

  /** Answers 304 Not Modified with `headers` (the validator and caching headers) and no body. */
  sendNotModified(headers: Readonly<Record<string, string>>): void {
    if (this.expired) return;
    this.writeWarnings();
    this.raw.statusCode = 304;
    for (const [name, value] of Object.entries(headers)) this.raw.setHeader(name, value);
    this.raw.end();
  }
}
