/**
 * `GET /orch/v1/snapshot`: the store's snapshot file streamed from a temporary copy, never held in
 * memory, at the pace the client reads it; the copy is removed once the download ends, whether it
 * finished, failed, the client went away or stopped reading for `stallTimeoutMs`.
 */
import { constants } from 'node:http2';
import { snapshotStallTimeoutMsDefault } from '../limits.ts';
import type { RawResponse, Responder } from '../respond.ts';
import type { MaintenanceBackend, SnapshotDownload } from './backend.ts';

/** What of an HTTP/2 stream tells that it ended: the compat response's own 'close' may never come. */
interface ClosingStream {
  once(event: 'close' | 'aborted', listener: () => void): unknown;
}

/**
 * Resolves once the exchange is over for whatever reason. An Http2ServerResponse whose stream the
 * client reset does not always emit 'close' itself: the stream's 'close' and 'aborted' are heard too,
 * whichever comes first.
 */
function exchangeClosed(res: RawResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    res.on('close', resolve);
    const stream = res.stream as ClosingStream | undefined;
    stream?.once('close', resolve);
    stream?.once('aborted', resolve);
  });
}

/**
 * Whether the client took what was buffered: true on 'drain'; false once the response closed
 * (then it never will) or nothing was taken for `stallMs`.
 */
function drained(res: RawResponse, closed: Promise<void>, stallMs: number): Promise<boolean> {
  let onDrain = (): void => undefined;
  let timer: NodeJS.Timeout | undefined;
  const drain = new Promise<boolean>((resolve) => {
    onDrain = () => resolve(true);
    res.once('drain', onDrain);
  });
  const stalled = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), stallMs);
  });
  return Promise.race([drain, stalled, closed.then(() => false)]).finally(() => {
    clearTimeout(timer);
    res.off('drain', onDrain);
  });
}

/**
 * Ends a download that will not be whole, buffered data dropped: HTTP/2 resets the stream with
 * CANCEL (a reset with NO_ERROR could pass for a clean end), HTTP/1.1 closes the connection.
 */
function cut(res: RawResponse): void {
  if (res.stream === undefined) res.destroy();
  else res.stream.close(constants.NGHTTP2_CANCEL);
}

/**
 * Writes the whole stream with backpressure; stops early when the response closes. A client that
 * takes nothing for `stallMs`, or an error mid-way, cuts the response: the status line is out, so
 * only a reset stream tells the client the file is not whole.
 */
async function pump(download: SnapshotDownload, res: RawResponse, isClosed: () => boolean, closed: Promise<void>, stallMs: number): Promise<void> {
  try {
    for await (const chunk of download.stream) {
      if (isClosed()) break;
      if (!res.write(chunk as Uint8Array) && !(await drained(res, closed, stallMs))) {
        if (!isClosed()) cut(res);
        break;
      }
    }
    if (!isClosed()) res.end();
  } catch (err) {
    cut(res);
    throw err;
  } finally {
    download.stream.destroy();
    await download.release();
  }
}

/** Options of serveSnapshot. */
export interface SnapshotServeOptions {
  /** A client that takes nothing for this long is cut (default snapshotStallTimeoutMsDefault). */
  readonly stallTimeoutMs?: number;
}

/**
 * Makes the copy, sends the headers, and streams the file in the background: the request is
 * answered (its audit event, its deadline, its latency) once the stream starts, as a watch's is,
 * so a large store is not cut by the request timeout. `log` hears a failure after the headers.
 */
export async function serveSnapshot(backend: MaintenanceBackend, out: Responder, log: (message: string, err?: unknown) => void, options: SnapshotServeOptions = {}): Promise<void> {
  const res = out.raw;
  let closedNow = false;
  const closed = exchangeClosed(res).then(() => {
    closedNow = true;
  });
  const download = await backend.openSnapshot();
  // The client left, or the request's deadline answered it, while the copy was made.
  if (closedNow || res.headersSent) {
    download.stream.destroy();
    await download.release();
    return;
  }
  res.setHeader('Content-Length', String(download.sizeBytes));
  res.setHeader('Content-Disposition', `attachment; filename="${download.fileName}"`);
  out.startStream('application/octet-stream');
  const stallMs = options.stallTimeoutMs ?? snapshotStallTimeoutMsDefault;
  void pump(download, res, () => closedNow, closed, stallMs).catch((err: unknown) => log('the snapshot download failed after it started', err));
}
