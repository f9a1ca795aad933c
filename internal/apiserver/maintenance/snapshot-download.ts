/**
 * `GET /orch/v1/snapshot`: the store's snapshot file streamed from a temporary copy, never held in
 * memory, at the pace the client reads it; the copy is removed once the download ends, whether it
 * finished, failed, the client went away or stopped reading for `stallTimeoutMs`.
 */
import { snapshotStallTimeoutMsDefault } from '../limits.ts';
import type { Responder } from '../respond.ts';
import { cutResponse as cut, drained, exchangeClosed, type RawResponse } from '../raw-response.ts';
import type { MaintenanceBackend, SnapshotDownload } from './backend.ts';

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
