/**
 * `GET /orch/v1/snapshot`: the store's snapshot file streamed from a temporary copy, never held in
 * memory, at the pace the client reads it; the copy is removed once the download ends, whether it
 * finished, failed or the client went away.
 */
import type { RawResponse, Responder } from '../respond.ts';
import type { MaintenanceBackend, SnapshotDownload } from './backend.ts';

/** Resolves once the client takes more data, or once the response is closed (then it never will). */
function drainedOrClosed(res: RawResponse, closed: Promise<void>): Promise<void> {
  let onDrain = (): void => undefined;
  const drained = new Promise<void>((resolve) => {
    onDrain = resolve;
    res.once('drain', onDrain);
  });
  return Promise.race([drained, closed]).finally(() => res.off('drain', onDrain));
}

/** Writes the whole stream with backpressure; stops early when the response closes. An error mid-way cuts the response. */
async function pump(download: SnapshotDownload, res: RawResponse, isClosed: () => boolean, closed: Promise<void>): Promise<void> {
  try {
    for await (const chunk of download.stream) {
      if (isClosed()) break;
      if (!res.write(chunk as Uint8Array)) await drainedOrClosed(res, closed);
      if (isClosed()) break;
    }
    if (!isClosed()) res.end();
  } catch (err) {
    // The status line is out: only a cut connection tells the client the file is not whole.
    res.destroy();
    throw err;
  } finally {
    download.stream.destroy();
    await download.release();
  }
}

/**
 * Makes the copy, sends the headers, and streams the file in the background: the request is
 * answered (its audit event, its deadline, its latency) once the stream starts, as a watch's is,
 * so a large store is not cut by the request timeout. `log` hears a failure after the headers.
 */
export async function serveSnapshot(backend: MaintenanceBackend, out: Responder, log: (message: string, err?: unknown) => void): Promise<void> {
  const res = out.raw;
  let closedNow = false;
  const closed = new Promise<void>((resolve) => res.on('close', resolve)).then(() => {
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
  void pump(download, res, () => closedNow, closed).catch((err: unknown) => log('the snapshot download failed after it started', err));
}
