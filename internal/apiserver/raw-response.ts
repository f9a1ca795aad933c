// The response surface the API writes to, shared by the responder and the body pump beneath it.

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
