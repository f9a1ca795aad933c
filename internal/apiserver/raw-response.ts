// The response surface the API writes to, and what every body streamed at the client's pace needs
// of it (a LIST in pieces, a snapshot download): when the exchange ended, when the client took what
// was buffered, and how to cut a body that will not be whole.
import { constants } from 'node:http2';

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

/** What of an HTTP/2 stream tells that it ended: the compat response's own 'close' may never come. */
interface ClosingStream {
  once(event: 'close' | 'aborted', listener: () => void): unknown;
}

/**
 * Resolves once the exchange is over for whatever reason (finished, cut, the client went away). An
 * Http2ServerResponse whose stream the client reset does not always emit 'close' itself: the
 * stream's 'close' and 'aborted' are heard too, whichever comes first.
 */
export function exchangeClosed(res: RawResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    res.on('close', resolve);
    const stream = res.stream as ClosingStream | undefined;
    stream?.once('close', resolve);
    stream?.once('aborted', resolve);
  });
}

/** Something that says 'drain' once it took what was buffered (a response, a gzip stream). */
interface Drainable {
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
}

/**
 * Whether `target` took what was buffered: true on 'drain'; false once `closed` settles (then it
 * never will) or, with `stallMs`, once nothing was taken for that long.
 */
export function drained(target: Drainable, closed: Promise<void>, stallMs?: number): Promise<boolean> {
  let onDrain = (): void => undefined;
  let timer: NodeJS.Timeout | undefined;
  const drain = new Promise<boolean>((resolve) => {
    onDrain = () => resolve(true);
    target.once('drain', onDrain);
  });
  const outcomes = [drain, closed.then(() => false)];
  if (stallMs !== undefined) outcomes.push(new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), stallMs);
  }));
  return Promise.race(outcomes).finally(() => {
    clearTimeout(timer);
    target.off('drain', onDrain);
  });
}

/**
 * Ends a body that will not be whole, buffered data dropped: HTTP/2 resets the stream with CANCEL
 * (a reset with NO_ERROR could pass for a clean end), HTTP/1.1 closes the connection.
 */
export function cutResponse(res: RawResponse): void {
  if (res.stream === undefined) res.destroy();
  else res.stream.close(constants.NGHTTP2_CANCEL);
}
