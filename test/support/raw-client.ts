// A test client that speaks a chosen protocol: HTTP/1.1 (node:https) or HTTP/2 (node:http2), for
// requests and for watch streams read event by event.
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

/** The protocol a RawClient speaks. */
export type Protocol = 'http/1.1' | 'h2';

/** One answer as a test sees it. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

/** One watch event as received. */
export interface RawWatchEvent {
  readonly type: string;
  readonly object: { metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> } } & Record<string, unknown>;
}

/** An open watch stream: `next` waits for events; `ended` settles when the server ends the stream. */
export interface RawWatch {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every event received so far, in order. */
  readonly events: RawWatchEvent[];
  /** Waits until `count` more events arrived after the ones already taken (throws after `timeoutMs`). */
  next(count: number, timeoutMs?: number): Promise<RawWatchEvent[]>;
  /** Waits for the first not-yet-taken event matching `pred`, taking every event up to it. */
  until(pred: (e: RawWatchEvent) => boolean, timeoutMs?: number): Promise<RawWatchEvent>;
  readonly ended: Promise<void>;
  close(): void;
}

interface Exchange {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: AsyncIterable<Buffer>;
  cancel(): void;
}

/** A client of one replica over one protocol; trusts the cluster CA and sends the token. */
export class RawClient {
  private session: ClientHttp2Session | null = null;
  private readonly agent: Agent | null;

  constructor(
    readonly baseUrl: string,
    private readonly caPem: string,
    private readonly token: string,
    readonly protocol: Protocol,
  ) {
    this.agent = protocol === 'http/1.1' ? new Agent({ ca: caPem, keepAlive: true }) : null;
  }

  /** Sends one request; never throws for an HTTP error status. */
  async call(method: string, path: string, body?: unknown): Promise<RawResponse> {
    const ex = await this.exchange(method, path, body);
    const chunks: Buffer[] = [];
    for await (const c of ex.body) chunks.push(c);
    const text = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: ex.status, headers: ex.headers, text, json };
  }

  /**
   * Opens a watch (path including `watch=1`); the response head is awaited, events then stream in.
   * With `readAfter`, nothing of the body is read until it resolves: a client that stalls.
   */
  async watch(path: string, options: { readAfter?: Promise<void> } = {}): Promise<RawWatch> {
    const ex = await this.exchange('GET', path);
    const events: RawWatchEvent[] = [];
    let taken = 0;
    const waker: { wake: (() => void) | null } = { wake: null };
    let done = false;
    const ended = (async () => {
      let buffered = '';
      try {
        await options.readAfter;
        for await (const chunk of ex.body) {
          buffered += chunk.toString('utf8');
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (line !== '') events.push(JSON.parse(line) as RawWatchEvent);
            waker.wake?.();
          }
        }
      } catch {
        // A cancelled stream ends the watch; the test sees it through `ended`.
      } finally {
        done = true;
        waker.wake?.();
      }
    })();
    const waitFor = async (ready: () => boolean, timeoutMs: number, what: string): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      while (!ready()) {
        if (done) throw new Error(`watch ended while waiting for ${what}; got ${JSON.stringify(events.slice(taken).map((e) => e.type))}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(events.slice(taken).map((e) => [e.type, e.object.metadata?.name]))}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 250));
          waker.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        waker.wake = null;
      }
    };
    return {
      status: ex.status,
      headers: ex.headers,
      events,
      ended,
      async next(count, timeoutMs = 10_000) {
        await waitFor(() => events.length - taken >= count, timeoutMs, `${count} events`);
        const out = events.slice(taken, taken + count);
        taken += count;
        return out;
      },
      async until(pred, timeoutMs = 10_000) {
        let found = -1;
        await waitFor(() => (found = events.findIndex((e, i) => i >= taken && pred(e))) >= 0, timeoutMs, 'a matching event');
        taken = found + 1;
        return events[found] as RawWatchEvent;
      },
      close: () => ex.cancel(),
    };
  }

  /** Closes the connection(s). */
  close(): void {
    this.session?.close();
    this.session = null;
    this.agent?.destroy();
  }

  private headersFor(body: string | undefined): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  }

  private exchange(method: string, path: string, payload?: unknown): Promise<Exchange> {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    return this.protocol === 'h2' ? this.exchangeH2(method, path, body) : this.exchangeH1(method, path, body);
  }

  private exchangeH1(method: string, path: string, body: string | undefined): Promise<Exchange> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(new URL(path, this.baseUrl), { method, agent: this.agent ?? undefined, headers: this.headersFor(body) }, (res) => {
        if (res.httpVersion !== '1.1') reject(new Error(`expected HTTP/1.1, got ${res.httpVersion}`));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, cancel: () => req.destroy() });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  private exchangeH2(method: string, path: string, body: string | undefined): Promise<Exchange> {
    if (this.session === null || this.session.closed || this.session.destroyed) {
      this.session = connect(this.baseUrl, { ca: this.caPem });
      this.session.on('error', () => undefined);
    }
    const stream = this.session.request({ [constants.HTTP2_HEADER_METHOD]: method, [constants.HTTP2_HEADER_PATH]: path, ...this.headersFor(body) });
    return new Promise((resolve, reject) => {
      stream.on('error', reject);
      stream.on('response', (headers) => {
        const status = Number(headers[constants.HTTP2_HEADER_STATUS]);
        resolve({ status, headers: headers as IncomingHttpHeaders, body: stream, cancel: () => stream.close(constants.NGHTTP2_CANCEL) });
      });
      stream.end(body);
    });
  }
}
