import { gzipSync } from 'node:zlib';
import { stringify } from 'yaml';
import type { StatusError } from '../registry/errors/status-error.ts';
import { gzipBytesMin, warningCharsMax, warningsMax, warningsRunesTotalMax } from './limits.ts';
import { negotiateError, type ProtobufMediaType, type ResponseFormat } from './negotiation.ts';
import { encodeProtobuf, type KubeObject } from './protobuf/index.ts';
import { BodyPump } from './body-pump.ts';
import type { RawResponse } from './raw-response.ts';

export type { RawResponse } from './raw-response.ts';

/** `text` cut to `max` characters, ending in "..." when cut. */
export function elide(text: string, max = warningCharsMax): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** How one response is encoded: format, indentation, compression, warnings. */
export interface ResponseOptions {
  format: ResponseFormat;
  /** Set when the body is Protobuf (format 'json': the object itself, or 'metadata'): the media type answered. */
  protobuf?: ProtobufMediaType | undefined;
  pretty: boolean;
  gzip: boolean;
  /** The request's `Accept`: a Status error is negotiated from it alone (negotiateError). */
  readonly accept?: string | undefined;
}

/**
 * Told of the answer just before its status line goes out (the audit: its event is written
 * before the client can see the answer). Called at most once per whole answer.
 */
export interface AnswerHook {
  /** A whole answer with `code`; `body` is the object sent (undefined for text and bytes), `json` its JSON when sent as compact JSON. */
  answered(code: number, body: unknown, json?: string): void;
  /** A stream (watch) is about to send its headers with `code`. */
  streamStarted(code: number): void;
  /**
   * Whether `answered` keeps the response object (an audit at level RequestResponse): such an
   * answer is sent whole, never in pieces (sendPieces). A hook without this method may keep it.
   */
  keepsResponseObject?(): boolean;
}

/** Writes API responses: objects in the negotiated format, Status errors, plain text. */
export class Responder {
  readonly warnings: string[] = [];
  /** Set once the exchange was answered for a handler that runs on (expire): its sends are dropped. */
  private expired = false;
  /** The body being sent in pieces (sendPieces), from its headers until it ended whole. */
  private pump: BodyPump | null = null;

  constructor(
    readonly raw: RawResponse,
    readonly options: ResponseOptions,
    private readonly answerHook?: AnswerHook,
  ) {}

  /** Adds a `Warning: 299 - "..."` header item (once per text; bounded as kube-apiserver bounds them, see writeWarnings). */
  warn(message: string): void {
    if (this.warnings.length < warningsMax && !this.warnings.includes(message)) this.warnings.push(message);
  }

  /**
   * An object in the negotiated encoding (Protobuf, YAML, else JSON) with its media type, parameters
   * not included. A Protobuf body names its apiVersion and kind, which have a message once the
   * negotiation chose Protobuf: encodeProtobuf's StatusError otherwise (406 no message, 500 no
   * kind) is a bug, answered as any error is.
   */
  encode(body: unknown): { readonly mediaType: string; readonly data: string | Buffer } {
    const protobuf = this.options.protobuf;
    if (protobuf !== undefined) return { mediaType: protobuf, data: encodeProtobuf(body as KubeObject) };
    if (this.options.format === 'yaml') return { mediaType: 'application/yaml', data: stringify(body, { version: '1.1' }) };
    return { mediaType: 'application/json', data: this.options.pretty ? `${JSON.stringify(body, null, 2)}\n` : `${JSON.stringify(body)}\n` };
  }

  /** Sends an object in the negotiated format. */
  send(code: number, body: unknown): void {
    const { mediaType, data } = this.encode(body);
    const json = mediaType === 'application/json' && !this.options.pretty && typeof data === 'string' ? data.slice(0, -1) : undefined;
    this.deliver(code, mediaType, data, {}, { value: body, json });
  }

  /**
   * `send`, as kube writes an answer it has as raw bytes (the OpenAPI documents, /version): the
   * audit hears its code but gets no response object, so a multi-megabyte document never lands in
   * an audit event.
   */
  sendDocument(code: number, body: unknown): void {
    const { mediaType, data } = this.encode(body);
    this.deliver(code, mediaType, data, {}, undefined);
  }

  /**
   * Sends a Status error in the encoding `Accept` prefers among JSON, YAML and Protobuf, whatever
   * view or resource the request was for (kube's ErrorNegotiated: a Status always has a message).
   */
  sendError(err: StatusError): void {
    if (this.pump !== null) {
      // A body under way in pieces cannot be ended as if whole: the client must see it cut.
      this.pump.cut();
      return;
    }
    if (this.raw.headersSent) {
      this.raw.end();
      return;
    }
    if (err.details?.retryAfterSeconds !== undefined) this.raw.setHeader('Retry-After', String(err.details.retryAfterSeconds));
    const encoding = negotiateError(this.options.accept);
    const { format, protobuf } = this.options;
    this.options.format = encoding === 'yaml' ? 'yaml' : 'json';
    this.options.protobuf = encoding === 'json' || encoding === 'yaml' ? undefined : encoding;
    this.send(err.code, err.toStatus());
    this.options.format = format;
    this.options.protobuf = protobuf;
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
    this.answerHook?.streamStarted(200);
    this.writeWarnings();
    this.raw.statusCode = 200;
    this.raw.setHeader('Content-Type', contentType);
    this.raw.setHeader('Cache-Control', 'no-cache, private');
    this.raw.flushHeaders?.();
  }

  /**
   * The warnings as kube-apiserver's warning recorder writes them: whole while they add up to at
   * most 4096 characters (runes); past that each is cut to 256 and they are written until 4096 are.
   */
  private writeWarnings(): void {
    if (this.warnings.length === 0) return;
    const runes = (text: string): number => [...text].length;
    let items = this.warnings;
    if (items.reduce((sum, w) => sum + runes(w), 0) > warningsRunesTotalMax) {
      items = [];
      let written = 0;
      for (const w of this.warnings) {
        if (written >= warningsRunesTotalMax) break;
        const cut = [...w].slice(0, warningCharsMax).join('');
        items.push(cut);
        written += runes(cut);
      }
    }
    this.raw.setHeader('Warning', items.map((w) => `299 - ${JSON.stringify(w)}`));
  }

  /**
   * Sends a body as it is (text is UTF-8 encoded). `headers` are set after the defaults, so they
   * may replace `Cache-Control: no-cache, private`.
   */
  sendBytes(code: number, contentType: string, data: string | Buffer, headers: Readonly<Record<string, string>> = {}): void {
    this.deliver(code, contentType, data, headers, undefined);
  }

  /** sendBytes, with the object the bytes encode (`object`) for the answer hook. */
  private deliver(code: number, contentType: string, data: string | Buffer, headers: Readonly<Record<string, string>>, object: { readonly value: unknown; readonly json: string | undefined } | undefined): void {
    if (this.expired) return;
    // A code from outside (a webhook's Status) that HTTP cannot carry must never throw here.
    const statusCode = Number.isInteger(code) && code >= 100 && code <= 599 ? code : 500;
    this.answerHook?.answered(statusCode, object?.value, object?.json);
    this.writeWarnings();
    let body: Buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.raw.statusCode = statusCode;
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

  /** Whether an answer may go out in pieces of compact JSON (sendPieces): not pretty, and nothing asks for the whole response object. */
  canSendPieces(): boolean {
    return !this.options.pretty && (this.answerHook === undefined || this.answerHook.keepsResponseObject?.() === false);
  }

  /**
   * Sends a body produced in pieces (a LIST of many objects), never held whole: headers first (no
   * Content-Length; gzipped as `send` gzips when the client accepts it), then each piece as the
   * client takes them, so the producer reads no further ahead. The answer hook hears the code, not
   * the object. A failure once the headers are out cuts the response (the client sees it
   * incomplete, never a short body that looks whole) and is rethrown.
   */
  async sendPieces(code: number, contentType: string, pieces: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): Promise<void> {
    if (this.expired) return;
    if (!this.canSendPieces()) throw new Error('assert: an answer whose object is kept is sent in pieces');
    this.answerHook?.answered(code, undefined);
    this.writeWarnings();
    this.raw.statusCode = code;
    this.raw.setHeader('Content-Type', contentType);
    this.raw.setHeader('Cache-Control', 'no-cache, private');
    if (this.options.gzip) {
      this.raw.setHeader('Content-Encoding', 'gzip');
      this.raw.setHeader('Vary', 'Accept-Encoding');
    }
    const pump = new BodyPump(this.raw, this.options.gzip);
    this.pump = pump;
    try {
      for await (const piece of pieces) {
        // The exchange closed (the client left, or the body was cut): nobody takes the rest, and
        // the gzip stream under way is let go at once.
        if (!(await pump.write(piece))) {
          pump.cut();
          return;
        }
      }
      await pump.finish();
      this.pump = null;
    } catch (err) {
      // this.pump stays: the error's answer (sendError) must not end the cut body as if whole.
      pump.cut();
      throw err;
    }
  }

  /** Answers 304 Not Modified with `headers` (the validator and caching headers) and no body. */
  sendNotModified(headers: Readonly<Record<string, string>>): void {
    if (this.expired) return;
    this.answerHook?.answered(304, undefined);
    this.writeWarnings();
    this.raw.statusCode = 304;
    for (const [name, value] of Object.entries(headers)) this.raw.setHeader(name, value);
    this.raw.end();
  }
}
