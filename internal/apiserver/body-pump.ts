// Writes a response body given in pieces (a LIST read page by page) at the pace the client takes
// it, gzipped on the way when asked: nothing is read ahead of what the connection accepts, so the
// server holds a bounded part of the body whatever its size.
import { constants } from 'node:http2';
import { createGzip, type Gzip } from 'node:zlib';
import type { RawResponse } from './raw-response.ts';

/** What of an HTTP/2 stream tells that it ended: the compat response's own 'close' may not come. */
interface ClosingStream {
  once(event: 'close' | 'aborted', listener: () => void): unknown;
}

/** Resolves once the exchange is over for whatever reason (finished, cut, the client went away). */
function exchangeClosed(raw: RawResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    raw.on('close', resolve);
    const stream = raw.stream as ClosingStream | undefined;
    stream?.once('close', resolve);
    stream?.once('aborted', resolve);
  });
}

/** Writes one body's pieces to a response whose headers are set, with back-pressure. */
export class BodyPump {
  private closed = false;
  private readonly closing: Promise<void>;
  private readonly gzip: Gzip | null;
  /** Settles when the gzip stream has handed its last bytes to the response. */
  private readonly gzipDone: Promise<void>;

  constructor(
    private readonly raw: RawResponse,
    gzip: boolean,
  ) {
    this.closing = exchangeClosed(raw).then(() => {
      this.closed = true;
    });
    this.gzip = gzip ? createGzip() : null;
    this.gzipDone = this.gzip === null ? Promise.resolve() : this.pipeGzip(this.gzip);
  }

  /** Writes a piece; false once the exchange closed (stop producing: nobody reads the rest). */
  async write(piece: string): Promise<boolean> {
    if (this.closed) return false;
    if (this.gzip === null) return this.raw.write(piece) || this.drained(this.raw);
    return this.gzip.write(piece) || this.drained(this.gzip);
  }

  /** Ends the body once every piece is out (the gzip stream's last bytes included). */
  async finish(): Promise<void> {
    if (this.gzip !== null) {
      this.gzip.end();
      await this.gzipDone;
    }
    if (!this.closed) this.raw.end();
  }

  /**
   * Ends a body that will not be whole, buffered data dropped: HTTP/2 resets the stream with CANCEL
   * (a reset with NO_ERROR could pass for a clean end), HTTP/1.1 closes the connection.
   */
  cut(): void {
    this.closed = true;
    this.gzip?.destroy();
    if (this.raw.stream === undefined) this.raw.destroy();
    else this.raw.stream.close(constants.NGHTTP2_CANCEL);
  }

  /** The gzip stream's output to the response, paused while the response holds what the client has not taken. */
  private pipeGzip(gzip: Gzip): Promise<void> {
    return new Promise<void>((resolve) => {
      gzip.on('data', (chunk: Buffer) => {
        if (this.closed || this.raw.write(chunk)) return;
        gzip.pause();
        void this.drained(this.raw).then(() => gzip.resume());
      });
      gzip.once('end', resolve);
      gzip.once('close', resolve);
      gzip.once('error', resolve);
    });
  }

  /** Whether `target` drained (true) or the exchange closed first (false). */
  private drained(target: { once(event: 'drain', l: () => void): unknown; off(event: 'drain', l: () => void): unknown }): Promise<boolean> {
    let onDrain = (): void => undefined;
    const drain = new Promise<boolean>((resolve) => {
      onDrain = () => resolve(true);
      target.once('drain', onDrain);
    });
    return Promise.race([drain, this.closing.then(() => false)]).finally(() => target.off('drain', onDrain));
  }
}
