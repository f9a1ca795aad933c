// Saves a snapshot download to a file safely: into `<file>.part`, checking while it writes that
// the data after the header line is exactly the header's `size` bytes with its `sha256`, then
// fsync, the header re-read and checked by the storage module's reader, rename, fsync of the
// directory. A download that is cut, too long or corrupt leaves no `<file>` (and no `.part`), nor
// does an interrupt: SIGINT or SIGTERM while it writes removes the `.part` and exits (130, 143).
import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncPath, readSnapshotHeader, snapshotMagic, type SnapshotHeader } from '../storage/snapshot-file.ts';
import { CtlError } from './command.ts';

/** The header line's length at most (as the storage module reads it). */
const headerBytesMax = 64 * 1024;

/** What a saved snapshot holds. */
export interface SavedSnapshot {
  readonly header: SnapshotHeader;
  /** Bytes of the whole file, header line included. */
  readonly fileBytes: number;
}

/** Splits the header line off the first chunks; the rest of the stream is data. */
class HeaderReader {
  private pending = Buffer.alloc(0);
  header: { size: number; sha256: string } | undefined;

  /** Feeds a chunk; returns the data bytes in it once the header is complete (empty until then). */
  push(chunk: Buffer, source: string): Buffer {
    if (this.header !== undefined) return chunk;
    this.pending = Buffer.concat([this.pending, chunk]);
    const magic = Buffer.from(snapshotMagic, 'latin1');
    const checked = this.pending.subarray(0, Math.min(magic.length, this.pending.length));
    if (!checked.equals(magic.subarray(0, checked.length))) throw new CtlError(`${source} did not send an orch snapshot file (no ${snapshotMagic.trim()} header); is it an orch replica?`);
    const newline = this.pending.indexOf(0x0a);
    if (newline < 0) {
      if (this.pending.length > headerBytesMax) throw new CtlError(`${source} sent a snapshot header longer than ${headerBytesMax} bytes; the replica is broken or not orch`);
      return Buffer.alloc(0);
    }
    let fields: { size?: unknown; sha256?: unknown };
    try {
      fields = JSON.parse(this.pending.subarray(magic.length, newline).toString('utf8')) as typeof fields;
    } catch {
      throw new CtlError(`${source} sent a snapshot header that is not JSON; the replica is broken or not orch`);
    }
    if (typeof fields.size !== 'number' || !Number.isSafeInteger(fields.size) || fields.size < 0 || typeof fields.sha256 !== 'string') {
      throw new CtlError(`${source} sent a snapshot header without a valid size and sha256; the replica is broken or not orch`);
    }
    this.header = { size: fields.size, sha256: fields.sha256 };
    const data = this.pending.subarray(newline + 1);
    this.pending = Buffer.alloc(0);
    return data;
  }
}

/**
 * Writes the snapshot file `body` streams to `file` (via `file.part`), verifying it as it goes.
 * `source` names where it comes from in error messages. Throws CtlError for a bad or cut download.
 */
export async function saveSnapshotStream(body: AsyncIterable<Buffer | Uint8Array>, file: string, source: string): Promise<SavedSnapshot> {
  const part = `${file}.part`;
  const handle = await open(part, 'w');
  let closed = false;
  // Node's default for these signals exits at once, leaving the .part: remove it first, exit as the shell expects (128 + signal).
  const onSignal = (signal: NodeJS.Signals): void => {
    try {
      unlinkSync(part);
    } catch {
      // Renamed or removed already.
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const reader = new HeaderReader();
    const hash = createHash('sha256');
    let dataBytes = 0;
    let fileBytes = 0;
    for await (const raw of body) {
      const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
      const data = reader.push(chunk, source);
      if (reader.header !== undefined) {
        dataBytes += data.length;
        if (dataBytes > reader.header.size) throw new CtlError(`${source} sent more than the ${reader.header.size} bytes its snapshot header announces; the replica is broken: try another --endpoint`);
        hash.update(data);
      }
      await handle.write(chunk);
      fileBytes += chunk.length;
    }
    if (reader.header === undefined) throw new CtlError(`the download from ${source} ended before the snapshot header was complete; retry, or try another --endpoint`);
    if (dataBytes < reader.header.size) {
      throw new CtlError(`the download from ${source} ended after ${dataBytes} of ${reader.header.size} bytes; retry, or try another --endpoint`);
    }
    const sha256 = hash.digest('hex');
    if (sha256 !== reader.header.sha256) {
      throw new CtlError(`the snapshot from ${source} is corrupt (sha256 ${sha256}, its header says ${reader.header.sha256}); retry, or try another --endpoint`);
    }
    await handle.sync();
    await handle.close();
    closed = true;
    // The storage module's reader checks every header field and the format, as restore will.
    const { header } = await readSnapshotHeader(part);
    await rename(part, file);
    await fsyncPath(dirname(file));
    return { header, fileBytes };
  } catch (error) {
    if (!closed) await handle.close().catch(() => undefined);
    await unlink(part).catch(() => undefined);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
