// Writes a response body given in pieces (a LIST read page by page) at the pace the client takes
// it, gzipped on the way when asked: nothing is read ahead of what the connection accepts, so the
// server holds a bounded part of the body whatever its size.
import { createGzip, type Gzip } from 'node:zlib';
import { cutResponse, drained, exchangeClosed, type RawResponse } from './raw-response.ts';

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
  async write(piece: string | Uint8Array): Promise<boolean> {
    if (this.closed) return false;
    if (this.gzip === null) return this.raw.write(piece) || drained(this.raw, this.closing);
    return this.gzip.write(piece) || drained(this.gzip, this.closing);
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
    cutResponse(this.raw);
  }

  /** The gzip stream's output to the response, paused while the response holds what the client has not taken. */
  private pipeGzip(gzip: Gzip): Promise<void> {
    return new Promise<void>((resolve) => {
      gzip.on('data', (chunk: Buffer) => {
        if (this.closed || this.raw.write(chunk)) return;
        gzip.pause();
        void drained(this.raw, this.closing).then(() => gzip.resume());
      });
      gzip.once('end', resolve);
      gzip.once('close', resolve);
      gzip.once('error', resolve);
    });
  }
}
